import { randomBytes } from 'node:crypto';

/**
 * A new public id of the site's own (redemptions; the platform names everything else): 96 random
 * bits as 16 base64url characters, within the contract's PUBLIC_ID_PATTERN.
 */
export function newPublicId(): string {
  return randomBytes(12).toString('base64url');
}

/** Now, as the database keeps timestamps (ISO 8601 text, UTC). */
export function nowIso(): string {
  return new Date().toISOString();
}
