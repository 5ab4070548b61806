import type { PhoneKeys } from '../crypto/phone-protection.ts';

/** Fixed keys for tests that need no data directory (never used outside tests). */
export const TEST_PHONE_KEYS: PhoneKeys = {
  current: { id: 'test2', secret: Buffer.alloc(32, 2) },
  previous: [{ id: 'test1', secret: Buffer.alloc(32, 1) }],
};
