/**
 * How a host name is compared: the one reading of a Host header (or of an absolute-form target's
 * host, or of a configured origin's) that decides which requests are the link domain's
 * (app-links/link-domain.ts) and which settings name the same host (app-links-config.ts).
 */

/** A request's host as nginx reads it to choose a `server {}`: see normalisedHost. */
export interface RequestHost {
  /** Lower case, without a trailing dot; an IPv6 address keeps its brackets. */
  name: string;
  /** The port as written after the name, '' when none. */
  port: string;
}

/**
 * `host[:port]` read the way nginx reads a Host header to choose a `server {}`
 * (ngx_http_validate_host): lower case, one trailing dot dropped (`link.example.com.` is
 * `link.example.com`), the port apart. Undefined when it names no host (empty, or holding `/`,
 * `\` or a NUL, which nginx refuses).
 */
export function normalisedHost(authority: string): RequestHost | undefined {
  const host = authority.trim().toLowerCase();
  if (host.length > 300 || /[/\\\0]/.test(host)) return undefined;
  // The name ends at the first colon, or at the bracket that closes an IPv6 address.
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(.*))?$/.exec(host);
  const written = match?.[1] ?? '';
  const name = written.endsWith('.') ? written.slice(0, -1) : written;
  return name === '' ? undefined : { name, port: match?.[2] ?? '' };
}

/** The port a scheme's URLs mean when they name none. */
export function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** An http(s) origin's host, normalised, its port spelled out (the scheme's default when none). */
export function originHost(origin: string): RequestHost {
  const url = new URL(origin);
  return {
    name: normalisedHost(url.host)?.name ?? url.hostname,
    port: url.port || defaultPort(url.protocol),
  };
}
