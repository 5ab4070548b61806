import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockUser } from '../db/locking.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestAppWithDb, type TestAppWithDb } from '../test-support/design-test-app.ts';
import { sleep } from '../timing/sleep.ts';
import { createRedemption, writeAnswer } from './redemption-repository.ts';

/**
 * Every transaction of a redemption's way locks the user before the redemption's row: creating
 * and claiming do, and so must writing the platform's answer. Otherwise a double tap that claims
 * (user, then redemption) while the first tap's answer is written (redemption, then user) waits in
 * a circle, and PostgreSQL ends one of them with a deadlock: a 500 for a user whose points moved.
 */
let t: TestAppWithDb;
beforeAll(async () => {
  t = await buildTestAppWithDb();
});
afterAll(async () => {
  await t.close();
});

describe('writing the platform’s answer about a redemption', () => {
  it('waits for the user’s lock before it touches the redemption’s row', async () => {
    const user = await t.db
      .selectFrom('users')
      .select(['id', 'points'])
      .where('public_id', '=', DEMO_IDS.users.conductor)
      .executeTakeFirstOrThrow();
    const created = await createRedemption(
      t.db,
      { userId: user.id, designId: DEMO_IDS.designs.sakura, idempotencyKey: randomUUID() },
      () => new Date(),
    );
    if (created.kind !== 'created' || created.lease === undefined)
      throw new Error(`a redemption held by its creator, not ${JSON.stringify(created)}`);
    const { id, lease } = created;

    // Another transaction holds the user, as a claim does before it updates the redemption.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (trx) => {
      await lockUser(trx, user.id);
      locked();
      await released;
    });
    await holding;

    const answering = writeAnswer(
      t.db,
      { id, user_id: user.id },
      lease,
      { kind: 'charged', debitId: randomUUID(), balance: user.points - 1 },
      new Date(),
    );
    // Time for the answer's transaction to go as far as it can while the user is held.
    await sleep(300);
    // The redemption's row is free: the claim holding the user could take it, and finish.
    const rowFree = await t.db.transaction().execute(async (trx) => {
      try {
        await sql`select id from redemptions where id = ${id} for update nowait`.execute(trx);
        return true;
      } catch {
        return false;
      }
    });
    release();
    await holder;
    expect(rowFree).toBe(true);
    await expect(answering).resolves.toBe('redeemed');
  });
});
