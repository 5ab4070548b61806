import type { Kysely, Migration } from 'kysely';

/**
 * A note's count of comments as the platform tells it (note.upserted's `comments`): the site
 * keeps only the few it shows (`topComments`), so it cannot count them. Null for a note the site
 * wrote itself: its comments are all here and counted.
 */
export const noteCommentCount: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('notes').addColumn('comment_count', 'integer').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('notes').dropColumn('comment_count').execute();
  },
};
