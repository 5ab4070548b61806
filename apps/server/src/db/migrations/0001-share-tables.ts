import { sql, type Kysely } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';
import type { Migration } from 'kysely';

/**
 * The tables behind the share pages: users, images, goods, cabinets, notes and comments.
 * Written with Kysely's schema builder and standard SQL only, so it runs on SQLite and PostgreSQL.
 * A migration never changes once shipped: later changes are new migrations.
 */

const VISIBILITY_CHECK = sql`visibility in ('public', 'private')`;

export const shareTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    const id = serialId(db);

    await db.schema
      .createTable('images')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('alt', 'varchar(200)', (c) => c.notNull())
      .addColumn('file_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('images_size', sql`width > 0 and height > 0`)
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('nickname', 'varchar(40)', (c) => c.notNull())
      .addColumn('avatar_image_id', 'integer', (c) => c.references('images.id'))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('goods')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('work', 'varchar(60)', (c) => c.notNull())
      .addColumn('character', 'varchar(60)')
      .addColumn('category', 'varchar(30)', (c) => c.notNull())
      .addColumn('price_fen', 'integer')
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('wants', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('visibility', 'varchar(10)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('removed_at', timestamp)
      .addCheckConstraint('goods_status', sql`status in ('display', 'selling', 'wanted')`)
      .addCheckConstraint('goods_visibility', VISIBILITY_CHECK)
      .addCheckConstraint('goods_counts', sql`likes >= 0 and wants >= 0`)
      .addCheckConstraint('goods_price', sql`price_fen is null or price_fen >= 0`)
      .execute();
    await db.schema.createIndex('goods_owner').on('goods').column('owner_id').execute();

    await db.schema
      .createTable('goods_images')
      .addColumn('goods_id', 'integer', (c) =>
        c.notNull().references('goods.id').onDelete('cascade'),
      )
      .addColumn('image_id', 'integer', (c) => c.notNull().references('images.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('goods_images_pk', ['goods_id', 'position'])
      .execute();
    await db.schema
      .createIndex('goods_images_image')
      .on('goods_images')
      .column('image_id')
      .execute();

    await db.schema
      .createTable('cabinets')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'varchar(60)', (c) => c.notNull())
      .addColumn('cover_image_id', 'integer', (c) => c.notNull().references('images.id'))
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('visibility', 'varchar(10)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('removed_at', timestamp)
      .addCheckConstraint('cabinets_visibility', VISIBILITY_CHECK)
      .addCheckConstraint('cabinets_counts', sql`likes >= 0`)
      .execute();
    await db.schema.createIndex('cabinets_cover').on('cabinets').column('cover_image_id').execute();

    await db.schema
      .createTable('cabinet_goods')
      .addColumn('cabinet_id', 'integer', (c) =>
        c.notNull().references('cabinets.id').onDelete('cascade'),
      )
      .addColumn('goods_id', 'integer', (c) =>
        c.notNull().references('goods.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('cabinet_goods_pk', ['cabinet_id', 'position'])
      .addUniqueConstraint('cabinet_goods_once', ['cabinet_id', 'goods_id'])
      .execute();

    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('title', 'varchar(100)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('collects', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('visibility', 'varchar(10)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('removed_at', timestamp)
      .addCheckConstraint('notes_visibility', VISIBILITY_CHECK)
      .addCheckConstraint('notes_counts', sql`likes >= 0 and collects >= 0`)
      .execute();

    await db.schema
      .createTable('note_images')
      .addColumn('note_id', 'integer', (c) =>
        c.notNull().references('notes.id').onDelete('cascade'),
      )
      .addColumn('image_id', 'integer', (c) => c.notNull().references('images.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('note_images_pk', ['note_id', 'position'])
      .execute();
    await db.schema.createIndex('note_images_image').on('note_images').column('image_id').execute();

    await db.schema
      .createTable('comments')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('note_id', 'integer', (c) =>
        c.notNull().references('notes.id').onDelete('cascade'),
      )
      .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('removed_at', timestamp)
      .addCheckConstraint('comments_counts', sql`likes >= 0`)
      .execute();
    await db.schema.createIndex('comments_note').on('comments').column('note_id').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'comments',
      'note_images',
      'notes',
      'cabinet_goods',
      'cabinets',
      'goods_images',
      'goods',
      'users',
      'images',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
