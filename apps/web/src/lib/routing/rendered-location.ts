/**
 * The id of the block in which the server sends the router's hydration data and the address it
 * rendered (app/hydration-data.ts writes and reads it).
 */
export const HYDRATION_DATA_ID = 'app-hydration';

/**
 * Where the server rendered the page, read without the router (the share pages' start-up script,
 * before React: docs/decisions/0031-share-pages-start-without-react.md), or `undefined`.
 */
export function renderedLocation(doc: Document): { pathname: string; search: string } | undefined {
  try {
    const payload = JSON.parse(doc.getElementById(HYDRATION_DATA_ID)?.textContent ?? 'null') as {
      location?: { pathname?: unknown; search?: unknown };
    } | null;
    const { pathname, search } = payload?.location ?? {};
    return typeof pathname === 'string' && typeof search === 'string'
      ? { pathname, search }
      : undefined;
  } catch {
    return undefined;
  }
}
