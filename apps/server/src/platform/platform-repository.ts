import type { Kysely, Transaction } from 'kysely';
import type { PlatformDeliveryResult, PlatformEvent } from '@guquan/contract/platform-events';
import { SHARE_KINDS } from '@guquan/contract/share-paths';
import { anonymizeAccount } from '../account-deletion/deletion-job.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Database } from '../db/schema.ts';
import { ITEM_TABLES } from '../shares/item-tables.ts';
import { goodsRowIds, imageRowIds, userRowIds } from './copy-lookups.ts';
import { claimNewerVersions, removedEntities } from './entity-versions.ts';
import { writeCabinets, writeDesigns, writeGoods, writeNotes } from './item-copy.ts';
import { entityOf, eventsOfType, imagesOf, type EventOf } from './platform-entities.ts';
import { writeUsers } from './user-copy.ts';
import {
  dropWaitingFor,
  eventsWaitingFor,
  forgetWaiting,
  keepWaiting,
  type Need,
  type Waiting,
} from './waiting-entities.ts';
import { idSlices } from './sql-batches.ts';

/**
 * The platform's events written into the site's copy (PRODUCT.md, "Events in"), set-based per
 * batch: the versions of all the batch's entities in one statement, each kind of item in a few
 * multi-row statements. The caller holds the transaction (one per delivery, or the import's large
 * ones). What names what has not arrived waits (waiting-entities.ts) and is applied, in the same
 * transaction, once what it needs arrives.
 */
export interface ApplyContext {
  phones: PhoneProtection;
  now: Date;
}

export type ApplyResult = PlatformDeliveryResult;

/** Rounds of waiting entities made complete by the previous round: goods, then their cabinets. */
const MAX_ROUNDS = 10;

export async function applyPlatformEvents(
  trx: Transaction<Database>,
  events: readonly PlatformEvent[],
  { phones, now }: ApplyContext,
): Promise<ApplyResult> {
  const at = now.toISOString();
  const fresh = await claimNewerVersions(trx, events, at);
  let round: PlatformEvent[] = fresh;
  for (let count = 0; round.length > 0 && count < MAX_ROUNDS; count += 1) {
    const arrived = await applyRound(trx, round, { phones, at, now });
    round = await eventsWaitingFor(trx, arrived);
  }
  return { applied: fresh.length, ignored: events.length - fresh.length };
}

interface RoundContext {
  phones: PhoneProtection;
  at: string;
  now: Date;
}

/**
 * Splits events into those whose users are all here and those that wait for some. A user the
 * platform deleted never comes: what names one is dropped (its owner's items went with it).
 */
function byCompleteness<T extends PlatformEvent>(
  events: readonly T[],
  usersOf: (event: T) => string[],
  users: ReadonlyMap<string, number>,
  deletedUsers: ReadonlySet<string>,
): { complete: T[]; waiting: { event: T; needs: Need[] }[] } {
  const complete: T[] = [];
  const waiting: { event: T; needs: Need[] }[] = [];
  for (const event of events) {
    const missing = usersOf(event).filter((id) => !users.has(id));
    if (missing.length === 0) complete.push(event);
    else if (!missing.some((id) => deletedUsers.has(id))) {
      waiting.push({ event, needs: missing.map((id) => ({ type: 'user', id })) });
    }
  }
  return { complete, waiting };
}

/** One round: users, then what needs them, then removals and deleted accounts. */
async function applyRound(
  trx: Transaction<Database>,
  events: readonly PlatformEvent[],
  { phones, at, now }: RoundContext,
): Promise<{ users: string[]; goods: string[] }> {
  const images = await imageRowIds(
    trx,
    events.flatMap((event) => imagesOf(event).map(([, image]) => image)),
    at,
  );
  const userEvents = eventsOfType(events, 'user.upserted');
  const written = await writeUsers(trx, userEvents, { images, phones, now: at });

  const goodsEvents = eventsOfType(events, 'goods.upserted');
  const cabinetEvents = eventsOfType(events, 'cabinet.upserted');
  const noteEvents = eventsOfType(events, 'note.upserted');
  const designEvents = eventsOfType(events, 'design.upserted');
  const named = new Set<string>([
    ...goodsEvents.map((e) => e.data.ownerId),
    ...cabinetEvents.map((e) => e.data.ownerId),
    ...noteEvents.flatMap((e) => [e.data.authorId, ...e.data.topComments.map((c) => c.authorId)]),
    ...designEvents.map((e) => e.data.designerId),
  ]);
  const users = new Map([...written, ...(await userRowIds(trx, named))]);
  const missingUsers = [...named].filter((id) => !users.has(id));
  const deletedUsers = await removedEntities(trx, 'user', missingUsers);

  const goods = byCompleteness(goodsEvents, (e) => [e.data.ownerId], users, deletedUsers);
  // A comment by a deleted user is left out, not the note.
  const notesShown = noteEvents.map((event) => ({
    ...event,
    data: {
      ...event.data,
      topComments: event.data.topComments.filter((c) => !deletedUsers.has(c.authorId)),
    },
  }));
  const notes = byCompleteness(
    notesShown,
    (e) => [e.data.authorId, ...e.data.topComments.map((c) => c.authorId)],
    users,
    deletedUsers,
  );
  const designs = byCompleteness(designEvents, (e) => [e.data.designerId], users, deletedUsers);
  const cabinets = byCompleteness(cabinetEvents, (e) => [e.data.ownerId], users, deletedUsers);

  // Whatever these entities waited for before is replaced by what they wait for now.
  await forgetWaiting(
    trx,
    [...goodsEvents, ...cabinetEvents, ...noteEvents, ...designEvents].map(entityOf),
  );

  const lookups = { users, images, now: at };
  const goodsWritten = await writeGoods(trx, goods.complete, lookups);
  await writeNotes(trx, notes.complete, lookups);
  await writeDesigns(trx, designs.complete, lookups);

  // A cabinet is shown with the goods it has, and waits for the others.
  const listed = cabinets.complete.flatMap((e) => e.data.goodsIds);
  const goodsHere = await goodsRowIds(trx, listed);
  const removedGoods = await removedEntities(
    trx,
    'goods',
    listed.filter((id) => !goodsHere.has(id)),
  );
  await writeCabinets(trx, cabinets.complete, { ...lookups, goods: goodsHere });
  const cabinetsWaiting = cabinets.complete.flatMap((event) => {
    const needs = event.data.goodsIds
      .filter((id) => !goodsHere.has(id) && !removedGoods.has(id))
      .map((id): Need => ({ type: 'goods', id }));
    return needs.length > 0 ? [{ event, needs }] : [];
  });

  const waiting: Waiting[] = [
    ...goods.waiting.map((w) => ({ type: 'goods' as const, ...w })),
    ...notes.waiting.map((w) => ({ type: 'note' as const, ...w })),
    ...designs.waiting.map((w) => ({ type: 'design' as const, ...w })),
    ...cabinets.waiting.map((w) => ({ type: 'cabinet' as const, ...w })),
    ...cabinetsWaiting.map((w) => ({ type: 'cabinet' as const, ...w })),
  ];
  await keepWaiting(trx, waiting, at);

  await applyRemovals(trx, events, at);
  await deleteAccounts(trx, eventsOfType(events, 'user.deleted'), now);
  return { users: [...written.keys()], goods: [...goodsWritten.keys()] };
}

/** Removed items answer 410 from now on (removed_at); a removed design is retired. */
async function applyRemovals(
  trx: Kysely<Database>,
  events: readonly PlatformEvent[],
  at: string,
): Promise<void> {
  const removed: PlatformEvent[] = [];
  for (const kind of SHARE_KINDS) {
    const removals = eventsOfType(events, `${kind}.removed`);
    removed.push(...removals);
    for (const slice of idSlices(removals.map((event) => event.data.id))) {
      await trx
        .updateTable(ITEM_TABLES[kind])
        .set({ removed_at: at })
        .where('public_id', 'in', slice)
        .where('removed_at', 'is', null)
        .execute();
    }
  }
  const designs = eventsOfType(events, 'design.removed');
  removed.push(...designs);
  for (const slice of idSlices(designs.map((event) => event.data.id))) {
    await trx
      .updateTable('designs')
      .set({ retired_at: at })
      .where('public_id', 'in', slice)
      .where('retired_at', 'is', null)
      .execute();
  }
  await forgetWaiting(trx, removed.map(entityOf));
  // A cabinet waiting for a removed goods waits no more for it.
  const goods = eventsOfType(events, 'goods.removed').map((event) => event.data.id);
  for (const slice of idSlices(goods)) {
    await trx
      .deleteFrom('platform_waiting_needs')
      .where('needs_type', '=', 'goods')
      .where('needs_id', 'in', slice)
      .execute();
  }
}

/**
 * Accounts the platform deleted: anonymized as the deletion job does (their items go, what the
 * law keeps is kept), a pending deletion request completed, and whatever waits for them dropped.
 */
async function deleteAccounts(
  trx: Transaction<Database>,
  events: readonly EventOf<'user.deleted'>[],
  now: Date,
): Promise<void> {
  if (events.length === 0) return;
  const ids = events.map((event) => event.data.id);
  const rows = await userRowIds(trx, ids);
  for (const userId of rows.values()) {
    await anonymizeAccount(trx, userId, now);
    await trx
      .updateTable('account_deletion_requests')
      .set({ completed_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('cancelled_at', 'is', null)
      .where('completed_at', 'is', null)
      .execute();
  }
  await dropWaitingFor(trx, 'user', ids);
}

/** A delivery already applied (by its `webhook-id`), with what it answered. */
export async function findDelivery(
  db: Kysely<Database>,
  webhookId: string,
): Promise<ApplyResult | undefined> {
  return db
    .selectFrom('platform_deliveries')
    .select(['applied', 'ignored'])
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}

export async function recordDelivery(
  trx: Kysely<Database>,
  webhookId: string,
  result: ApplyResult,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('platform_deliveries')
    .values({ webhook_id: webhookId, ...result, received_at: now.toISOString() })
    .execute();
}
