import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  newPhoneKeyText,
  phoneProtection,
  type PhoneKey,
  type PhoneKeys,
  type PhoneProtection,
} from './phone-protection.ts';

/**
 * Where the phone keys come from. Production: PHONE_ENCRYPTION_KEY (`<key id>:<32 bytes,
 * base64>`), and during a rotation PHONE_ENCRYPTION_PREVIOUS_KEYS (the same form, comma
 * separated) for what the old keys wrote. Demo mode without them makes a key once and keeps it
 * in DATA_DIR (mode 0600). No message ever contains a key.
 */
const KEY_ID = /^[A-Za-z0-9_-]{1,16}$/;
const DEMO_KEY_ID = 'demo1';

function parseKey(text: string, name: string): PhoneKey | string {
  const separator = text.indexOf(':');
  const id = separator < 0 ? '' : text.slice(0, separator).trim();
  const encoded = separator < 0 ? '' : text.slice(separator + 1).trim();
  if (!KEY_ID.test(id)) {
    return `${name}: must be <key id>:<key>, the key id 1-16 letters, digits, _ or -`;
  }
  const secret = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(encoded) || secret.length !== 32) {
    return `${name}: the key of id ${id} must be 32 random bytes in base64 (e.g. node -e "console.log('${id}:' + require('crypto').randomBytes(32).toString('base64'))")`;
  }
  return { id, secret };
}

export type PhoneKeysResult = { keys: PhoneKeys | null; problems: string[] };

/** Reads the keys from the environment; `keys` is null when none is configured. */
export function readPhoneKeys(env: Record<string, string | undefined>): PhoneKeysResult {
  const currentText = env.PHONE_ENCRYPTION_KEY?.trim();
  const previousText = env.PHONE_ENCRYPTION_PREVIOUS_KEYS?.trim();
  if (!currentText) {
    return {
      keys: null,
      problems: previousText
        ? ['PHONE_ENCRYPTION_PREVIOUS_KEYS: given without PHONE_ENCRYPTION_KEY']
        : [],
    };
  }
  const problems: string[] = [];
  const current = parseKey(currentText, 'PHONE_ENCRYPTION_KEY');
  if (typeof current === 'string') problems.push(current);
  const previous: PhoneKey[] = [];
  for (const text of previousText ? previousText.split(',') : []) {
    const key = parseKey(text, 'PHONE_ENCRYPTION_PREVIOUS_KEYS');
    if (typeof key === 'string') problems.push(key);
    else previous.push(key);
  }
  const ids = [typeof current === 'string' ? '' : current.id, ...previous.map((key) => key.id)];
  if (new Set(ids).size !== ids.length) {
    problems.push('PHONE_ENCRYPTION_PREVIOUS_KEYS: every key needs an id of its own');
  }
  if (typeof current === 'string' || problems.length > 0) return { keys: null, problems };
  return { keys: { current, previous }, problems: [] };
}

/** Demo mode: the key kept in DATA_DIR, made on the first start. */
export async function demoPhoneKeys(file: string): Promise<PhoneKeys> {
  let text = await readFile(file, 'utf8').catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) {
    text = newPhoneKeyText(DEMO_KEY_ID);
    await mkdir(dirname(file), { recursive: true });
    // `wx`: two processes starting at once cannot both write a key; the second reads the first.
    await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' }).catch(
      async (error: unknown) => {
        if (error instanceof Error && 'code' in error && error.code === 'EEXIST') {
          text = await readFile(file, 'utf8');
          return;
        }
        throw error;
      },
    );
    await chmod(file, 0o600);
  }
  const key = parseKey(text.trim(), file);
  if (typeof key === 'string') throw new Error(`The demo phone key is damaged: ${key}`);
  return { current: key, previous: [] };
}

/** Phone protection whose keys a running server can replace (a rotation, secret-rotation.ts). */
export interface RotatingPhoneProtection extends PhoneProtection {
  keys(): PhoneKeys;
  /** From now on, everything is written with `next.current`, and read with any of `next`. */
  replaceKeys(next: PhoneKeys): void;
}

export function rotatingPhoneProtection(initial: PhoneKeys): RotatingPhoneProtection {
  let keys = initial;
  let protection = phoneProtection(keys);
  return {
    encrypt: (phone) => protection.encrypt(phone),
    decrypt: (stored) => protection.decrypt(stored),
    index: (phone) => protection.index(phone),
    indexes: (phone) => protection.indexes(phone),
    isCurrent: (stored) => protection.isCurrent(stored),
    keys: () => keys,
    replaceKeys(next) {
      protection = phoneProtection(next);
      keys = next;
    },
  };
}

/** Whether two key lists are the same keys, in the same roles. */
export function samePhoneKeys(a: PhoneKeys, b: PhoneKeys): boolean {
  const text = (keys: PhoneKeys) =>
    [keys.current, ...keys.previous].map((key) => `${key.id}:${key.secret.toString('base64')}`);
  return text(a).join(',') === text(b).join(',');
}

/** The configured keys, or in demo mode (none configured) the one kept in DATA_DIR. */
export async function loadPhoneProtection(
  configured: PhoneKeys | null,
  demoKeyFile: string,
): Promise<RotatingPhoneProtection> {
  return rotatingPhoneProtection(configured ?? (await demoPhoneKeys(demoKeyFile)));
}
