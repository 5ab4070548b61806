import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** A platform's signing key in a test: its algorithm, kid and both halves. */
export interface TestKey {
  alg: 'ES256' | 'RS256' | 'EdDSA';
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function makeTestKey(alg: TestKey['alg'] = 'ES256'): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}),
  });
  const kid = randomUUID();
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg } };
}

export interface TestJwksServer {
  url: string;
  /** How many times the JWKS was asked for. */
  requests: () => number;
  /** The keys it serves from now on (and answers with them again). */
  serve: (keys: TestKey[]) => void;
  /** From now on answers 500, or 200 with bytes that are no JWKS, until `serve`. */
  fail: (how: 'status 500' | 'garbage') => void;
  /** The Cache-Control it answers with from now on (none when undefined). */
  cacheControl: (value: string | undefined) => void;
  close: () => Promise<void>;
}

/** A JWKS on loopback that counts its requests, answering after `delayMs`. */
export async function startTestJwks(
  keys: TestKey[],
  { delayMs = 0 }: { delayMs?: number } = {},
): Promise<TestJwksServer> {
  let served = keys;
  let failing: 'status 500' | 'garbage' | undefined;
  let cacheControl: string | undefined;
  let count = 0;
  const server: Server = createServer((_request, response) => {
    count += 1;
    setTimeout(() => {
      if (failing === 'status 500') {
        response.writeHead(500).end('{"error":"down"}');
        return;
      }
      response.setHeader('content-type', 'application/json');
      if (cacheControl !== undefined) response.setHeader('cache-control', cacheControl);
      if (failing === 'garbage') {
        response.end('<html>502 Bad Gateway</html>');
        return;
      }
      response.end(JSON.stringify({ keys: served.map((key) => key.publicJwk) }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    requests: () => count,
    serve: (next) => {
      served = next;
      failing = undefined;
    },
    fail: (how) => {
      failing = how;
    },
    cacheControl: (value) => {
      cacheControl = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export const TEST_ISSUER = 'https://platform.test';

export interface TestClaims {
  sub?: string;
  iss?: string;
  aud?: string;
  /** Unix seconds; now by default. */
  iat?: number;
  exp?: number;
  auth_time?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A token signed with `key` as the platform signs one: iss TEST_ISSUER, aud guquan-web, an hour
 * long; a claim given as undefined in `claims` is left out.
 */
export function signTestToken(key: TestKey, claims: TestClaims = {}): Promise<string> {
  const now = nowSeconds();
  const merged: Record<string, unknown> = {
    sub: 'platformUser0001',
    iss: TEST_ISSUER,
    aud: 'guquan-web',
    iat: now,
    exp: now + 3600,
    auth_time: now,
    ...claims,
  };
  const full = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined),
  );
  return new SignJWT(full)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
}
