import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoPhoneKeys } from './phone-keys.ts';
import { PhoneDecryptionError, phoneProtection, type PhoneKey } from './phone-protection.ts';

const k1: PhoneKey = { id: 'k1', secret: Buffer.alloc(32, 1) };
const k2: PhoneKey = { id: 'k2', secret: Buffer.alloc(32, 2) };

describe('phoneProtection', () => {
  it('encrypts with a fresh IV and the key id, and decrypts', () => {
    const phones = phoneProtection({ current: k1, previous: [] });
    const a = phones.encrypt('13800000001');
    const b = phones.encrypt('13800000001');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:k1:[\w-]+:[\w-]+$/);
    expect(a).not.toContain('13800000001');
    expect(phones.decrypt(a)).toBe('13800000001');
  });

  it('refuses an altered value or an unknown key', () => {
    const phones = phoneProtection({ current: k1, previous: [] });
    const stored = phones.encrypt('13800000001');
    const [format, id, iv, sealed = ''] = stored.split(':');
    const flipped = `${sealed[0] === 'A' ? 'B' : 'A'}${sealed.slice(1)}`;
    expect(() => phones.decrypt([format, id, iv, flipped].join(':'))).toThrow(PhoneDecryptionError);
    const other = phoneProtection({ current: k2, previous: [] });
    expect(() => other.decrypt(stored)).toThrow(/No key/);
  });

  it('reads what an old key wrote after a rotation, and finds it by any key index', () => {
    const before = phoneProtection({ current: k1, previous: [] });
    const after = phoneProtection({ current: k2, previous: [k1] });
    const stored = before.encrypt('13800000001');
    expect(after.decrypt(stored)).toBe('13800000001');
    expect(after.isCurrent(stored)).toBe(false);
    expect(after.isCurrent(after.encrypt('13800000001'))).toBe(true);
    expect(after.indexes('13800000001')).toContain(before.index('13800000001'));
    expect(after.index('13800000001')).toMatch(/^k2:/);
  });

  it('indexes with a key of its own: equal numbers match, the index reveals no digits', () => {
    const phones = phoneProtection({ current: k1, previous: [] });
    expect(phones.index('13800000001')).toBe(phones.index('13800000001'));
    expect(phones.index('13800000001')).not.toBe(phones.index('13800000002'));
    expect(phones.index('13800000001')).not.toContain('13800000001');
  });
});

describe('demoPhoneKeys', () => {
  it('makes a key once, private to the owner, and reuses it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guquan-key-'));
    try {
      const file = join(dir, 'phone-encryption.key');
      const first = await demoPhoneKeys(file);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const again = await demoPhoneKeys(file);
      expect(again.current.secret.equals(first.current.secret)).toBe(true);
      expect((await readFile(file, 'utf8')).trim()).toMatch(/^demo1:[\w-]{43}$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
