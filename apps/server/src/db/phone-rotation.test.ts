import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { demoPhoneKeys } from '../crypto/phone-keys.ts';
import { phoneProtection, type PhoneKey } from '../crypto/phone-protection.ts';
import { reencryptPhones } from './phone-rotation.ts';

let data: TestDatabase | undefined;
afterEach(async () => {
  await data?.close();
  data = undefined;
});

describe('reencryptPhones', () => {
  it('moves every number to the current key, once, and keeps it readable', async () => {
    data = await openTestDatabase();
    const { db } = data;
    const next: PhoneKey = { id: 'next', secret: Buffer.alloc(32, 5) };
    const demoKey = await demoPhoneKeys(data.paths.phoneKey);
    const rotated = phoneProtection({ current: next, previous: [demoKey.current] });
    const before = await db
      .selectFrom('users')
      .select(['id', 'phone_encrypted'])
      .orderBy('id')
      .execute();
    const plain = before.map((row) =>
      row.phone_encrypted ? rotated.decrypt(row.phone_encrypted) : null,
    );

    expect(await reencryptPhones(db, rotated)).toBe(plain.filter(Boolean).length);
    expect(await reencryptPhones(db, rotated)).toBe(0);
    const after = await db
      .selectFrom('users')
      .select(['phone_encrypted', 'phone_index'])
      .orderBy('id')
      .execute();
    const onlyNew = phoneProtection({ current: next, previous: [] });
    expect(
      after.map((row) => (row.phone_encrypted ? onlyNew.decrypt(row.phone_encrypted) : null)),
    ).toEqual(plain);
    expect(after.map((row) => row.phone_index)).toEqual(
      plain.map((phone) => (phone ? onlyNew.index(phone) : null)),
    );
  });
});
