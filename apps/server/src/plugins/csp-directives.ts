/**
 * The Content-Security-Policy every response starts from. Non-HTML responses get it as it is
 * (security-headers.ts); each page adds the hashes of exactly its own inline script and style
 * (pages/page-csp.ts), so a page can be cached and sent to many visitors with one policy.
 */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

export function cspDirectives(production: boolean): CspDirectives {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    mediaSrc: ["'self'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    ...(production ? { upgradeInsecureRequests: [] } : {}),
  };
}

/** The header's text, as @fastify/helmet writes it (`defaultSrc` becomes `default-src`). */
export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, values]) =>
      [name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`), ...values].join(' '),
    )
    .join(';');
}
