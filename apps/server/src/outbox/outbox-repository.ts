import type { ExpressionBuilder, Kysely } from 'kysely';
import { leaseFree, NO_LEASE } from '../db/leases.ts';
import type { Database, OutboxChannel } from '../db/schema.ts';
import { outboxQueued } from './outbox-wakeups.ts';

/**
 * The one outbox of everything the site owes to others (docs/decisions/0025-outbox.md): a row is
 * queued in the transaction that owes it, and delivered after that commits by its channel
 * (text-channel.ts, event-channel.ts) under a lease, so two servers never deliver it at once and
 * a crash mid-delivery lets the lease run out and another run deliver it again. Its payload is
 * wiped once delivered or given up; finished rows are kept a month for the record.
 */
interface OutboxItem {
  channel: OutboxChannel;
  kind: string;
  partitionKey: string | null;
  payload: string;
}

export async function queueOutboxItem(
  trx: Kysely<Database>,
  item: OutboxItem,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('outbox')
    .values({
      channel: item.channel,
      kind: item.kind,
      partition_key: item.partitionKey,
      payload: item.payload,
      queued_at: now.toISOString(),
      next_attempt_at: now.toISOString(),
      ...NO_LEASE,
      webhook_id: null,
      delivered_at: null,
      failed_at: null,
      last_error: null,
    })
    .execute();
  outboxQueued(item.channel);
}

type Outbox = ExpressionBuilder<Database, 'outbox'>;

/** Not delivered, not given up. */
export const isPending = (channel: OutboxChannel) => (eb: Outbox) =>
  eb.and([
    eb('outbox.channel', '=', channel),
    eb('outbox.delivered_at', 'is', null),
    eb('outbox.failed_at', 'is', null),
  ]);

/** Its wait is over and nobody holds it. */
export const isDue = (at: string) => (eb: Outbox) =>
  eb.and([
    eb('outbox.next_attempt_at', '<=', at),
    leaseFree<'outbox'>('outbox.lease_until', at)(eb),
  ]);

/** An error in a few words, as last_error keeps it. */
export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

/** Rows delivered or given up (nothing owed left on them) are kept a month for the record. */
export async function purgeFinishedOutbox(db: Kysely<Database>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 30 * 24 * 3_600_000).toISOString();
  const result = await db
    .deleteFrom('outbox')
    .where((eb) => eb.or([eb('delivered_at', '<=', before), eb('failed_at', '<=', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface ChannelBacklog {
  /** Rows owed (not delivered, not given up). */
  depth: number;
  /** How long the oldest of them has waited, in seconds (0 when none). */
  oldestAgeSeconds: number;
}

const OUTBOX_CHANNELS: readonly OutboxChannel[] = ['text', 'platform_events'];

/** Each channel's backlog, in one query. */
export async function outboxBacklog(
  db: Kysely<Database>,
  now: Date,
): Promise<Record<OutboxChannel, ChannelBacklog>> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => [
      'channel',
      eb.fn.countAll<number | string>().as('depth'),
      eb.fn.min('queued_at').as('oldest'),
    ])
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null)
    .groupBy('channel')
    .execute();
  const backlog = {} as Record<OutboxChannel, ChannelBacklog>;
  for (const channel of OUTBOX_CHANNELS) {
    const row = rows.find((one) => one.channel === channel);
    const oldest = row?.oldest ? Date.parse(row.oldest) : undefined;
    backlog[channel] = {
      depth: Number(row?.depth ?? 0),
      oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    };
  }
  return backlog;
}

/** A failure as the operators' page shows it: no id, no number, no event's content. */
export interface OutboxFailure {
  channel: OutboxChannel;
  kind: string;
  attempts: number;
  error: string;
  /** When it is tried again; null when given up. */
  nextAttemptAt: string | null;
  givenUpAt: string | null;
}

/** The latest errors: rows still owed that failed, and those given up. */
export async function lastOutboxFailures(
  db: Kysely<Database>,
  limit = 10,
): Promise<OutboxFailure[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['channel', 'kind', 'attempts', 'last_error', 'next_attempt_at', 'failed_at'])
    .where('last_error', 'is not', null)
    .where('delivered_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    channel: row.channel,
    kind: row.kind,
    attempts: row.attempts,
    error: row.last_error ?? '',
    nextAttemptAt: row.failed_at === null ? row.next_attempt_at : null,
    givenUpAt: row.failed_at,
  }));
}
