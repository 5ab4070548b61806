import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';

/**
 * After a key rotation, rewrites the numbers an old key encrypted with the current key (and
 * their blind index), so the old key can be retired once this has run. Each row changes only if
 * it still holds the value read, so two servers doing it at once, or a user changing meanwhile,
 * lose nothing. Returns how many rows it rewrote.
 */
export async function reencryptPhones(
  db: Kysely<Database>,
  phones: PhoneProtection,
): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'phone_encrypted'])
    .where('phone_encrypted', 'is not', null)
    .execute();
  let rewritten = 0;
  for (const row of rows) {
    if (row.phone_encrypted === null || phones.isCurrent(row.phone_encrypted)) continue;
    const phone = phones.decrypt(row.phone_encrypted);
    const result = await db
      .updateTable('users')
      .set({ phone_encrypted: phones.encrypt(phone), phone_index: phones.index(phone) })
      .where('id', '=', row.id)
      .where('phone_encrypted', '=', row.phone_encrypted)
      .executeTakeFirst();
    rewritten += Number(result.numUpdatedRows);
  }
  return rewritten;
}
