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
  jwks.cacheControl(undefined);
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

  it('takes a token without kid only while one key of its algorithm could have signed it', async () => {
    const withoutKid = (key: TestKey) =>
      new SignJWT({
        sub: 'platformUser0001',
        iss: TEST_ISSUER,
        aud: 'guquan-web',
        auth_time: now(),
      })
        .setProtectedHeader({ alg: key.alg, typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key.privateKey);
    const single = await startTestJwks([es, rs]);
    const next = await makeTestKey('ES256');
    const rotating = await startTestJwks([es, next]);
    try {
      expect((await verifierOn(single)(await withoutKid(es))).ok).toBe(true);
      // During a rotation the JWKS holds two ES256 keys: which one is not said, so refused.
      expect(refused(await verifierOn(rotating)(await withoutKid(es)))).toBe(true);
      expect((await verifierOn(rotating)(await signTestToken(es))).ok).toBe(true);
    } finally {
      await Promise.all([single.close(), rotating.close()]);
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

/** A clock the test moves: the verifier's cache reads it, tokens stay within their hour. */
function testClock() {
  let at = Date.now();
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
  };
}

describe('the JWKS, fetched at most once per 30 s, kept as long as it says', () => {
  let server: TestJwksServer;
  beforeAll(async () => {
    server = await startTestJwks([es]);
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.serve([es]);
    server.cacheControl(undefined);
  });

  const verifierAt = (clock: ReturnType<typeof testClock>) =>
    platformTokenVerifier({ issuer: TEST_ISSUER, jwksUrl: server.url, now: clock.now });

  it.each(['status 500', 'garbage'] as const)(
    'fetches a JWKS that answers %s once per 30 s, however many tokens come',
    async (how) => {
      server.fail(how);
      const before = server.requests();
      const fetches = () => server.requests() - before;
      const clock = testClock();
      const verify = verifierAt(clock);
      const token = await signTestToken(es);
      // 20 one after another, then 20 at once: all refused for the keys, one fetch.
      for (let index = 0; index < 20; index++) {
        expect(await verify(token)).toMatchObject({ ok: false, reason: 'keys' });
      }
      const together = await Promise.all(Array.from({ length: 20 }, () => verify(token)));
      expect(together.every((check) => !check.ok && check.reason === 'keys')).toBe(true);
      expect(fetches()).toBe(1);
      clock.advance(29_999);
      await verify(token);
      expect(fetches()).toBe(1);
      // 30 s after the failed fetch: one more, and the keys are back.
      server.serve([es]);
      clock.advance(1);
      const answers = await Promise.all(Array.from({ length: 20 }, () => verify(token)));
      expect(answers.every((check) => check.ok)).toBe(true);
      expect(fetches()).toBe(2);
    },
  );

  it('counts a failed fetch against the 30 s of an unknown kid', async () => {
    const clock = testClock();
    const verify = verifierAt(clock);
    const before = server.requests();
    expect((await verify(await signTestToken(es))).ok).toBe(true);
    clock.advance(31_000);
    server.fail('status 500');
    const stranger = await signTestToken(await makeTestKey('ES256'));
    for (let index = 0; index < 10; index++) {
      expect(await verify(stranger)).toMatchObject({ ok: false });
    }
    // The known key's tokens pass from the copy meanwhile.
    expect((await verify(await signTestToken(es))).ok).toBe(true);
    expect(server.requests() - before).toBe(2);
  });

  it.each([
    ['max-age=60', 60_000],
    ['public, max-age=120', 120_000],
    // Longer than 5 minutes, or said nothing: 5 minutes.
    ['max-age=86400', 300_000],
    [undefined, 300_000],
    // Shorter than 30 s, or not to be kept: 30 s, the fetches' own limit.
    ['no-store', 30_000],
    ['max-age=5', 30_000],
  ])('stops taking a withdrawn key as Cache-Control %s says: %i ms', async (header, keptMs) => {
    server.cacheControl(header);
    const clock = testClock();
    const verify = verifierAt(clock);
    const before = server.requests();
    const token = await signTestToken(es);
    expect((await verify(token)).ok).toBe(true);
    // The platform withdraws the key: another takes its place.
    const next = await makeTestKey('ES256');
    server.serve([next]);
    clock.advance(keptMs - 1);
    expect((await verify(token)).ok).toBe(true);
    expect(server.requests() - before).toBe(1);
    clock.advance(1);
    expect(await verify(token)).toMatchObject({ ok: false, reason: 'invalid' });
    expect((await verify(await signTestToken(next))).ok).toBe(true);
    expect(server.requests() - before).toBe(2);
  });

  it('counts the time a cache in between already kept it (Age)', async () => {
    server.cacheControl('max-age=120');
    const aged = await startTestJwks([es]);
    try {
      aged.cacheControl('max-age=120');
      const clock = testClock();
      const verify = platformTokenVerifier({
        issuer: TEST_ISSUER,
        jwksUrl: aged.url,
        now: clock.now,
        fetch: async (input, init) => {
          const answer = await fetch(input, init);
          const headers = new Headers(answer.headers);
          headers.set('age', '90');
          return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
        },
      });
      expect((await verify(await signTestToken(es))).ok).toBe(true);
      clock.advance(30_000);
      expect((await verify(await signTestToken(es))).ok).toBe(true);
      expect(aged.requests()).toBe(2);
    } finally {
      await aged.close();
    }
  });
});
