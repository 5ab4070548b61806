import type { Kysely, Migration } from 'kysely';

/**
 * What a redemption gives, as the platform says it (design.upserted's `file` and `use`): the
 * file's format, pixels and bytes, and the use its designer allows. Null until the platform sends
 * them (they are optional in its events).
 */
const COLUMNS = [
  ['file_format', 'text'],
  ['file_width', 'integer'],
  ['file_height', 'integer'],
  ['file_bytes', 'integer'],
  ['use_allowed', 'text'],
] as const;

export const designFileAndUse: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, type] of COLUMNS) {
      await db.schema.alterTable('designs').addColumn(name, type).execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const [name] of COLUMNS) {
      await db.schema.alterTable('designs').dropColumn(name).execute();
    }
  },
};
