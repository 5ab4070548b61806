import { TOP_COMMENTS_LIMIT, type Comment, type Note } from '@guquan/contract/share';
import type { Db } from '../db/database.ts';
import { required, userSummaries } from '../db/summaries.ts';
import { inDeletionCoolOff } from './public-visibility.ts';
import { imagesByOwner } from './share-queries.ts';
import { parseTags, type StoredShare } from './stored-share.ts';

/**
 * A note by its public id. `comments` is the platform's count, or, for a note the site wrote
 * itself, counts the comments still there (not removed); the top few come along, most liked
 * first, the older first among equals.
 */
export async function findNote(db: Db, publicId: string): Promise<StoredShare<Note> | undefined> {
  const row = await db
    .selectFrom('notes')
    .selectAll()
    .where('public_id', '=', publicId)
    .executeTakeFirst();
  if (!row) return undefined;

  const [images, count, top] = await Promise.all([
    imagesByOwner(db, 'note_images', [row.id]),
    db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('note_id', '=', row.id)
      .where('removed_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('comments')
      .select(['public_id', 'author_id', 'text', 'likes', 'created_at'])
      .where('note_id', '=', row.id)
      .where('removed_at', 'is', null)
      .orderBy('likes', 'desc')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(TOP_COMMENTS_LIMIT)
      .execute(),
  ]);
  const users = await userSummaries(db, [row.author_id, ...top.map((c) => c.author_id)]);
  const topComments: Comment[] = top.map((comment) => ({
    id: comment.public_id,
    author: required(users.get(comment.author_id), 'comment author'),
    text: comment.text,
    likes: comment.likes,
    createdAt: comment.created_at,
  }));

  return {
    visibility: row.visibility,
    removedAt: row.removed_at,
    ownerLeaving: await inDeletionCoolOff(db, row.author_id),
    item: {
      id: row.public_id,
      title: row.title,
      text: row.text,
      author: required(users.get(row.author_id), 'note author'),
      images: images.get(row.id) ?? [],
      tags: parseTags(row.tags),
      likes: row.likes,
      collects: row.collects,
      // The platform's count where it sent one (only the top comments are here); otherwise the
      // rows, whose countAll is a number on SQLite and a bigint string on PostgreSQL.
      comments: row.comment_count ?? Number(count.count),
      topComments,
      createdAt: row.created_at,
    },
  };
}
