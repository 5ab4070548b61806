import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelPendingRequest, createRequest } from '../account-deletion/deletion-requests.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { findServableImage } from './media-repository.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

/** Public ids of the pictures of one user's public goods, cabinets and notes, and their avatar. */
async function picturesOf(userPublicId: string) {
  const user = await t.db
    .selectFrom('users')
    .leftJoin('images', 'images.id', 'users.avatar_image_id')
    .select(['users.id', 'images.public_id as avatar'])
    .where('users.public_id', '=', userPublicId)
    .executeTakeFirstOrThrow();
  const goods = await t.db
    .selectFrom('goods_images')
    .innerJoin('goods', 'goods.id', 'goods_images.goods_id')
    .innerJoin('images', 'images.id', 'goods_images.image_id')
    .select('images.public_id')
    .where('goods.owner_id', '=', user.id)
    .where('goods.visibility', '=', 'public')
    .where('goods.removed_at', 'is', null)
    .execute();
  const covers = await t.db
    .selectFrom('cabinets')
    .innerJoin('images', 'images.id', 'cabinets.cover_image_id')
    .select('images.public_id')
    .where('cabinets.owner_id', '=', user.id)
    .where('cabinets.visibility', '=', 'public')
    .where('cabinets.removed_at', 'is', null)
    .execute();
  const notes = await t.db
    .selectFrom('note_images')
    .innerJoin('notes', 'notes.id', 'note_images.note_id')
    .innerJoin('images', 'images.id', 'note_images.image_id')
    .select('images.public_id')
    .where('notes.author_id', '=', user.id)
    .where('notes.visibility', '=', 'public')
    .where('notes.removed_at', 'is', null)
    .execute();
  return {
    userId: user.id,
    avatar: user.avatar,
    shared: [...goods, ...covers, ...notes].map((row) => row.public_id),
  };
}

async function servable(publicIds: readonly string[]): Promise<boolean[]> {
  return Promise.all(
    publicIds.map(async (id) => (await findServableImage(t.db, id)) !== undefined),
  );
}

describe('findServableImage', () => {
  it("hides a leaving user's shared pictures during the cool-off, as share reading does", async () => {
    const owner = await t.db
      .selectFrom('goods')
      .select('owner_id')
      .where('public_id', '=', DEMO_IDS.goods.gallery)
      .executeTakeFirstOrThrow();
    const ownerPublicId = await t.db
      .selectFrom('users')
      .select('public_id')
      .where('id', '=', owner.owner_id)
      .executeTakeFirstOrThrow();
    const pictures = await picturesOf(ownerPublicId.public_id);
    expect(pictures.shared.length).toBeGreaterThan(1);
    expect(await servable(pictures.shared)).toEqual(pictures.shared.map(() => true));

    await createRequest(t.db, pictures.userId, new Date());
    expect(await servable(pictures.shared)).toEqual(pictures.shared.map(() => false));
    // Their avatar still shows beside what they wrote elsewhere (comments), as share pages do.
    if (pictures.avatar !== null) expect(await servable([pictures.avatar])).toEqual([true]);

    // Cancelling (or logging in) brings everything back.
    await cancelPendingRequest(t.db, pictures.userId, 'user', new Date());
    expect(await servable(pictures.shared)).toEqual(pictures.shared.map(() => true));
  });
});
