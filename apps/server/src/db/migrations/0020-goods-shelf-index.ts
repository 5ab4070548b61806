import type { Kysely, Migration } from 'kysely';

/**
 * The "more from this work" shelf (shares/work-shelf.ts) reads the newest goods of a work, and
 * without one the newest of all: each an index walked from its newest end, stopping after a
 * handful of public goods, never a scan and sort of the table.
 */
export const goodsShelfIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('goods_work_created')
      .on('goods')
      .columns(['work', 'created_at'])
      .execute();
    await db.schema.createIndex('goods_created').on('goods').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('goods_created').execute();
    await db.schema.dropIndex('goods_work_created').execute();
  },
};
