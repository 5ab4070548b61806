import type { Kysely, Transaction } from 'kysely';
import {
  platformIgnoredCountsSchema,
  type PlatformDeliveryResult,
  type PlatformEvent,
  type PlatformIgnoredCounts,
} from '@guquan/contract/platform-events';
import { SHARE_KINDS } from '@guquan/contract/share-paths';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import { anonymizeAccount } from '../db/account-anonymization.ts';
import type { Database } from '../db/schema.ts';
import { accountImages } from '../media/image-references.ts';
import { ITEM_TABLES } from '../shares/item-tables.ts';
import { imageRowIds, listedGoods, userRowIds } from './copy-lookups.ts';
import { claimNewerVersions, removedEntities } from './entity-versions.ts';
import { writeCabinets, writeDesigns, writeGoods, writeNotes } from './item-copy.ts';
import {
  entityOf,
  eventEntityKey,
  eventsOfType,
  imagesOf,
  type EventOf,
} from './platform-entities.ts';
import { writeUsers } from './user-copy.ts';
import {
  eventsWaitingFor,
  forgetWaiting,
  keepWaiting,
  type Need,
  type Waiting,
} from './waiting-entities.ts';
import { idSlices } from '../db/sql-batches.ts';

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

/** What a batch came to: every figure of the answer (docs/platform.md, "What the site answers"). */
export type ApplyResult = Required<PlatformDeliveryResult>;

/** Rounds of waiting entities made complete by the previous round: goods, then their cabinets. */
const MAX_ROUNDS = 10;

/**
 * The users an event cannot be without: the account itself, or an item's owner, author or
 * designer. An event naming a deleted account is ignored (a top comment's author is not here: the
 * note is shown without the comment).
 */
function accountsOf(event: PlatformEvent): string[] {
  switch (event.type) {
    case 'user.upserted':
    case 'user.deleted':
      return [event.data.id];
    case 'goods.upserted':
    case 'cabinet.upserted':
      return [event.data.ownerId];
    case 'note.upserted':
      return [event.data.authorId];
    case 'design.upserted':
      return [event.data.designerId];
    default:
      return [];
  }
}

export async function applyPlatformEvents(
  trx: Transaction<Database>,
  events: readonly PlatformEvent[],
  { phones, now }: ApplyContext,
): Promise<ApplyResult> {
  const at = now.toISOString();
  // A deleted account never comes back, nor what names it as its own (its tombstone is final).
  const deleted = await removedEntities(trx, 'user', [...new Set(events.flatMap(accountsOf))]);
  const ofLiving = events.filter((event) => !accountsOf(event).some((id) => deleted.has(id)));
  const fresh = await claimNewerVersions(trx, ofLiving, at);
  let round: PlatformEvent[] = fresh;
  let first: RoundOutcome | undefined;
  for (let count = 0; round.length > 0 && count < MAX_ROUNDS; count += 1) {
    const outcome = await applyRound(trx, round, { phones, at, now });
    first ??= outcome;
    round = await eventsWaitingFor(trx, outcome.arrived);
  }
  const dropped = first?.dropped.size ?? 0;
  const waiting = first?.waiting.size ?? 0;
  const ignoredBecause: PlatformIgnoredCounts = {
    not_newer: ofLiving.length - fresh.length,
    unknown_type: 0,
    account_deleted: events.length - ofLiving.length + dropped,
  };
  return {
    applied: fresh.length - dropped - waiting,
    waiting,
    ignored: events.length - fresh.length + dropped,
    ignoredBecause,
  };
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
): { complete: T[]; waiting: { event: T; needs: Need[] }[]; dropped: T[] } {
  const complete: T[] = [];
  const waiting: { event: T; needs: Need[] }[] = [];
  const dropped: T[] = [];
  for (const event of events) {
    const missing = usersOf(event).filter((id) => !users.has(id));
    if (missing.length === 0) complete.push(event);
    else if (missing.some((id) => deletedUsers.has(id))) dropped.push(event);
    else waiting.push({ event, needs: missing.map((id) => ({ type: 'user', id })) });
  }
  return { complete, waiting, dropped };
}

/** What a round did besides writing: for the next round, and (the first's) for the answer. */
interface RoundOutcome {
  /** Users and goods written, and users deleted: what waits for them is tried again. */
  arrived: { users: string[]; goods: string[] };
  /** Entities (entityKey) dropped: they name a deleted account as their own. */
  dropped: Set<string>;
  /** Entities (entityKey) kept waiting for a user not here yet, not shown. */
  waiting: Set<string>;
}

/** One round: users, then what needs them, then removals and deleted accounts. */
async function applyRound(
  trx: Transaction<Database>,
  events: readonly PlatformEvent[],
  { phones, at, now }: RoundContext,
): Promise<RoundOutcome> {
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
  const { here: goodsHere, removed: removedGoods } = await listedGoods(
    trx,
    cabinets.complete.map((e) => e.data.goodsIds),
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
  const deletions = eventsOfType(events, 'user.deleted');
  await deleteAccounts(trx, deletions, now);
  return {
    // What waited for a deleted user is tried again: dropped if it was theirs, shown if it only
    // named them in a top comment.
    arrived: {
      users: [...written.keys(), ...deletions.map((event) => event.data.id)],
      goods: [...goodsWritten.keys()],
    },
    dropped: new Set(
      [...goods.dropped, ...notes.dropped, ...designs.dropped, ...cabinets.dropped].map(
        eventEntityKey,
      ),
    ),
    waiting: new Set(
      [goods, notes, designs, cabinets].flatMap((kind) =>
        kind.waiting.map(({ event }) => eventEntityKey(event)),
      ),
    ),
  };
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
 * Accounts the platform deleted: anonymized as the deletion job does (their items go, leaving
 * tombstones, and what the law keeps is kept), a pending deletion request completed. What waits
 * for them is tried again in the next round (applyPlatformEvents).
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
    await anonymizeAccount(trx, userId, now, accountImages);
    await trx
      .updateTable('account_deletion_requests')
      .set({ completed_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('cancelled_at', 'is', null)
      .where('completed_at', 'is', null)
      .execute();
  }
}

/** A delivery already applied (by its `webhook-id`), with what it answered. */
export async function findDelivery(
  db: Kysely<Database>,
  webhookId: string,
): Promise<PlatformDeliveryResult | undefined> {
  const row = await db
    .selectFrom('platform_deliveries')
    .select(['applied', 'ignored', 'waiting', 'ignored_because'])
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { applied, ignored, waiting, ignored_because: because } = row;
  // Recorded before these figures were kept: the two it answered then.
  if (waiting === null || because === null) return { applied, ignored };
  return {
    applied,
    ignored,
    waiting,
    ignoredBecause: platformIgnoredCountsSchema.parse(JSON.parse(because)),
  };
}

export async function recordDelivery(
  trx: Kysely<Database>,
  webhookId: string,
  result: ApplyResult,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('platform_deliveries')
    .values({
      webhook_id: webhookId,
      applied: result.applied,
      ignored: result.ignored,
      waiting: result.waiting,
      ignored_because: JSON.stringify(result.ignoredBecause),
      received_at: now.toISOString(),
    })
    .execute();
}
