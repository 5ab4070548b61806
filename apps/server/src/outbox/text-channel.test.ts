import { afterEach, describe, expect, it } from 'vitest';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import type { SmsMessage, SmsSender } from '../account-deletion/sms-sender.ts';
import {
  deliverTexts as deliverQueuedTexts,
  MAX_ATTEMPTS,
  queueText,
  textRetryWaitMs,
} from './text-channel.ts';
import { warningsLog } from '../test-support/warnings-log.ts';

let data: TestDatabase | undefined;
afterEach(async () => {
  await data?.close();
  data = undefined;
});

const START = new Date('2026-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(START.getTime() + ms);

async function queued(phone = '13800000009'): Promise<TestDatabase> {
  const opened = await openTestDatabase({ seed: false });
  await queueText(
    opened.db,
    { kind: 'account_deleted', phoneEncrypted: opened.phones.encrypt(phone) },
    START,
  );
  return opened;
}

function recordingSender(failures: number, delayMs = 0): SmsSender & { sent: SmsMessage[] } {
  let calls = 0;
  const sent: SmsMessage[] = [];
  return {
    sent,
    async send(message) {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (calls <= failures) throw new Error(`provider down (${calls})`);
      sent.push(message);
    },
  };
}

const row = (d: TestDatabase) => d.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();

describe('the outbox of texts', () => {
  it('retries a failed text after a wait, and wipes the number once sent', async () => {
    data = await queued();
    const sms = recordingSender(1);
    const options = { sms, phones: data.phones };
    expect(await deliverQueuedTexts(data.db, { ...options, now: START })).toEqual({
      sent: 0,
      retrying: 1,
      failed: 0,
    });
    const waiting = await row(data);
    expect(waiting).toMatchObject({
      attempts: 1,
      delivered_at: null,
      last_error: 'provider down (1)',
    });
    expect(data.phones.decrypt(waiting.payload ?? '')).toBe('13800000009');
    // Not before its wait.
    expect(await deliverQueuedTexts(data.db, { ...options, now: later(1000) })).toMatchObject({
      sent: 0,
      retrying: 0,
    });
    const wait = textRetryWaitMs(1);
    expect(await deliverQueuedTexts(data.db, { ...options, now: later(wait) })).toMatchObject({
      sent: 1,
    });
    expect(sms.sent).toEqual([{ kind: 'account_deleted', phone: '13800000009' }]);
    expect(await row(data)).toMatchObject({
      payload: null,
      delivered_at: later(wait).toISOString(),
    });
    // Sent is sent: nothing goes twice.
    await deliverQueuedTexts(data.db, { ...options, now: later(10 * wait) });
    expect(sms.sent).toHaveLength(1);
  });

  it('waits longer after each failure, a day in all before it gives up', () => {
    const waits = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, index) =>
      textRetryWaitMs(index + 1),
    );
    expect(waits.map((ms) => ms / 60_000)).toEqual([1, 5, 25, 125, 360]);
  });

  it('gives up after the last attempt: logged, counted, and the number wiped', async () => {
    data = await queued();
    const sms = recordingSender(Number.POSITIVE_INFINITY);
    const logged: string[] = [];
    let now = START;
    let failed = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS + 2; attempt += 1) {
      const report = await deliverQueuedTexts(data.db, {
        sms,
        phones: data.phones,
        now,
        log: warningsLog(logged),
      });
      failed += report.failed;
      now = new Date(now.getTime() + 24 * 3_600_000);
    }
    expect(failed).toBe(1);
    expect(await row(data)).toMatchObject({
      attempts: MAX_ATTEMPTS,
      payload: null,
      delivered_at: null,
    });
    expect((await row(data)).failed_at).not.toBeNull();
    expect(logged.filter((message) => message.includes('given up'))).toHaveLength(1);
    expect(sms.sent).toEqual([]);
  });

  it('sends once when two jobs, on two connections, run at the same moment', async () => {
    data = await queued();
    const { phones } = data;
    const second = await openTestDataDirDatabase(data.dataDir);
    try {
      const sms = recordingSender(0, 50);
      const run = (db: typeof second, afterMs: number) =>
        new Promise((resolve) => setTimeout(resolve, afterMs)).then(() =>
          deliverQueuedTexts(db, { sms, phones, now: START }),
        );
      // Together, and one starting while another is still sending.
      const reports = await Promise.all([run(data.db, 0), run(second, 0), run(second, 20)]);
      expect(sms.sent).toHaveLength(1);
      expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(1);
    } finally {
      await second.destroy();
    }
  });
});
