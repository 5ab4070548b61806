import type { Language } from '@guquan/contract/language';
import type { PageHead } from '@guquan/contract/page-render';

/**
 * What a page adds to <head> (previews, robots, app banner), from its loader data, the query it
 * was rendered for and the server's settings. Read on the server only: a route's head lives in
 * `route-heads/<route module's name>.ts`, beside (not inside) its route module, so the browser
 * never downloads what only the server's HTML needs (the share pages' preview pictures).
 */
export type RouteHead = (
  loaderData: unknown,
  language: Language,
  search: string,
  settings: { linkOrigin: string },
) => PageHead;

const routeHeads = import.meta.glob<{ head: RouteHead }>('./route-heads/*.ts');

/** The head function of a route module's page, if it has one. */
export async function loadRouteHead(name: string): Promise<RouteHead | undefined> {
  const load = routeHeads[`./route-heads/${name}.ts`];
  return load ? (await load()).head : undefined;
}
