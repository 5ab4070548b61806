import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeTestKey,
  signTestToken,
  startTestJwks,
  TEST_ISSUER,
  type TestJwksServer,
  type TestKey,
} from '../test-support/test-jwks.ts';
import { platformTokenVerifier, type TokenCheck } from './platform-tokens.ts';

/**
 * The platform's tokens (PRODUCT.md, "Who the user is"), verified with jose against a JWKS on
 * loopback that counts its requests.
 */
let es: TestKey;
let rs: TestKey;
let ed: TestKey;
let jwks: TestJwksServer;

beforeAll(async () => {
  [es, rs, ed] = await Promise.all([
    makeTestKey('ES256'),
    makeTestKey('RS256'),
    makeTestKey('EdDSA'),
  ]);
  jwks = await startTestJwks([es, rs, ed]);
});
afterAll(() => jwks.close());
afterEach(() => {
  vi.useRealTimers();
  jwks.serve([es, rs, ed]);
});

const verifierOn = (server: TestJwksServer) =>
  platformTokenVerifier({ issuer: TEST_ISSUER, jwksUrl: server.url });
const now = () => Math.floor(Date.now() / 1000);
const refused = (check: TokenCheck) => !check.ok;

describe('platform tokens', () => {
  it('accepts ES256, RS256 and EdDSA tokens, with the user, iat and auth_time', async () => {
    const verify = verifierOn(jwks);
    for (const key of [es, rs, ed]) {
      // Read the clock once: signing and verifying may cross a second on a busy machine.
      const at = now();
      const token = await signTestToken(key, {
        sub: 'u_1-x0123456789a',
        iat: at - 5,
        auth_time: at - 99,
      });
      const check = await verify(token);
      expect(check).toEqual({
        ok: true,
        claims: { userId: 'u_1-x0123456789a', issuedAt: at - 5, authTime: at - 99 },
      });
    }
  });

  it('allows 60 s of clock skew on exp, and no more', async () => {
    const verify = verifierOn(jwks);
    expect((await verify(await signTestToken(es, { exp: now() - 30 }))).ok).toBe(true);
    expect(refused(await verify(await signTestToken(es, { exp: now() - 61 })))).toBe(true);
  });

  it('refuses another issuer or audience', async () => {
    const verify = verifierOn(jwks);
    expect(refused(await verify(await signTestToken(es, { iss: 'https://evil.test' })))).toBe(true);
    expect(refused(await verify(await signTestToken(es, { aud: 'another-app' })))).toBe(true);
  });

  it.each(['sub', 'iat', 'exp', 'auth_time'] as const)(
    'refuses a token without %s',
    async (claim) => {
      const verify = verifierOn(jwks);
      expect(refused(await verify(await signTestToken(es, { [claim]: undefined })))).toBe(true);
    },
  );

  it('refuses a sub that is no user id', async () => {
    const verify = verifierOn(jwks);
    expect(refused(await verify(await signTestToken(es, { sub: 'a/b' })))).toBe(true);
    expect(refused(await verify(await signTestToken(es, { sub: 'x'.repeat(65) })))).toBe(true);
  });

  it('refuses alg none and HMAC, even naming a known kid', async () => {
    const verify = verifierOn(jwks);
    const claims = { sub: 'platformUser0001', auth_time: now() };
    const unsecured = new UnsecuredJWT(claims)
      .setIssuer(TEST_ISSUER)
      .setAudience('guquan-web')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    expect(refused(await verify(unsecured))).toBe(true);
    // HMAC keyed with the public key's bytes: the classic confusion.
    const secret = new TextEncoder().encode(JSON.stringify(es.publicJwk));
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: es.kid })
      .setIssuer(TEST_ISSUER)
      .setAudience('guquan-web')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    const check = await verify(hmac);
    expect(check).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('refuses a token signed by a key the JWKS does not have', async () => {
    const verify = verifierOn(jwks);
    const stranger = await makeTestKey('ES256');
    expect(refused(await verify(await signTestToken(stranger)))).toBe(true);
    // A known kid with another key's signature is no better.
    const forged = await signTestToken({ ...stranger, kid: es.kid });
    expect(refused(await verify(forged))).toBe(true);
  });

  it('fetches the JWKS once for a burst of tokens, known or naming an unknown kid', async () => {
    const slow = await startTestJwks([es], { delayMs: 200 });
    try {
      const verify = verifierOn(slow);
      const good = await signTestToken(es);
      const cold = await Promise.all(Array.from({ length: 20 }, () => verify(good)));
      expect(cold.every((check) => check.ok)).toBe(true);
      expect(slow.requests()).toBe(1);

      // 30 s later: a burst naming a kid the cache lacks fetches once more, all together.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 31_000);
      const unknown = await makeTestKey('ES256');
      const burst = await signTestToken(unknown);
      const answers = await Promise.all(Array.from({ length: 50 }, () => verify(burst)));
      expect(answers.every(refused)).toBe(true);
      expect(slow.requests()).toBe(2);
      // And not again within 30 s, however many come.
      await Promise.all(Array.from({ length: 10 }, () => verify(burst)));
      vi.setSystemTime(Date.now() + 20_000);
      await verify(burst);
      expect(slow.requests()).toBe(2);
    } finally {
      await slow.close();
    }
  });

  it('follows a rotation: the new kid after one refetch, the old while it is listed', async () => {
    const rotating = await startTestJwks([es]);
    try {
      const verify = verifierOn(rotating);
      expect((await verify(await signTestToken(es))).ok).toBe(true);
      expect(rotating.requests()).toBe(1);

      const next = await makeTestKey('ES256');
      rotating.serve([es, next]);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 31_000);
      expect((await verify(await signTestToken(next))).ok).toBe(true);
      expect(rotating.requests()).toBe(2);
      // The old key is still listed: its tokens still pass, from the cache.
      expect((await verify(await signTestToken(es))).ok).toBe(true);
      expect((await verify(await signTestToken(next))).ok).toBe(true);
      expect(rotating.requests()).toBe(2);
    } finally {
      await rotating.close();
    }
  });

  it('says when the keys could not be had', async () => {
    const gone = await startTestJwks([es]);
    const url = gone.url;
    await gone.close();
    const verify = platformTokenVerifier({ issuer: TEST_ISSUER, jwksUrl: url });
    expect(await verify(await signTestToken(es))).toMatchObject({ ok: false, reason: 'keys' });
  });
});
