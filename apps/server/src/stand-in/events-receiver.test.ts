import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '../http/signed-deliveries.ts';
import {
  EVENTS_RECEIVER_PATH,
  RECEIVED_EVENTS_FAULT_PATH,
  RECEIVED_EVENTS_PATH,
} from './events-receiver.ts';
import { startStandInPlatform, type StandInPlatform } from './stand-in-platform.ts';

/** The stand-in's events receiver and its demo endpoints (issue 30's shapes). */
let dataDir: string;
let platform: StandInPlatform;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'guquan-receiver-'));
  platform = await startStandInPlatform({ dataDir });
});
afterAll(async () => {
  await platform.close();
  await rm(dataDir, { recursive: true, force: true });
});

const body = JSON.stringify({
  events: [{ type: 'account.deletion_withdrawn', data: { userId: 'u1', why: 'logged_in' } }],
});
const post = (headers: Record<string, string>, payload = body) =>
  fetch(`${platform.origin}${EVENTS_RECEIVER_PATH}`, { method: 'POST', headers, body: payload });
const fault = (value: unknown) =>
  fetch(`${platform.origin}${RECEIVED_EVENTS_FAULT_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });

describe('the stand-in events receiver', () => {
  it('refuses an unsigned or wrongly signed delivery with 401, and lists nothing of it', async () => {
    expect((await post({ 'content-type': 'application/json' })).status).toBe(401);
    const wrong = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect((await post(signedHeaders(wrong, 'msg_wrong', body, new Date()))).status).toBe(401);
    const listed = (await (await fetch(`${platform.origin}${RECEIVED_EVENTS_PATH}`)).json()) as {
      deliveries: unknown[];
    };
    expect(listed.deliveries).toEqual([]);
  });

  it('answers 503 to the next deliveries the demo made fail, then applies an id once', async () => {
    expect((await fault({ failNext: 11 })).status).toBe(400);
    expect((await fault({ failNext: 1 })).status).toBe(204);
    const send = () =>
      post(signedHeaders(platform.secrets.eventsSecret, 'msg_events_one', body, new Date()));
    expect((await send()).status).toBe(503);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const listed: unknown = await (await fetch(`${platform.origin}${RECEIVED_EVENTS_PATH}`)).json();
    expect(listed).toEqual({
      deliveries: [
        {
          webhookId: 'msg_events_one',
          receivedAt: expect.any(String) as unknown,
          events: [{ type: 'account.deletion_withdrawn', userId: 'u1' }],
          attempt: 3,
        },
      ],
      failNext: 0,
    });
  });

  it("refuses (422) or holds deliveries with a given user's events, and takes the others", async () => {
    const of = (userId: string) =>
      JSON.stringify({
        events: [{ type: 'account.deletion_withdrawn', data: { userId, why: 'user' } }],
      });
    const sign = (id: string, payload: string) =>
      post(signedHeaders(platform.secrets.eventsSecret, id, payload, new Date()), payload);
    expect((await fault({ refuseUsers: ['uA'], hangUsers: ['uH'] })).status).toBe(204);
    expect((await sign('msg_refused', of('uA'))).status).toBe(422);
    expect((await sign('msg_taken', of('uB'))).status).toBe(200);
    let answered = false;
    const held = sign('msg_held', of('uH')).then((answer) => {
      answered = true;
      return answer.status;
    });
    // Held while another delivery is taken; let go (503) when the faults are set again.
    expect((await sign('msg_taken_too', of('uB'))).status).toBe(200);
    expect(answered).toBe(false);
    expect((await fault({ refuseUsers: [], hangUsers: [] })).status).toBe(204);
    expect(await held).toBe(503);
    expect((await sign('msg_refused', of('uA'))).status).toBe(200);
  });
});
