import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { standInsPerTest } from '../test-support/stand-in-per-test.ts';
import { STAND_IN_ISSUER } from '../demo/stand-in-client.ts';
import type { StandInPlatform } from './stand-in-platform.ts';

const { start, closeAll, dataDir } = standInsPerTest('guquan-stand-in-');

function demoToken(platform: StandInPlatform, body: unknown, token = platform.secrets.apiToken) {
  return fetch(`${platform.origin}/demo/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

describe('the stand-in platform', () => {
  it('listens on loopback and gives settings loadConfig takes', async () => {
    const platform = await start();
    expect(platform.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const config = loadConfig(
      { ...platform.env, DATA_DIR: dataDir() },
      { webDistDir: dataDir(), dataDir: dataDir() },
    );
    expect(config.platform).toMatchObject({
      issuer: STAND_IN_ISSUER,
      jwksUrl: `${platform.origin}/.well-known/jwks.json`,
      apiUrl: platform.origin,
      mediaOrigins: [platform.origin],
    });
  });

  it('signs demo tokens that verify against its JWKS, for its service token only', async () => {
    const platform = await start();
    expect((await demoToken(platform, { userId: 'abc' }, 'wrong')).status).toBe(401);
    expect((await demoToken(platform, { userId: 'a/b' })).status).toBe(400);
    const response = await demoToken(platform, { userId: 'abc', authTime: 1_700_000_000 });
    expect(response.status).toBe(201);
    const { token } = (await response.json()) as { token: string };
    const keys = createRemoteJWKSet(new URL(platform.env.PLATFORM_JWKS_URL ?? ''));
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      issuer: STAND_IN_ISSUER,
      audience: 'guquan-web',
    });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ sub: 'abc', auth_time: 1_700_000_000 });
  });

  it('keeps its keys and secrets across a restart, readable by its owner only', async () => {
    const first = await start();
    const { token } = await first.keys.sign(STAND_IN_ISSUER, { userId: 'abc' });
    const secrets = first.secrets;
    await closeAll();
    const second = await start();
    expect(second.secrets).toEqual(secrets);
    expect(second.keys.jwks().keys.map((key) => key.kid)).toContain(
      decodeProtectedHeader(token).kid,
    );
    const mode = (await stat(join(dataDir(), 'stand-in', 'signing-keys.json'))).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('rotates: a new kid signs, the old one stays listed, and both survive a restart', async () => {
    const platform = await start();
    const [old] = platform.keys.jwks().keys;
    const kid = await platform.keys.rotate();
    expect(platform.keys.jwks().keys.map((key) => key.kid)).toEqual([old?.kid, kid]);
    const { token } = await platform.keys.sign(STAND_IN_ISSUER, { userId: 'abc' });
    expect(decodeProtectedHeader(token).kid).toBe(kid);
    const served = (await (await fetch(platform.env.PLATFORM_JWKS_URL ?? '')).json()) as {
      keys: { kid: string; d?: string }[];
    };
    expect(served.keys.map((key) => key.kid)).toEqual([old?.kid, kid]);
    // Public halves only.
    expect(served.keys.every((key) => key.d === undefined)).toBe(true);
  });
});
