import type { Kysely, Migration } from 'kysely';
import type { PhoneProtection } from '../../crypto/phone-protection.ts';

/**
 * Phone numbers at rest (privacy policy §10): the plain `phone` columns become an encrypted
 * number and a blind index on `users`, and only the blind index on `sms_codes` (the code's
 * number is only ever compared). Schema and data change in the migration's one transaction, so
 * a database is either all plain (before) or all encrypted (after); that is why this migration
 * is given the keys (MigrationContext) rather than leaving the data to a later step.
 */
export interface PhoneEncryptionContext {
  phones: PhoneProtection;
}

// A type alias, as Kysely's table maps want (an interface has no index signature).
type Tables = {
  users: {
    id: number;
    phone: string | null;
    phone_encrypted: string | null;
    phone_index: string | null;
  };
  sms_codes: { id: number; phone: string; phone_index: string };
};

export function phoneEncryption({ phones }: PhoneEncryptionContext): Migration {
  return {
    async up(untyped: Kysely<unknown>) {
      const db = untyped.withTables<Tables>();
      await db.schema.alterTable('users').addColumn('phone_encrypted', 'varchar(200)').execute();
      await db.schema.alterTable('users').addColumn('phone_index', 'varchar(80)').execute();
      await db.schema
        .alterTable('sms_codes')
        .addColumn('phone_index', 'varchar(80)', (c) => c.notNull().defaultTo(''))
        .execute();

      const users = await db
        .selectFrom('users')
        .select(['id', 'phone'])
        .where('phone', 'is not', null)
        .execute();
      for (const user of users) {
        if (user.phone === null) continue;
        await db
          .updateTable('users')
          .set({
            phone_encrypted: phones.encrypt(user.phone),
            phone_index: phones.index(user.phone),
          })
          .where('id', '=', user.id)
          .execute();
      }
      const codes = await db.selectFrom('sms_codes').select(['id', 'phone']).execute();
      for (const code of codes) {
        await db
          .updateTable('sms_codes')
          .set({ phone_index: phones.index(code.phone) })
          .where('id', '=', code.id)
          .execute();
      }

      await db.schema.dropIndex('users_phone').execute();
      await db.schema.dropIndex('sms_codes_phone').execute();
      await db.schema.alterTable('users').dropColumn('phone').execute();
      await db.schema.alterTable('sms_codes').dropColumn('phone').execute();
      await db.schema
        .createIndex('users_phone_index')
        .unique()
        .on('users')
        .column('phone_index')
        .execute();
      await db.schema
        .createIndex('sms_codes_phone_index')
        .on('sms_codes')
        .columns(['phone_index', 'created_at'])
        .execute();
    },

    async down(untyped: Kysely<unknown>) {
      const db = untyped.withTables<Tables>();
      await db.schema.alterTable('users').addColumn('phone', 'varchar(20)').execute();
      await db.schema
        .alterTable('sms_codes')
        .addColumn('phone', 'varchar(20)', (c) => c.notNull().defaultTo(''))
        .execute();
      const users = await db
        .selectFrom('users')
        .select(['id', 'phone_encrypted'])
        .where('phone_encrypted', 'is not', null)
        .execute();
      for (const user of users) {
        if (user.phone_encrypted === null) continue;
        await db
          .updateTable('users')
          .set({ phone: phones.decrypt(user.phone_encrypted) })
          .where('id', '=', user.id)
          .execute();
      }
      // A code's number cannot be recovered from its index: the codes go (they live minutes).
      await db.deleteFrom('sms_codes').execute();
      await db.schema.dropIndex('users_phone_index').execute();
      await db.schema.dropIndex('sms_codes_phone_index').execute();
      await db.schema.alterTable('users').dropColumn('phone_encrypted').execute();
      await db.schema.alterTable('users').dropColumn('phone_index').execute();
      await db.schema.alterTable('sms_codes').dropColumn('phone_index').execute();
      await db.schema.createIndex('users_phone').unique().on('users').column('phone').execute();
      await db.schema
        .createIndex('sms_codes_phone')
        .on('sms_codes')
        .columns(['phone', 'created_at'])
        .execute();
    },
  };
}
