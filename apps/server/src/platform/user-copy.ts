import type { Kysely } from 'kysely';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Database } from '../db/schema.ts';
import { imageId } from './copy-lookups.ts';
import type { EventOf } from './platform-entities.ts';
import { idSlices, rowSlices, storedTime } from '../db/sql-batches.ts';

type UserEvent = EventOf<'user.upserted'>;

/**
 * Users as the platform sends them (user.upserted): nickname, avatar, the phone (encrypted like
 * every number at rest, docs/decisions/0007-phone-numbers-at-rest.md), the points balance, and
 * what blocks the account's deletion as its open `account_cases`. Answers the row id of each.
 */
export async function writeUsers(
  trx: Kysely<Database>,
  events: readonly UserEvent[],
  {
    images,
    phones,
    now,
  }: { images: ReadonlyMap<string, number>; phones: PhoneProtection; now: string },
): Promise<Map<string, number>> {
  const rowIds = new Map<string, number>();
  if (events.length === 0) return rowIds;
  // A number is one account's: the latest event naming it keeps it. Numbers that move are
  // freed first (under every key's index), so two accounts may even swap theirs in one batch.
  const holder = new Map<string, string>();
  for (const event of events)
    if (event.data.phone !== null) holder.set(event.data.phone, event.data.id);
  const indexes = [...holder.keys()].flatMap((phone) => phones.indexes(phone));
  for (const slice of idSlices(indexes)) {
    await trx
      .updateTable('users')
      .set({ phone_encrypted: null, phone_index: null })
      .where('phone_index', 'in', slice)
      .execute();
  }

  const sorted = [...events].sort((a, b) => (a.data.id < b.data.id ? -1 : 1));
  for (const slice of rowSlices(sorted, 8)) {
    const rows = await trx
      .insertInto('users')
      .values(
        slice.map(({ data }) => {
          const phone =
            data.phone !== null && holder.get(data.phone) === data.id ? data.phone : null;
          return {
            public_id: data.id,
            nickname: data.nickname,
            avatar_image_id: data.avatar ? imageId(images, data.avatar) : null,
            phone_encrypted: phone === null ? null : phones.encrypt(phone),
            phone_index: phone === null ? null : phones.index(phone),
            points: data.points,
            created_at: now,
          };
        }),
      )
      .onConflict((conflict) =>
        conflict.column('public_id').doUpdateSet((eb) => ({
          nickname: eb.ref('excluded.nickname'),
          avatar_image_id: eb.ref('excluded.avatar_image_id'),
          phone_encrypted: eb.ref('excluded.phone_encrypted'),
          phone_index: eb.ref('excluded.phone_index'),
          points: eb.ref('excluded.points'),
        })),
      )
      .returning(['id', 'public_id'])
      .execute();
    for (const row of rows) rowIds.set(row.public_id, row.id);
  }
  await writeDeletionBlockers(trx, events, rowIds, now);
  return rowIds;
}

/**
 * The platform's list of what blocks each user's deletion, as open cases: a case no longer listed
 * is closed (kept for its period, privacy policy 8.2), a new one opened; one still listed stays.
 */
async function writeDeletionBlockers(
  trx: Kysely<Database>,
  events: readonly UserEvent[],
  rowIds: ReadonlyMap<string, number>,
  now: string,
): Promise<void> {
  const caseKey = (kind: string, title: string, since: string) =>
    `${kind}\u0000${title}\u0000${since}`;
  const open = new Map<number, Map<string, number>>();
  for (const slice of idSlices(rowIds.values())) {
    const rows = await trx
      .selectFrom('account_cases')
      .select(['id', 'user_id', 'kind', 'title', 'opened_at'])
      .where('user_id', 'in', slice)
      .where('status', '=', 'open')
      .execute();
    for (const row of rows) {
      const cases = open.get(row.user_id) ?? new Map<string, number>();
      cases.set(caseKey(row.kind, row.title, row.opened_at), row.id);
      open.set(row.user_id, cases);
    }
  }
  const toClose: number[] = [];
  const toOpen: {
    user_id: number;
    kind: UserEvent['data']['deletionBlockers'][number]['kind'];
    title: string;
    status: 'open';
    opened_at: string;
  }[] = [];
  for (const { data } of events) {
    const userId = rowIds.get(data.id);
    if (userId === undefined) continue;
    const cases = new Map(open.get(userId));
    for (const blocker of data.deletionBlockers) {
      const since = storedTime(blocker.since);
      const key = caseKey(blocker.kind, blocker.title, since);
      if (cases.delete(key)) continue;
      toOpen.push({
        user_id: userId,
        kind: blocker.kind,
        title: blocker.title,
        status: 'open',
        opened_at: since,
      });
    }
    toClose.push(...cases.values());
  }
  for (const slice of idSlices(toClose)) {
    await trx
      .updateTable('account_cases')
      .set({ status: 'closed', closed_at: now })
      .where('id', 'in', slice)
      .execute();
  }
  for (const slice of rowSlices(toOpen, 5)) {
    await trx.insertInto('account_cases').values(slice).execute();
  }
}
