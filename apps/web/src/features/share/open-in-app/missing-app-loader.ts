/**
 * The missing-app sheet and the store toast, loaded on demand (a tap, or a return from the link
 * domain): never part of the share pages' start-up JavaScript. One loader, so that waiting for it
 * before a toast and rendering it lazily share one request.
 */
export function loadMissingAppLayer() {
  return import('../missing-app-sheet/missing-app-layer');
}
