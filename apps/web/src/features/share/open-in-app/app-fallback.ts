/**
 * The "did the app open?" check: when the app opens, the browser hides the page (or unloads it);
 * if the page is still visible when the delay is over, the app is not installed and `onFallback`
 * runs (the caller sends the visitor to the store). Returns a function that cancels the check.
 */
export function watchAppLaunch(
  doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>,
  win: Pick<Window, 'addEventListener' | 'removeEventListener' | 'setTimeout' | 'clearTimeout'>,
  delayMs: number,
  onFallback: () => void,
): () => void {
  let timer: number | undefined;
  const stop = () => {
    if (timer !== undefined) win.clearTimeout(timer);
    timer = undefined;
    doc.removeEventListener('visibilitychange', onVisibilityChange);
    win.removeEventListener('pagehide', stop);
  };
  function onVisibilityChange() {
    if (doc.visibilityState === 'hidden') stop();
  }
  doc.addEventListener('visibilitychange', onVisibilityChange);
  win.addEventListener('pagehide', stop);
  timer = win.setTimeout(() => {
    const visible = doc.visibilityState === 'visible';
    stop();
    if (visible) onFallback();
  }, delayMs);
  return stop;
}
