import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Database } from '../db/schema.ts';
import type { Log } from '../http/logging.ts';
import type { SmsSender } from './sms-sender.ts';

/**
 * The durable outbox of texts owed to users (the deletion notice, privacy policy 11.5 item 4).
 * A text is queued in the transaction that owes it, with the number still encrypted, and sent
 * after that commits. A server claims a row with one conditional UPDATE (a lease), so two jobs
 * or two servers never send the same text at once; a crash mid-send lets the lease run out and
 * another run retries (at least once, never lost). Failures retry with growing waits; the last
 * one is logged, counted and, like a sent text, leaves no number behind.
 */
export type TextKind = 'account_deleted';

/** Waits after each failed attempt: the text is given up after the last one fails. */
export const RETRY_WAITS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;
/** Longer than a send can take (the SMS client gives up after 10 s). */
const LEASE_MS = 5 * 60_000;
/** How often the server looks for texts due (the deletion job itself runs hourly). */
export const TEXT_OUTBOX_INTERVAL_MS = 60_000;
/** How many rows one run claims at most. */
const BATCH = 50;

export async function queueText(
  trx: Kysely<Database>,
  text: { kind: TextKind; phoneEncrypted: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('text_outbox')
    .values({
      kind: text.kind,
      phone_encrypted: text.phoneEncrypted,
      queued_at: now.toISOString(),
      next_attempt_at: now.toISOString(),
      lease_token: null,
      lease_until: null,
      sent_at: null,
      failed_at: null,
      last_error: null,
    })
    .execute();
}

export interface DeliveryOptions {
  sms: SmsSender;
  phones: PhoneProtection;
  now: Date;
  /** The server's logger (app.log), or a command's. */
  log?: Log;
}

export interface DeliveryReport {
  sent: number;
  /** Failed this time, to be tried again later. */
  retrying: number;
  /** Failed for the last time: given up, logged. */
  failed: number;
}

/** One conditional UPDATE: the row is ours only if it is still due and nobody holds it. */
async function claim(db: Kysely<Database>, id: number, now: Date): Promise<string | undefined> {
  const at = now.toISOString();
  const token = randomUUID();
  const result = await db
    .updateTable('text_outbox')
    .set({ lease_token: token, lease_until: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? token : undefined;
}

/** Sends what is due; safe to run on several servers, and twice at once. */
export async function deliverQueuedTexts(
  db: Kysely<Database>,
  { sms, phones, now, log }: DeliveryOptions,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  const at = now.toISOString();
  const due = await db
    .selectFrom('text_outbox')
    .select('id')
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
    .orderBy('id')
    .limit(BATCH)
    .execute();
  for (const { id } of due) {
    const token = await claim(db, id, now);
    if (!token) continue; // another run has it
    const row = await db
      .selectFrom('text_outbox')
      .select(['kind', 'phone_encrypted', 'attempts'])
      .where('id', '=', id)
      .where('lease_token', '=', token)
      .executeTakeFirst();
    if (!row?.phone_encrypted) continue;
    const ours = db
      .updateTable('text_outbox')
      .where('id', '=', id)
      .where('lease_token', '=', token);
    try {
      await sms.send({ kind: row.kind, phone: phones.decrypt(row.phone_encrypted) });
      await ours
        .set({ sent_at: at, phone_encrypted: null, lease_token: null, lease_until: null })
        .execute();
      report.sent += 1;
    } catch (error) {
      const attempts = row.attempts + 1;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 200);
      const wait = RETRY_WAITS_MS[attempts - 1];
      if (wait === undefined) {
        await ours
          .set({
            attempts,
            failed_at: at,
            phone_encrypted: null,
            last_error: reason,
            lease_token: null,
            lease_until: null,
          })
          .execute();
        report.failed += 1;
        log?.warn(
          { textId: id, kind: row.kind, attempts, error },
          'a text owed to a user could not be sent and is given up',
        );
      } else {
        await ours
          .set({
            attempts,
            next_attempt_at: new Date(now.getTime() + wait).toISOString(),
            last_error: reason,
            lease_token: null,
            lease_until: null,
          })
          .execute();
        report.retrying += 1;
        log?.warn(
          { textId: id, kind: row.kind, attempts, error },
          'a text owed to a user could not be sent; it will be retried',
        );
      }
    }
  }
  return report;
}

/** Rows sent or given up (no number left on them) are kept a month for the record. */
export async function purgeFinishedTexts(db: Kysely<Database>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 30 * 24 * 3_600_000).toISOString();
  const result = await db
    .deleteFrom('text_outbox')
    .where((eb) => eb.or([eb('sent_at', '<=', before), eb('failed_at', '<=', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The texts still owed (not sent, not given up) and how long the oldest has waited. */
export async function outboxBacklog(
  db: Kysely<Database>,
  now: Date,
): Promise<{ backlog: number; oldestAgeSeconds: number }> {
  const row = await db
    .selectFrom('text_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('backlog'), eb.fn.min('queued_at').as('oldest')])
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .executeTakeFirst();
  const oldest = row?.oldest ? Date.parse(row.oldest) : undefined;
  return {
    backlog: row?.backlog ?? 0,
    oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
  };
}
