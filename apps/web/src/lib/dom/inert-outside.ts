/**
 * Makes everything on the page but `element` (and its ancestors) inert: not focusable, not
 * clickable, hidden from screen readers. Returns the undo, which leaves alone what was inert
 * before. A native modal `<dialog>` does this itself; doing it explicitly too keeps browsers
 * without `showModal` (and jsdom) right.
 */
export function inertOutside(element: Element): () => void {
  const madeInert: Element[] = [];
  for (let node: Element = element; node.parentElement; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      // The attribute, not the property: jsdom has no `inert` property.
      if (sibling === node || sibling.hasAttribute('inert')) continue;
      sibling.setAttribute('inert', '');
      madeInert.push(sibling);
    }
    if (node.parentElement === document.body) break;
  }
  return () => {
    for (const sibling of madeInert) sibling.removeAttribute('inert');
  };
}
