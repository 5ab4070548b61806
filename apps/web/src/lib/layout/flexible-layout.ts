/**
 * The start-up layout rules of SPEC.md ("Startup", "Business constants"):
 * - root font size = viewport width / 10, kept current on resize and when the page comes back
 *   from the back-forward cache;
 * - body font size = 12 × devicePixelRatio px;
 * - class `hairlines` on <html> when devicePixelRatio ≥ 2.
 * global.css gives the same values before this runs, so the first paint does not jump.
 */
const HAIRLINES_CLASS = 'hairlines';
const ROOT_FONT_DIVISOR = 10;
const BODY_FONT_PX_PER_DPR = 12;
const HAIRLINE_MIN_DPR = 2;

export function applyFlexibleLayout(win: Window): void {
  const doc = win.document;
  const html = doc.documentElement;
  const dpr = win.devicePixelRatio || 1;
  html.style.fontSize = `${html.clientWidth / ROOT_FONT_DIVISOR}px`;
  // The DOM types promise a body; a script in <head> runs before there is one.
  const body = doc.body as HTMLElement | null;
  if (body) body.style.fontSize = `${BODY_FONT_PX_PER_DPR * dpr}px`;
  html.classList.toggle(HAIRLINES_CLASS, dpr >= HAIRLINE_MIN_DPR);
}

const installed = new WeakMap<Window, () => void>();

/**
 * Applies the rules now and keeps them applied; returns a function that stops listening. Once per
 * window: a share page's start-up script installs it before the app does.
 */
export function installFlexibleLayout(win: Window): () => void {
  const existing = installed.get(win);
  if (existing) return existing;
  const apply = () => {
    applyFlexibleLayout(win);
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) apply();
  };
  apply();
  if (!(win.document.body as HTMLElement | null))
    win.document.addEventListener('DOMContentLoaded', apply, { once: true });
  win.addEventListener('resize', apply);
  win.addEventListener('pageshow', onPageShow);
  const uninstall = () => {
    installed.delete(win);
    win.document.removeEventListener('DOMContentLoaded', apply);
    win.removeEventListener('resize', apply);
    win.removeEventListener('pageshow', onPageShow);
  };
  installed.set(win, uninstall);
  return uninstall;
}
