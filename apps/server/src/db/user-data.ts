import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RetainedKind } from '@guquan/contract/account-deletion';
import type { Database } from './schema.ts';

/**
 * Every table, and what it holds of a user: the ONE list the account deletion job (what to
 * delete), the demo seed's wipe (every table, children first) and the migrations test (every table
 * and every column that refers to a user is here) read. It says what the privacy policy says (8.2,
 * 11.5): a user's rows are deleted, or stay with the anonymized account, or are kept by law for
 * RETENTION's period. Images are listed apart, by the columns that hold one:
 * media/image-references.ts.
 *
 * A new table joins it (the compiler asks for it, once it is in schema.ts), children before their
 * parents; a new column holding a user's id joins its table's `user` (db/user-data.test.ts names
 * any that is missing).
 */
export type TableName = keyof Database;
type Column<T extends TableName> = Extract<keyof Database[T], string>;

/** What becomes of a user's rows when their account is deleted. */
export type UserDataFate =
  /** Deleted by the deletion job, in the user's transaction. */
  | { fate: 'deleted' }
  /** The row stays, with the anonymized account row (no name, avatar or phone): `why` it stays. */
  | { fate: 'anonymized'; why: string }
  /** Kept because the law requires it, for RETENTION's period of `retention`, then purged. */
  | { fate: 'kept'; retention: RetainedKind };

export type TableUserData<T extends TableName> =
  | {
      /** The columns that hold a user's id (`users.id`), and what becomes of that user's rows. */
      user?: Partial<Record<Column<T>, UserDataFate>>;
      /**
       * Rows that are a user's through a row of another table they own (a goods' images): deleted
       * with the user's rows there (the parent table's `deleted` columns).
       */
      through?: Partial<Record<Column<T>, TableName>>;
    }
  | {
      /** No column refers to a user: what the table holds instead. */
      noUserColumn: string;
      /** Its rows are the schema's own, written by a migration: a wipe leaves them. */
      rowsFromMigrations?: true;
    };

export const USER_DATA: { readonly [T in TableName]: TableUserData<T> } = {
  // Points and the designs redeemed with them are lost (the deletion page says so).
  redemptions: { user: { user_id: { fate: 'deleted' } } },
  designs: {
    user: {
      designer_id: {
        fate: 'anonymized',
        why: 'retired, so nobody can redeem it any more; who redeemed it keeps it',
      },
    },
  },
  // A share's handoff code (docs/decisions/0017-app-links-and-handoffs.md): the item it opens,
  // never who shared or claimed it; both go 14 days after minting.
  app_link_claims: {
    noUserColumn: 'a digest of a handoff code and an app install together, for 14 days',
  },
  app_link_handoffs: {
    noUserColumn: "a shared item's kind and public id behind a handoff code, for 14 days",
  },
  // The share funnel's daily sums (docs/decisions/0018-share-funnel-and-operators-listener.md).
  share_funnel_days: {
    noUserColumn: "counts per day, share kind, item, channel and event: nobody's data",
  },
  // The platform's copy (PRODUCT.md, "The app's platform"), by the platform's public ids.
  platform_deliveries: { noUserColumn: "the `webhook-id`s of the platform's deliveries applied" },
  platform_versions: {
    noUserColumn:
      "the version of each entity the platform sent, by its public id (a user's by its SHA-256, so a deleted account's tombstone keeps no id of theirs), and tombstones: removed items, deleted accounts and their items (db/platform-tombstones.ts), which nothing the platform sends brings back",
  },
  platform_waiting_needs: {
    noUserColumn: 'public ids a waiting entity names and has not received',
  },
  platform_waiting: {
    noUserColumn:
      "an event naming what has not arrived, by the platform's public ids; dropped with the user it names (user.deleted)",
  },
  media_deletions: { noUserColumn: 'image files whose rows are gone, until they are removed' },
  outbox: {
    noUserColumn:
      "what the site owes to others: a deleted user's encrypted number until the notice is sent, an event for the platform until delivered; wiped then (outbox/)",
  },
  retained_records: { user: { user_id: { fate: 'kept', retention: 'goods_and_transactions' } } },
  account_cases: { user: { user_id: { fate: 'kept', retention: 'reports_and_appeals' } } },
  sms_codes: { user: { user_id: { fate: 'deleted' } } },
  account_deletion_requests: {
    user: { user_id: { fate: 'kept', retention: 'deletion_request' } },
  },
  // Comments the user wrote, and every comment under the user's notes.
  comments: { user: { author_id: { fate: 'deleted' } }, through: { note_id: 'notes' } },
  note_images: { through: { note_id: 'notes' } },
  notes: { user: { author_id: { fate: 'deleted' } } },
  cabinet_goods: { through: { cabinet_id: 'cabinets', goods_id: 'goods' } },
  cabinets: { user: { owner_id: { fate: 'deleted' } } },
  goods_images: { through: { goods_id: 'goods' } },
  // Deleted once the job has copied what the law keeps into retained_records.
  goods: { user: { owner_id: { fate: 'deleted' } } },
  // The membership's state goes; the App Store's payment records are transaction records.
  memberships: { user: { user_id: { fate: 'deleted' } } },
  app_store_transactions: {
    user: { user_id: { fate: 'kept', retention: 'goods_and_transactions' } },
  },
  app_account_tokens: { user: { user_id: { fate: 'deleted' } } },
  app_store_notifications: { noUserColumn: "Apple's notifications, by id, so each counts once" },
  wechat_credentials: { noUserColumn: "the official account's WeChat tokens" },
  membership_plans: { noUserColumn: 'the plans on sale', rowsFromMigrations: true },
  users: {
    user: {
      id: {
        fate: 'anonymized',
        why: 'what the law keeps refers to the account; nickname 已注销用户, no avatar, phone or points',
      },
    },
  },
  images: {
    noUserColumn: 'images, used by the rows that show them (media/image-references.ts)',
  },
};

/** The tables in an order that deletes children before their parents. */
export const TABLES_CHILDREN_FIRST = Object.keys(USER_DATA) as TableName[];

/** Any table's entry, read without its column names. */
interface UserDataEntry {
  user?: Readonly<Record<string, UserDataFate | undefined>>;
  through?: Readonly<Record<string, TableName | undefined>>;
  noUserColumn?: string;
  rowsFromMigrations?: true;
}

export function userDataOf(table: TableName): UserDataEntry {
  const entry: UserDataEntry = USER_DATA[table];
  return entry;
}

/** Each column of `table` that holds a user's id, with its fate. */
export function userColumnsOf(table: TableName): [string, UserDataFate][] {
  return Object.entries(userDataOf(table).user ?? {}).flatMap(([column, fate]) =>
    fate ? [[column, fate] as [string, UserDataFate]] : [],
  );
}

/** Which rows of `table` are the user's to delete; undefined when the job deletes none there. */
function deletedRowsCondition(table: TableName, userId: number): RawBuilder<unknown> | undefined {
  const conditions = [
    ...userColumnsOf(table)
      .filter(([, fate]) => fate.fate === 'deleted')
      .map(([column]) => sql`${sql.ref(column)} = ${userId}`),
    ...Object.entries(userDataOf(table).through ?? {}).flatMap(([column, parent]) => {
      const ofUser = parent === undefined ? undefined : deletedRowsCondition(parent, userId);
      return ofUser
        ? [
            sql`${sql.ref(column)} in (select ${sql.ref('id')} from ${sql.table(parent as string)} where ${ofUser})`,
          ]
        : [];
    }),
  ];
  return conditions.length === 0 ? undefined : sql`(${sql.join(conditions, sql` or `)})`;
}

/**
 * Deletes every row the list marks as the user's to delete, children first. The job calls it in
 * the user's transaction, after copying what the law keeps and noting the images in use.
 */
export async function deleteUserRows(db: Kysely<Database>, userId: number): Promise<void> {
  for (const table of TABLES_CHILDREN_FIRST) {
    const condition = deletedRowsCondition(table, userId);
    if (condition) await sql`delete from ${sql.table(table)} where ${condition}`.execute(db);
  }
}
