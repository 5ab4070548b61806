import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Transaction } from 'kysely';
import type { DataPaths } from '../../config/data-paths.ts';
import type { Db } from '../../db/database.ts';
import { newPublicId } from '../../db/public-id.ts';
import { TABLES_CHILDREN_FIRST, userDataOf } from '../../db/user-data.ts';
import { DEMO_IDS } from './demo-ids.ts';
import type { Database } from '../../db/schema.ts';
import {
  DEMO_CABINETS,
  DEMO_GOODS,
  DEMO_NOTES,
  DEMO_USERS,
  type DemoImage,
} from './demo-content.ts';
import { drawDemoPicture } from './demo-images.ts';
import { DEMO_MEMBER_KEY, seedDemoMembership } from './demo-membership.ts';
import { demoDesignImages, seedDesigns } from './seed-designs.ts';
import { seedAccountDeletionDemo } from './demo-account-deletion.ts';
import { seedDemoFunnel } from './demo-funnel.ts';
import { daysAgo } from './story-clock.ts';
import { SHARE_KINDS, type ShareKind } from '@guquan/contract/share-paths';
import type { PhoneProtection } from '../../crypto/phone-protection.ts';

export interface SeedOptions {
  /** Size of the drawn images relative to their natural size; the tests draw small ones. */
  imageScale?: number;
}

/** Whether the database holds nothing yet (first start). */
export async function isEmpty(db: Db): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const image = await db.selectFrom('images').select('id').limit(1).executeTakeFirst();
  return user === undefined && image === undefined;
}

/** Deletes every row (but the schema's own, the plans on sale) and every image file. */
export async function wipeData(db: Db, paths: DataPaths): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of TABLES_CHILDREN_FIRST) {
      if (!userDataOf(table).rowsFromMigrations) await trx.deleteFrom(table).execute();
    }
  });
  await rm(paths.media, { recursive: true, force: true });
  await rm(paths.mediaCache, { recursive: true, force: true });
}

interface DrawnImage {
  publicId: string;
  fileName: string;
  width: number;
  height: number;
  alt: string;
}

/** Draws every picture to a WebP original in DATA_DIR/media, all at once (sharp has a pool). */
async function drawImages(
  images: readonly DemoImage[],
  mediaDir: string,
  scale: number,
): Promise<Map<DemoImage, DrawnImage>> {
  await mkdir(mediaDir, { recursive: true });
  const drawn = await Promise.all(
    images.map(async (image) => {
      const { svg, width, height } = drawDemoPicture(image.picture, scale);
      const publicId = newPublicId();
      const fileName = `${publicId}.webp`;
      // Effort 0: the flat drawings lose nothing by it, and the seed takes a third of the time.
      await sharp(Buffer.from(svg))
        .webp({ quality: 90, effort: 0 })
        .toFile(join(mediaDir, fileName));
      return [image, { publicId, fileName, width, height, alt: image.alt }] as const;
    }),
  );
  return new Map(drawn);
}

async function insertImage(trx: Transaction<Database>, image: DrawnImage): Promise<number> {
  const row = await trx
    .insertInto('images')
    .values({
      public_id: image.publicId,
      width: image.width,
      height: image.height,
      alt: image.alt,
      file_name: image.fileName,
      created_at: daysAgo(60),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function lookup<K, T>(map: ReadonlyMap<K, T>, key: K, what: string): T {
  const value = map.get(key);
  if (value === undefined) throw new Error(`Demo data names an unknown ${what}`);
  return value;
}

/**
 * Fills an empty database with the demo community (demo-content.ts) and draws its images.
 * Everything goes in one transaction: a seed that fails leaves no half a community behind.
 */
export async function seedDemoData(
  db: Db,
  paths: DataPaths,
  phones: PhoneProtection,
  options: SeedOptions = {},
): Promise<void> {
  const allImages: DemoImage[] = [
    ...DEMO_USERS.flatMap((user) => (user.avatar ? [user.avatar] : [])),
    ...DEMO_GOODS.flatMap((goods) => goods.images),
    ...DEMO_CABINETS.map((cabinet) => cabinet.cover),
    ...DEMO_NOTES.flatMap((note) => note.images),
    ...demoDesignImages(),
  ];
  const drawn = await drawImages(allImages, paths.media, options.imageScale ?? 1);

  await db.transaction().execute(async (trx) => {
    const imageIds = new Map<DemoImage, number>();
    for (const image of allImages) {
      imageIds.set(image, await insertImage(trx, lookup(drawn, image, 'image')));
    }
    const imageId = (image: DemoImage) => lookup(imageIds, image, 'image');

    const users = new Map<string, number>();
    for (const user of DEMO_USERS) {
      const row = await trx
        .insertInto('users')
        .values({
          public_id: DEMO_IDS.users[user.key],
          nickname: user.nickname,
          avatar_image_id: user.avatar ? imageId(user.avatar) : null,
          created_at: daysAgo(90),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      users.set(user.key, row.id);
    }
    await seedAccountDeletionDemo(trx, users, daysAgo, phones);

    // Public items in the order of the story (the demo links first), for the funnel's counts.
    const shared: Record<ShareKind, string[]> = { goods: [], cabinet: [], note: [] };
    const goodsIds = new Map<string, number>();
    for (const goods of DEMO_GOODS) {
      const publicId = goods.publicId ?? newPublicId();
      if (goods.visibility === 'public' && !goods.removed) shared.goods.push(publicId);
      const row = await trx
        .insertInto('goods')
        .values({
          public_id: publicId,
          owner_id: lookup(users, goods.owner, 'user'),
          name: goods.name,
          work: goods.work,
          character: goods.character,
          category: goods.category,
          price_fen: goods.priceFen,
          status: goods.status,
          text: goods.text,
          tags: JSON.stringify(goods.tags),
          likes: goods.likes,
          wants: goods.wants,
          visibility: goods.visibility,
          created_at: daysAgo(goods.daysAgo),
          removed_at: goods.removed ? daysAgo(1) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      goodsIds.set(goods.key, row.id);
      await trx
        .insertInto('goods_images')
        .values(
          goods.images.map((image, position) => ({
            goods_id: row.id,
            image_id: imageId(image),
            position,
          })),
        )
        .execute();
    }

    for (const cabinet of DEMO_CABINETS) {
      const publicId = cabinet.publicId ?? newPublicId();
      if (cabinet.visibility === 'public' && !cabinet.removed) shared.cabinet.push(publicId);
      const row = await trx
        .insertInto('cabinets')
        .values({
          public_id: publicId,
          owner_id: lookup(users, cabinet.owner, 'user'),
          name: cabinet.name,
          cover_image_id: imageId(cabinet.cover),
          text: cabinet.text,
          likes: cabinet.likes,
          visibility: cabinet.visibility,
          created_at: daysAgo(cabinet.daysAgo),
          removed_at: cabinet.removed ? daysAgo(0.5) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('cabinet_goods')
        .values(
          cabinet.goods.map((key, position) => ({
            cabinet_id: row.id,
            goods_id: lookup(goodsIds, key, 'goods'),
            position,
          })),
        )
        .execute();
    }

    for (const note of DEMO_NOTES) {
      const publicId = note.publicId ?? newPublicId();
      if (note.visibility === 'public' && !note.removed) shared.note.push(publicId);
      const row = await trx
        .insertInto('notes')
        .values({
          public_id: publicId,
          author_id: lookup(users, note.author, 'user'),
          title: note.title,
          text: note.text,
          tags: JSON.stringify(note.tags),
          likes: note.likes,
          collects: note.collects,
          visibility: note.visibility,
          created_at: daysAgo(note.daysAgo),
          removed_at: note.removed ? daysAgo(1) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (note.images.length > 0) {
        await trx
          .insertInto('note_images')
          .values(
            note.images.map((image, position) => ({
              note_id: row.id,
              image_id: imageId(image),
              position,
            })),
          )
          .execute();
      }
      if (note.comments.length > 0) {
        await trx
          .insertInto('comments')
          .values(
            note.comments.map((comment) => ({
              public_id: newPublicId(),
              note_id: row.id,
              author_id: lookup(users, comment.author, 'user'),
              text: comment.text,
              likes: comment.likes,
              created_at: daysAgo(note.daysAgo, comment.minutesAfter),
              removed_at: comment.removed ? daysAgo(note.daysAgo, comment.minutesAfter + 60) : null,
            })),
          )
          .execute();
      }
    }

    // One demo user is already a member (the membership centre shows both states).
    await seedDemoMembership(trx, lookup(users, DEMO_MEMBER_KEY, 'user'));
    await seedDesigns(trx, {
      userId: (key) => lookup(users, key, 'user'),
      imageId,
      daysAgo,
    });
    // The share funnel of the last 30 days (up to today, not the story's day), kinds taking turns.
    const items = [0, 1, 2, 3, 4, 5].flatMap((index) =>
      SHARE_KINDS.flatMap((kind) => {
        const id = shared[kind][index];
        return id === undefined ? [] : [{ kind, id }];
      }),
    );
    await seedDemoFunnel(trx, items);
  });
}

/** First start: seeds when the database is empty, leaves it alone otherwise. */
export async function seedIfEmpty(
  db: Db,
  paths: DataPaths,
  phones: PhoneProtection,
  options: SeedOptions = {},
): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // Images left by an earlier, interrupted seed belong to nothing: start clean.
  await wipeData(db, paths);
  await seedDemoData(db, paths, phones, options);
  return true;
}
