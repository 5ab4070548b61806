import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { runAccountDeletionJob } from './deletion-job.ts';
import { cancelPendingRequest, createRequest } from './deletion-requests.ts';

/**
 * The platform hears of a deletion requested, withdrawn (by the user, or by a newer log-in) and
 * done through the outbox, each event queued in the transaction of the change it reports.
 */
let data: TestDatabase;
let userId: number;
const PUBLIC_ID = 'deleting-user_1';
const NOW = new Date('2026-11-27T08:00:00.000Z');

beforeEach(async () => {
  data = await openTestDatabase({ seed: false });
  const row = await data.db
    .insertInto('users')
    .values({
      public_id: PUBLIC_ID,
      nickname: 'leaving',
      avatar_image_id: null,
      created_at: NOW.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  userId = row.id;
});
afterEach(() => data.close());

async function events() {
  const rows = await data.db
    .selectFrom('outbox')
    .select(['kind', 'payload', 'partition_key'])
    .where('channel', '=', 'platform_events')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    expect(row.partition_key).not.toContain(PUBLIC_ID);
    return JSON.parse(row.payload ?? '{}') as { type: string; data: Record<string, unknown> };
  });
}

describe('the deletion events for the platform', () => {
  it('are written with the request, its withdrawal and the deletion, and not without them', async () => {
    // A confirmation whose transaction fails writes no event.
    await expect(
      data.db.transaction().execute(async (trx) => {
        await createRequest(trx, userId, NOW);
        throw new Error('failed after the request');
      }),
    ).rejects.toThrow('failed after the request');
    expect(await events()).toEqual([]);

    const request = await data.db.transaction().execute((trx) => createRequest(trx, userId, NOW));
    expect(await cancelPendingRequest(data.db, userId, 'user', NOW)).toBe(true);
    // Nothing pending: nothing withdrawn, nothing told.
    expect(await cancelPendingRequest(data.db, userId, 'login', NOW)).toBe(false);
    await data.db.transaction().execute((trx) => createRequest(trx, userId, NOW));
    expect(await cancelPendingRequest(data.db, userId, 'login', NOW)).toBe(true);
    const again = await data.db.transaction().execute((trx) => createRequest(trx, userId, NOW));
    const due = new Date(Date.parse(again.deletesAt) + 1000);
    expect(await runAccountDeletionJob(data.db, due)).toMatchObject({ deleted: 1 });

    expect(await events()).toEqual([
      {
        type: 'account.deletion_requested',
        data: {
          userId: PUBLIC_ID,
          confirmedAt: request.requestedAt,
          deleteAfter: request.deletesAt,
        },
      },
      { type: 'account.deletion_withdrawn', data: { userId: PUBLIC_ID, why: 'user' } },
      {
        type: 'account.deletion_requested',
        data: expect.objectContaining({ userId: PUBLIC_ID }) as unknown,
      },
      { type: 'account.deletion_withdrawn', data: { userId: PUBLIC_ID, why: 'logged_in' } },
      {
        type: 'account.deletion_requested',
        data: expect.objectContaining({ userId: PUBLIC_ID }) as unknown,
      },
      { type: 'account.deleted', data: { userId: PUBLIC_ID, deletedAt: due.toISOString() } },
    ]);
  });
});
