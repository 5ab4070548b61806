import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { newPublicId, nowIso } from '../db/public-id.ts';
import { SESSION_LIFETIME_MS, sessionRepository, type SessionUser } from './session-repository.ts';

let data: TestDatabase;
let db: Db;
let user: SessionUser;

beforeEach(async () => {
  data = await openTestDatabase({ seed: false });
  db = data.db;
  const publicId = newPublicId();
  const row = await db
    .insertInto('users')
    .values({
      public_id: publicId,
      nickname: '测试用户',
      avatar_image_id: null,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  user = { id: row.id, publicId };
});

afterEach(() => data.close());

describe('sessions', () => {
  it('issues a token that authenticates its user, and keeps only its hash', async () => {
    const store = sessionRepository(db);
    const session = await store.issue(user);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.userId).toBe(user.publicId);
    expect(await store.authenticate(session.token)).toEqual(user);
    const stored = await db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(session.token);
  });

  it('refuses an unknown token, a revoked one and an expired one', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const store = sessionRepository(db, { now: () => now });
    expect(await store.authenticate('A'.repeat(43))).toBeUndefined();

    const revoked = await store.issue(user);
    await store.revoke(revoked.token);
    expect(await store.authenticate(revoked.token)).toBeUndefined();

    const expiring = await store.issue(user);
    now = new Date(now.getTime() + SESSION_LIFETIME_MS - 1);
    expect(await store.authenticate(expiring.token)).toEqual(user);
    now = new Date(now.getTime() + 1);
    expect(await store.authenticate(expiring.token)).toBeUndefined();
  });

  it('revokes every session of a user at once', async () => {
    const store = sessionRepository(db);
    const first = await store.issue(user);
    const second = await store.issue(user);
    await store.revokeAll(user.id);
    expect(await store.authenticate(first.token)).toBeUndefined();
    expect(await store.authenticate(second.token)).toBeUndefined();
  });

  it("revokes the others but the asking device's, inside the caller's transaction", async () => {
    const store = sessionRepository(db);
    const asking = await store.issue(user);
    const other = await store.issue(user);
    await expect(
      db.transaction().execute(async (trx) => {
        await store.revokeAll(user.id, { except: asking.token, trx });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.authenticate(other.token)).toEqual(user);
    await db
      .transaction()
      .execute((trx) => store.revokeAll(user.id, { except: asking.token, trx }));
    expect(await store.authenticate(asking.token)).toEqual(user);
    expect(await store.authenticate(other.token)).toBeUndefined();
  });
});
