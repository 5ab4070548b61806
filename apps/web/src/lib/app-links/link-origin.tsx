import { createContext, useContext, type ReactNode } from 'react';

/**
 * The app's link domain (the server's LINK_ORIGIN), which every Universal Link points at. It is a
 * setting of the server, not of the build: the server renders with it and writes it into every
 * page it sends (`<meta name="guquan-link-origin">`), and the browser reads it back from there, so
 * both render the same links and a deployment changes it without a new build.
 */
const LinkOriginContext = createContext<string>('');

export function LinkOriginProvider({
  linkOrigin,
  children,
}: {
  linkOrigin: string;
  children: ReactNode;
}) {
  return <LinkOriginContext value={linkOrigin}>{children}</LinkOriginContext>;
}

/** The link domain's origin, e.g. `https://link.guquan.example` ('' on a page that has none). */
export function useLinkOrigin(): string {
  return useContext(LinkOriginContext);
}
