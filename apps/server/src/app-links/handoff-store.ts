import { createHash, randomBytes } from 'node:crypto';
import {
  HANDOFF_CODE_ALPHABET,
  HANDOFF_CODE_LENGTH,
  HANDOFF_VALID_DAYS,
  opensAtImage,
} from '@guquan/contract/app-link-paths';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/**
 * Handoff codes in the database (docs/decisions/0017-app-links-and-handoffs.md). A code is stored as its digest, with the item it
 * points at and its times; a claim as the digest of the code and the install id together. Nothing
 * about the visitor who minted it, nor anything that tells one install across codes.
 */

export interface HandoffTarget {
  kind: ShareKind;
  id: string;
  image?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const VALID_MS = HANDOFF_VALID_DAYS * DAY_MS;
/** After it expires a code is kept this long more, so a late claim is told "expired", not "unknown". */
const KEPT_AFTER_EXPIRY_MS = 7 * DAY_MS;

/** A new code: 12 characters of a 32-letter alphabet, each from 5 random bits (60 in all). */
export function newHandoffCode(): string {
  const bytes = randomBytes(HANDOFF_CODE_LENGTH);
  // 256 is a multiple of 32: the low 5 bits of a random byte are uniform, so no letter is likelier.
  return Array.from(bytes, (byte) => HANDOFF_CODE_ALPHABET[byte & 31]).join('');
}

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

export function codeDigest(code: string): string {
  return digest('handoff-code', code);
}

/** The install id is never stored: only this, which needs the code too to be recomputed. */
export function installDigest(code: string, installId: string): string {
  return digest('handoff-claim', code, installId);
}

export interface MintedCode {
  code: string;
  expiresAt: Date;
}

/** Stores a new code for the target; a clash with a live code (1 in 2^60 per pair) draws again. */
export async function mintHandoff(db: Db, target: HandoffTarget, now: Date): Promise<MintedCode> {
  const expiresAt = new Date(now.getTime() + VALID_MS);
  for (let attempt = 1; ; attempt += 1) {
    const code = newHandoffCode();
    try {
      await db
        .insertInto('app_link_handoffs')
        .values({
          code_digest: codeDigest(code),
          target_kind: target.kind,
          target_id: target.id,
          target_image: opensAtImage(target.kind) ? (target.image ?? null) : null,
          created_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
        })
        .execute();
      return { code, expiresAt };
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

export type ClaimResult =
  | { state: 'unknown' }
  | { state: 'expired' }
  | {
      state: 'claimed';
      target: HandoffTarget;
      /** This install had not claimed it before: the claim counts. */
      first: boolean;
    };

/**
 * Claims a code for an install. The same install claiming again (a retry, a replay, two at once)
 * gets the same answer and counts once: the claim's row is keyed by the code and the install's
 * digest, and only the insert that made it counts.
 */
export async function claimHandoff(
  db: Db,
  code: string,
  installId: string,
  now: Date,
): Promise<ClaimResult> {
  const handoff = await db
    .selectFrom('app_link_handoffs')
    .select(['id', 'target_kind', 'target_id', 'target_image', 'expires_at'])
    .where('code_digest', '=', codeDigest(code))
    .executeTakeFirst();
  if (!handoff) return { state: 'unknown' };
  if (handoff.expires_at <= now.toISOString()) return { state: 'expired' };
  const inserted = await db
    .insertInto('app_link_claims')
    .values({
      handoff_id: handoff.id,
      install_digest: installDigest(code, installId),
      claimed_at: now.toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['handoff_id', 'install_digest']).doNothing())
    .returning('handoff_id')
    .executeTakeFirst();
  return {
    state: 'claimed',
    target: {
      kind: handoff.target_kind,
      id: handoff.target_id,
      ...(handoff.target_image === null ? {} : { image: handoff.target_image }),
    },
    first: inserted !== undefined,
  };
}

/** Deletes codes (and their claims) a week past their expiry; returns how many went. */
export async function deleteOldHandoffs(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS).toISOString();
  const result = await db
    .deleteFrom('app_link_handoffs')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
