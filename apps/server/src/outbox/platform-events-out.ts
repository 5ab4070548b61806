import type { Kysely } from 'kysely';
import type { PlatformEventOut } from '@guquan/contract/platform-events-out';
import type { Database } from '../db/schema.ts';
import { versionKey } from '../db/platform-tombstones.ts';
import { queueOutboxItem } from './outbox-repository.ts';

/**
 * Queues an event for the platform (PRODUCT.md, "Events out") in the caller's transaction: it
 * is sent if and only if the change it reports commits. A user's events go in the order queued,
 * one delivery at a time: their partition is the user's id as its SHA-256, the id itself being
 * only in the payload, which is wiped once delivered.
 */
export async function queuePlatformEvent(
  trx: Kysely<Database>,
  event: PlatformEventOut,
  now: Date,
): Promise<void> {
  await queueOutboxItem(
    trx,
    {
      channel: 'platform_events',
      kind: event.type,
      partitionKey: versionKey('user', event.data.userId),
      payload: JSON.stringify(event),
    },
    now,
  );
}
