import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Phone numbers at rest (privacy policy 2025-10-15 §10: 手机号码…加密存储). A stored number is
 * `v1:<key id>:<iv>:<ciphertext and tag>` (base64url), AES-256-GCM, so a copy of the database
 * gives neither the numbers nor a way to change one unnoticed. Equality look-ups (the one
 * account per number, the daily limit per number) go through a blind index,
 * `<key id>:<HMAC-SHA256 of the number>`, keyed separately. Both keys are derived from one
 * configured secret per key id; old key ids stay readable during a rotation (see
 * docs/decisions, "phone numbers at rest").
 */
export interface PhoneKey {
  /** Short and public: it is stored with every value the key made. */
  id: string;
  /** 32 random bytes. */
  secret: Buffer;
}

export interface PhoneKeys {
  /** Encrypts and indexes everything written now. */
  current: PhoneKey;
  /** Only read: values written before a rotation, until they are re-encrypted. */
  previous: PhoneKey[];
}

export class PhoneDecryptionError extends Error {
  override name = 'PhoneDecryptionError';
}

export interface PhoneProtection {
  encrypt(phone: string): string;
  decrypt(stored: string): string;
  /** The blind index under the current key: what is written next to a number. */
  index(phone: string): string;
  /** The blind index under every known key, current first: what a look-up matches. */
  indexes(phone: string): string[];
  /** Whether a stored value was made with the current key (rotation re-encrypts the rest). */
  isCurrent(stored: string): boolean;
}

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds a ciphertext to what it is, so it cannot be passed off as another kind of secret.
const AAD = Buffer.from('guquan/phone');

interface DerivedKey {
  id: string;
  encryption: Buffer;
  index: Buffer;
}

function derive(key: PhoneKey): DerivedKey {
  const expand = (info: string) =>
    Buffer.from(hkdfSync('sha256', key.secret, Buffer.alloc(0), info, 32));
  return {
    id: key.id,
    encryption: expand('guquan/phone/aes-256-gcm/v1'),
    index: expand('guquan/phone/blind-index/v1'),
  };
}

export function phoneProtection(keys: PhoneKeys): PhoneProtection {
  const current = derive(keys.current);
  const all = [current, ...keys.previous.map(derive)];
  const byId = new Map(all.map((key) => [key.id, key]));
  const indexWith = (key: DerivedKey, phone: string) =>
    `${key.id}:${createHmac('sha256', key.index).update(phone, 'utf8').digest('base64url')}`;

  return {
    encrypt(phone) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.encryption, iv);
      cipher.setAAD(AAD);
      const sealed = Buffer.concat([
        cipher.update(phone, 'utf8'),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return [FORMAT, current.id, iv.toString('base64url'), sealed.toString('base64url')].join(':');
    },

    decrypt(stored) {
      const [format, id = '', iv = '', sealed = ''] = stored.split(':');
      const key = byId.get(id);
      if (format !== FORMAT || !key) {
        throw new PhoneDecryptionError(
          `No key for a stored phone number (key id ${JSON.stringify(id.slice(0, 20))})`,
        );
      }
      const bytes = Buffer.from(sealed, 'base64url');
      try {
        const decipher = createDecipheriv(
          'aes-256-gcm',
          key.encryption,
          Buffer.from(iv, 'base64url'),
        );
        decipher.setAAD(AAD);
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch (error) {
        throw new PhoneDecryptionError(
          'A stored phone number does not decrypt (altered, or the wrong key)',
          { cause: error },
        );
      }
    },

    index: (phone) => indexWith(current, phone),
    indexes: (phone) => all.map((key) => indexWith(key, phone)),
    isCurrent: (stored) => stored.startsWith(`${FORMAT}:${current.id}:`),
  };
}

/** A new key, in the form PHONE_ENCRYPTION_KEY takes. */
export function newPhoneKeyText(id: string): string {
  return `${id}:${randomBytes(32).toString('base64url')}`;
}
