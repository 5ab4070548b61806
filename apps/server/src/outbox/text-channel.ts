import type { Kysely } from 'kysely';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import { newLease, NO_LEASE } from '../db/leases.ts';
import type { Database } from '../db/schema.ts';
import type { Log } from '../http/logging.ts';
import { backOff } from '../timing/back-off.ts';
import { errorText, isDue, isPending, queueOutboxItem } from './outbox-repository.ts';

/**
 * The outbox's texts: what the site owes a user by SMS (the deletion notice, privacy policy 11.5
 * item 4). Queued with the number still encrypted; one text per send; failures retried after
 * growing waits, then given up (logged, counted); sent or given up, the number is wiped.
 */
type TextKind = 'account_deleted';

interface TextMessage {
  kind: TextKind;
  phone: string;
}

/** Sends one text (account-deletion's SmsSender). */
export interface TextSender {
  send(message: TextMessage): Promise<void>;
}

/** How many sends a text gets: after the last one fails, it is given up. */
export const MAX_ATTEMPTS = 6;
/**
 * The wait after the `attempt`-th failed send (1 for the first), the one back-off's: 1 min, five
 * times longer each time, at most 6 h (1 min, 5 min, 25 min, about 2 h, 6 h: a day in all).
 */
export function textRetryWaitMs(attempt: number): number {
  return backOff({ attempt, firstMs: 60_000, factor: 5, maxMs: 6 * 3_600_000 });
}
/** Longer than a send can take (the SMS client gives up after 10 s). */
const LEASE_MS = 5 * 60_000;
/** How often a server looks for texts due. */
export const TEXT_CHANNEL_INTERVAL_MS = 60_000;
/** How many rows one run claims at most. */
const BATCH = 50;

export async function queueText(
  trx: Kysely<Database>,
  text: { kind: TextKind; phoneEncrypted: string },
  now: Date,
): Promise<void> {
  await queueOutboxItem(
    trx,
    { channel: 'text', kind: text.kind, partitionKey: null, payload: text.phoneEncrypted },
    now,
  );
}

interface TextDeliveryOptions {
  sms: TextSender;
  phones: PhoneProtection;
  now: Date;
  log?: Log;
  /** Told of each failed attempt (the failed attempts' counter). */
  onFailedAttempt?: () => void;
}

export interface TextDeliveryReport {
  sent: number;
  /** Failed this time, to be tried again later. */
  retrying: number;
  /** Failed for the last time: given up, logged. */
  failed: number;
}

/** One conditional UPDATE: the row is ours only if it is still due and nobody holds it. */
async function claim(db: Kysely<Database>, id: number, now: Date): Promise<string | undefined> {
  const lease = newLease(now, LEASE_MS);
  const result = await db
    .updateTable('outbox')
    .set({ lease_token: lease.token, lease_until: lease.until })
    .where('id', '=', id)
    .where(isPending('text'))
    .where(isDue(now.toISOString()))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? lease.token : undefined;
}

/** Sends the texts due; safe to run on several servers, and twice at once. */
export async function deliverTexts(
  db: Kysely<Database>,
  { sms, phones, now, log, onFailedAttempt }: TextDeliveryOptions,
): Promise<TextDeliveryReport> {
  const report: TextDeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  const at = now.toISOString();
  const due = await db
    .selectFrom('outbox')
    .select('id')
    .where(isPending('text'))
    .where(isDue(at))
    .orderBy('id')
    .limit(BATCH)
    .execute();
  for (const { id } of due) {
    const token = await claim(db, id, now);
    if (!token) continue; // another run has it
    const row = await db
      .selectFrom('outbox')
      .select(['kind', 'payload', 'attempts'])
      .where('id', '=', id)
      .where('lease_token', '=', token)
      .executeTakeFirst();
    if (!row?.payload) continue;
    const ours = db.updateTable('outbox').where('id', '=', id).where('lease_token', '=', token);
    const kind = row.kind as TextKind;
    try {
      await sms.send({ kind, phone: phones.decrypt(row.payload) });
      await ours.set({ delivered_at: at, payload: null, ...NO_LEASE }).execute();
      report.sent += 1;
    } catch (error) {
      onFailedAttempt?.();
      const attempts = row.attempts + 1;
      const reason = errorText(error);
      const released = { attempts, last_error: reason, ...NO_LEASE };
      if (attempts >= MAX_ATTEMPTS) {
        await ours.set({ ...released, failed_at: at, payload: null }).execute();
        report.failed += 1;
        log?.warn(
          { outboxId: id, kind, attempts, error },
          'a text owed to a user could not be sent and is given up',
        );
      } else {
        const next = new Date(now.getTime() + textRetryWaitMs(attempts)).toISOString();
        await ours.set({ ...released, next_attempt_at: next }).execute();
        report.retrying += 1;
        log?.warn(
          { outboxId: id, kind, attempts, error },
          'a text owed to a user could not be sent; it will be retried',
        );
      }
    }
  }
  return report;
}
