import type { ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_EVENTS_PATH } from '@guquan/contract/platform-events';
import { newWebhookId, signedHeaders } from '../http/signed-deliveries.ts';
import { assertServerBuilt, killHard, startDemoServer } from '../test-support/built-server.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';
import { pid, userEvent } from '../test-support/platform-deliveries.ts';
import { makeTempDataDir, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { sleep } from '../timing/sleep.ts';

/**
 * A secret rotated through its file on a running server (the built one, as `npm start` runs it):
 * on SIGHUP, and when the file changes with no signal at all. Meanwhile the old and the new
 * secret are both accepted, then only the new, by the same process, which never restarts.
 */
const PORT = 18_900 + (process.pid % 90);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const OLD = TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS ?? '';
const NEW = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

let temp: { dataDir: string; remove: () => Promise<void> };
let server: ChildProcess;
let secretsFile: string;
let version = 0;

/** A delivery signed with `secret`: its status. */
async function deliverSignedWith(secret: string): Promise<number> {
  version += 1;
  const body = JSON.stringify({ events: [userEvent(pid('rotation', 1), version)] });
  const response = await fetch(`${ORIGIN}${PLATFORM_EVENTS_PATH}`, {
    method: 'POST',
    headers: signedHeaders(secret, newWebhookId(), body, new Date()),
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  assertServerBuilt();
  temp = await makeTempDataDir();
  // A folder of its own, as a Kubernetes Secret is mounted (the data folder changes all the time).
  const secrets = join(temp.dataDir, 'secrets');
  mkdirSync(secrets);
  secretsFile = join(secrets, 'webhook-secrets');
  writeFileSync(secretsFile, `${OLD}\n`, { mode: 0o600 });
  const platform = Object.fromEntries(
    Object.entries(TEST_PLATFORM_ENV).filter(([name]) => name !== 'PLATFORM_WEBHOOK_SECRETS'),
  );
  server = await startDemoServer({
    port: PORT,
    dataDir: temp.dataDir,
    env: { ...platform, PLATFORM_WEBHOOK_SECRETS_FILE: secretsFile },
  });
});
afterAll(async () => {
  await killHard(server);
  await temp.remove();
});

describe("the platform's webhook secrets rotated through their file", () => {
  it('takes up the new list on SIGHUP, then on a change of the file alone, in one process', async () => {
    const { pid: serverPid } = server;
    expect(await deliverSignedWith(OLD)).toBe(200);
    expect(await deliverSignedWith(NEW)).toBe(401);

    // Step 1 of a rotation: both secrets, then SIGHUP.
    writeFileSync(secretsFile, `${OLD},${NEW}\n`);
    server.kill('SIGHUP');
    await expect.poll(() => deliverSignedWith(NEW), EVENTUALLY).toBe(200);
    expect(await deliverSignedWith(OLD)).toBe(200);

    // Step 3: the old one withdrawn; the file written as Kubernetes does, no signal.
    writeFileSync(`${secretsFile}.next`, `${NEW}\n`);
    renameSync(`${secretsFile}.next`, secretsFile);
    await expect.poll(() => deliverSignedWith(OLD), EVENTUALLY).toBe(401);
    expect(await deliverSignedWith(NEW)).toBe(200);

    // A file that no longer reads changes nothing: the secrets in use stay.
    // (Waited for a moment: on a slow machine this passes sooner than it should, never fails.)
    writeFileSync(secretsFile, 'not a secret\n');
    server.kill('SIGHUP');
    await sleep(1_000);
    expect(await deliverSignedWith(NEW)).toBe(200);

    expect(server.pid).toBe(serverPid);
    expect(server.exitCode).toBeNull();
  });
});
