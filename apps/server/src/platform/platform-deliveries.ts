import type { PlatformDeliveryResult, PlatformEvent } from '@guquan/contract/platform-events';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import { isPostgres, type Db } from '../db/database.ts';
import { eventLoopTurnAfterEachStatement } from '../db/event-loop-turns.ts';
import { lockKey, PLATFORM_COPY_LOCK } from '../db/locking.ts';
import { applyPlatformEvents, findDelivery, recordDelivery } from './platform-repository.ts';

/**
 * A delivery applied whole or not at all, once per `webhook-id`: in one transaction, deliveries
 * one at a time per database (a PostgreSQL advisory lock; SQLite has one writer), so what one
 * delivery leaves waiting is seen by the next whichever server it reaches, and a repeat waits for
 * the first to commit and answers what it answered (docs/decisions/0021-platform-events-in.md).
 */
export interface Delivery {
  webhookId: string;
  events: readonly PlatformEvent[];
  /** Events of types the site does not know: ignored, and counted so. */
  unknownTypes: number;
}

export type DeliveryOutcome = PlatformDeliveryResult & { repeat: boolean };

export async function applyDelivery(
  db: Db,
  delivery: Delivery,
  { phones, now = () => new Date() }: { phones: PhoneProtection; now?: () => Date },
): Promise<DeliveryOutcome> {
  return db.transaction().execute(async (transaction) => {
    // A step per statement on SQLite, so the transaction is not one block of the event loop;
    // PostgreSQL's round trips give the loop back anyway.
    const trx = isPostgres(db)
      ? transaction
      : transaction.withPlugin(eventLoopTurnAfterEachStatement);
    await lockKey(trx, PLATFORM_COPY_LOCK);
    const seen = await findDelivery(trx, delivery.webhookId);
    if (seen) return { ...seen, repeat: true };
    const at = now();
    const result = await applyPlatformEvents(trx, delivery.events, { phones, now: at });
    const total = {
      ...result,
      ignored: result.ignored + delivery.unknownTypes,
      ignoredBecause: { ...result.ignoredBecause, unknown_type: delivery.unknownTypes },
    };
    await recordDelivery(trx, delivery.webhookId, total, at);
    return { ...total, repeat: false };
  });
}
