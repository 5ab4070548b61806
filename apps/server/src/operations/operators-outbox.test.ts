import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuePlatformEvent } from '../outbox/platform-events-out.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { operationsOf } from './operations.ts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';

/**
 * The operators' page shows what the outbox owes per channel and its last errors, with no id of
 * a user, no phone number and no event's content.
 */
let app: FastifyInstance;
let db: Db;
let remove: () => Promise<void>;
beforeAll(async () => {
  const temp = await makeTempDataDir();
  remove = temp.remove;
  app = await buildTestApp({ DATA_DIR: temp.dataDir });
  db = await openTestDataDirDatabase(temp.dataDir);
});
afterAll(async () => {
  await db.destroy();
  await app.close();
  await remove();
});

describe("the operators' page, the outbox", () => {
  it('shows each channel waiting and the last errors, naming nobody', async () => {
    const userId = 'operators-page-user';
    const at = new Date(Date.now() - 20 * 60_000);
    await db
      .transaction()
      .execute((trx) =>
        queuePlatformEvent(
          trx,
          { type: 'account.deleted', data: { userId, deletedAt: at.toISOString() } },
          at,
        ),
      );
    // As after two failed attempts: the next one in an hour (so no server here delivers it).
    await db
      .updateTable('outbox')
      .set({
        attempts: 2,
        last_error: '503 Service Unavailable',
        webhook_id: 'msg_events_test',
        next_attempt_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .where('kind', '=', 'account.deleted')
      .execute();
    const ops = operationsOf(app);
    if (!ops) throw new Error('no operators’ listener');
    const en = (await ops.inject('/funnel?lang=en')).body;
    expect(en).toContain('Owed to others (the outbox)');
    expect(en).toContain('Events to the platform');
    expect(en).toContain('503 Service Unavailable');
    expect(en).toContain('<code>account.deleted</code>');
    expect(en).toMatch(/Events to the platform<\/th><td>1<\/td><td>2\d min<\/td>/);
    expect(en).not.toContain(userId);
    const zh = (await ops.inject({ url: '/funnel', headers: { 'accept-language': 'zh-CN' } })).body;
    expect(zh).toContain('给平台的事件');
  });
});
