import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import {
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_ATTEMPTS,
  SMS_CODE_TTL_SECONDS,
  SMS_DAILY_LIMIT,
  SMS_RESEND_SECONDS,
} from '@guquan/contract/account-deletion';
import { lockKey, lockUser } from '../db/locking.ts';
import type { Database } from '../db/schema.ts';

/**
 * One-time SMS codes: 6 random digits, stored only as a salted scrypt hash (a copy of the database
 * does not give the live codes away cheaply), valid 5 minutes, used once, dead after 5 wrong tries.
 * Only the newest code of a user counts. Sending is limited per user and per phone.
 */
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;
const KEY_LENGTH = 32;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

async function hashCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(code, salt, KEY_LENGTH);
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}

async function codeMatches(code: string, stored: string): Promise<boolean> {
  const [salt, hash] = stored.split(':');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'hex');
  const actual = await scryptAsync(code, Buffer.from(salt, 'hex'), KEY_LENGTH);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function newCode(): string {
  return randomInt(0, 10 ** SMS_CODE_LENGTH)
    .toString()
    .padStart(SMS_CODE_LENGTH, '0');
}

/** Seconds to wait before another code may go to this user or phone; 0 when it may go now. */
async function secondsUntilAllowed(
  db: Kysely<Database>,
  column: 'user_id' | 'phone',
  value: number | string,
  now: Date,
): Promise<number> {
  const recent = await db
    .selectFrom('sms_codes')
    .select('created_at')
    .where(column, '=', value)
    .where('created_at', '>', new Date(now.getTime() - DAY_MS).toISOString())
    .orderBy('created_at', 'desc')
    .limit(SMS_DAILY_LIMIT)
    .execute();
  let waitMs = 0;
  const newest = recent[0];
  if (newest) {
    waitMs = Date.parse(newest.created_at) + SMS_RESEND_SECONDS * 1000 - now.getTime();
  }
  const oldestOfDay = recent[SMS_DAILY_LIMIT - 1];
  if (oldestOfDay) {
    waitMs = Math.max(waitMs, Date.parse(oldestOfDay.created_at) + DAY_MS - now.getTime());
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

export type IssueResult =
  | { ok: true; codeId: number; code: string; expiresAt: string }
  | { ok: false; retryAfterSeconds: number };

/** A new code for the user's phone, unless a limit says wait. The caller sends it. */
export async function issueCode(
  db: Kysely<Database>,
  userId: number,
  phone: string,
  now: Date,
): Promise<IssueResult> {
  // Two taps at once, on one server or two, must not both pass the limit check: the user's row
  // and the phone are locked for the transaction (on SQLite transactions run one at a time).
  return db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    await lockKey(trx, `sms-phone:${phone}`);
    const wait = Math.max(
      await secondsUntilAllowed(trx, 'user_id', userId, now),
      await secondsUntilAllowed(trx, 'phone', phone, now),
    );
    if (wait > 0) return { ok: false as const, retryAfterSeconds: wait };
    const code = newCode();
    const expiresAt = new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000).toISOString();
    const row = await trx
      .insertInto('sms_codes')
      .values({
        user_id: userId,
        phone,
        purpose: 'account_deletion',
        code_hash: await hashCode(code),
        created_at: now.toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ok: true as const, codeId: row.id, code, expiresAt };
  });
}

/** A code that could not be delivered is dead, but still counts against the limits. */
export async function discardCode(db: Kysely<Database>, codeId: number, now: Date): Promise<void> {
  await db
    .updateTable('sms_codes')
    .set({ used_at: now.toISOString() })
    .where('id', '=', codeId)
    .execute();
}

export type CheckResult =
  | { ok: true; codeId: number }
  | { ok: false; reason: 'missing' | 'used' | 'expired' | 'attempts_exceeded' }
  | { ok: false; reason: 'wrong'; attemptsLeft: number };

/**
 * Checks a code against the user's newest one, counting the try. It does not use the code up:
 * the caller does that with `useCode` in the transaction that acts on it.
 */
export async function checkCode(
  db: Kysely<Database>,
  userId: number,
  phone: string,
  code: string,
  now: Date,
): Promise<CheckResult> {
  const latest = await db
    .selectFrom('sms_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', 'account_deletion')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // A code sent to a phone the account no longer has is no proof.
  if (!latest || latest.phone !== phone) return { ok: false, reason: 'missing' };
  if (latest.used_at !== null) return { ok: false, reason: 'used' };
  if (latest.attempts >= SMS_CODE_MAX_ATTEMPTS) return { ok: false, reason: 'attempts_exceeded' };
  if (latest.expires_at <= now.toISOString()) return { ok: false, reason: 'expired' };
  // Each try takes one of the code's attempts before the comparison, in one conditional update:
  // parallel tries (on any server) cannot share an attempt, so at most SMS_CODE_MAX_ATTEMPTS
  // guesses are ever compared. A right guess keeps the attempt it took.
  const claimed = await db
    .updateTable('sms_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', latest.id)
    .where('used_at', 'is', null)
    .where('attempts', '<', SMS_CODE_MAX_ATTEMPTS)
    .returning('attempts')
    .executeTakeFirst();
  if (!claimed) {
    // A parallel request used the code, or took its last attempt, in the meantime.
    const current = await db
      .selectFrom('sms_codes')
      .select('used_at')
      .where('id', '=', latest.id)
      .executeTakeFirstOrThrow();
    return { ok: false, reason: current.used_at === null ? 'attempts_exceeded' : 'used' };
  }
  if (await codeMatches(code, latest.code_hash)) return { ok: true, codeId: latest.id };
  const attemptsLeft = Math.max(0, SMS_CODE_MAX_ATTEMPTS - claimed.attempts);
  return attemptsLeft === 0
    ? { ok: false, reason: 'attempts_exceeded' }
    : { ok: false, reason: 'wrong', attemptsLeft };
}

/** Marks a checked code used; false when another request used it first. */
export async function useCode(db: Kysely<Database>, codeId: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('sms_codes')
    .set({ used_at: now.toISOString() })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    // The right guess holds one of the attempts itself (checkCode).
    .where('attempts', '<=', SMS_CODE_MAX_ATTEMPTS)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
