import { describe, expect, it } from 'vitest';
import { webhookVerifier } from '../platform/webhook-signature.ts';
import {
  DeliveryGaveUp,
  sendSigned,
  type DeliveryAnswer,
  type FailedAttempt,
  type SignedDelivery,
} from './signed-deliveries.ts';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const verifier = webhookVerifier(() => [SECRET]);

/** A site answering each attempt with the next of `answers` (200 once they run out). */
function site(answers: (DeliveryAnswer | Error)[]) {
  const received: SignedDelivery<string>[] = [];
  const post = (delivery: SignedDelivery<string>) => {
    received.push(delivery);
    const next = answers.shift() ?? { status: 200, body: '{}' };
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  return { received, post };
}

function recorder() {
  const waits: number[] = [];
  const failed: FailedAttempt[] = [];
  return {
    waits,
    failed,
    wait: (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    },
    onRetry: (attempt: FailedAttempt) => failed.push(attempt),
  };
}

describe('a signed send with retries', () => {
  it('keeps its webhook-id, signs each attempt, and returns the final answer', async () => {
    const target = site([{ status: 503, body: '' }, new Error('socket hang up')]);
    const seen = recorder();
    const answer = await sendSigned({
      secret: SECRET,
      body: '{"events":[]}',
      post: target.post,
      isFinal: () => false,
      webhookId: 'msg_one',
      wait: seen.wait,
      onRetry: seen.onRetry,
    });
    expect(answer).toEqual({ status: 200, body: '{}' });
    expect(target.received.map((delivery) => delivery.headers['webhook-id'])).toEqual([
      'msg_one',
      'msg_one',
      'msg_one',
    ]);
    for (const delivery of target.received) {
      expect(verifier.verify(Buffer.from(delivery.body), delivery.headers)).toEqual({
        ok: true,
        webhookId: 'msg_one',
      });
    }
    expect(seen.failed).toEqual([
      { attempt: 1, status: 503, waitMs: 500 },
      { attempt: 2, error: 'socket hang up', waitMs: 1000 },
    ]);
  });

  it('waits a longer Retry-After within the cap, and never less than its back-off', async () => {
    const target = site([
      { status: 429, body: '', retryAfterSeconds: 5 },
      { status: 429, body: '', retryAfterSeconds: 600 },
      { status: 429, body: '', retryAfterSeconds: 1 },
    ]);
    const seen = recorder();
    await sendSigned({
      secret: SECRET,
      body: '{}',
      post: target.post,
      isFinal: () => false,
      firstWaitMs: 1000,
      maxWaitMs: 30_000,
      wait: seen.wait,
    });
    expect(seen.waits).toEqual([5000, 30_000, 4000]);
  });

  it('returns a final status at once, and gives up after a bound of attempts', async () => {
    const refused = site([{ status: 413, body: 'too large' }]);
    const answer = await sendSigned({
      secret: SECRET,
      body: '{}',
      post: refused.post,
      isFinal: (status) => status === 413,
    });
    expect(answer.status).toBe(413);
    expect(refused.received).toHaveLength(1);

    const down = site([new Error('ECONNREFUSED'), { status: 502, body: '' }]);
    const gaveUp = sendSigned({
      secret: SECRET,
      body: '{}',
      post: down.post,
      isFinal: () => false,
      attempts: 2,
      wait: recorder().wait,
    });
    await expect(gaveUp).rejects.toThrow(DeliveryGaveUp);
    await expect(gaveUp).rejects.toThrow('gave up after 2 attempts: 502 Bad Gateway');
  });

  it('stops when its signal is aborted, waiting or not', async () => {
    const controller = new AbortController();
    const target = site([{ status: 503, body: '' }]);
    const sending = sendSigned({
      secret: SECRET,
      body: '{}',
      post: target.post,
      isFinal: () => false,
      firstWaitMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => {
      controller.abort();
    }, 10);
    await expect(sending).rejects.toThrow(/abort/i);
    expect(target.received).toHaveLength(1);
  });
});
