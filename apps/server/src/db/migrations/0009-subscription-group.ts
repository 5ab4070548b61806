import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The plans are one App Store subscription group. Each gets its level in the group as App Store
 * Connect ranks it (1 = the highest service), which decides what a change of plan is: to a higher
 * level an upgrade (at once), to a lower one a downgrade (at the next renewal), at the same level
 * a crossgrade (contract `planChange`). A membership remembers the plan its next renewal bills
 * (the App Store's autoRenewProductId), so a downgrade waiting for the renewal date can be shown.
 */
export const subscriptionGroupColumns: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('membership_plans')
      .addColumn('group_level', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    // As ranked in App Store Connect: a longer period is the higher level, so moving to it is
    // an upgrade that starts at once, and moving back waits for the renewal.
    await sql`update membership_plans set group_level = case product_id
      when 'vip.yearly' then 1 when 'vip.quarterly' then 2 when 'vip.monthly' then 3 else 1 end`.execute(
      db,
    );
    await db.schema
      .alterTable('memberships')
      .addColumn('renewal_product_id', 'varchar(100)')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('memberships').dropColumn('renewal_product_id').execute();
    await db.schema.alterTable('membership_plans').dropColumn('group_level').execute();
  },
};
