import { TOP_COMMENTS_LIMIT } from '@guquan/contract/share';
import type { PlatformEvent, PlatformImage } from '@guquan/contract/platform-events';
import {
  DEMO_CABINETS,
  DEMO_GOODS,
  DEMO_NOTES,
  DEMO_USERS,
  type DemoComment,
  type DemoImage,
} from '../demo/seed/demo-content.ts';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import { cabinetId, goodsId, noteId, stableDemoId } from '../demo/seed/demo-item-ids.ts';
import { DEMO_DESIGNS, demoPointsBalance } from '../demo/seed/demo-designs.ts';
import { DEMO_DELETION_BLOCKER, DEMO_PHONES } from '../demo/seed/demo-account-deletion.ts';
import { drawDemoPicture, type PictureSpec } from '../demo/seed/demo-images.ts';
import { daysAgo } from '../demo/seed/story-clock.ts';

/**
 * The demo community (demo/seed/demo-content.ts and its designs, phones, points and deletion
 * blockers) as the platform's events (PRODUCT.md, "The app's platform"): every user, goods,
 * cabinet, note and design upserted at version 1, then the removed items removed at version 2.
 * Everything is fixed by the demo content: the same ids (DEMO_IDS, and for the rest ids derived
 * from the item), the same times (counted back from today: demo/seed/story-clock.ts) and the
 * same image URLs at every call, so a second delivery changes nothing.
 */

/** A picture the stand-in's media origin serves, by its file name there. */
export interface DemoPicture {
  name: string;
  spec: PictureSpec;
}

/** The version every demo entity is first sent at; a removal comes one version later. */
const FIRST_VERSION = 1;
const REMOVED_VERSION = 2;

/** The picture's file name on the media origin: what it shows, so the same picture keeps it. */
export function pictureName(spec: PictureSpec): string {
  const watermark = spec.watermark === true ? '-watermarked' : '';
  return `${spec.shape}-${spec.palette}-${spec.variant}${watermark}.webp`;
}

function userId(key: string): string {
  if (!(key in DEMO_IDS.users)) throw new Error(`Demo data names an unknown user ${key}`);
  return DEMO_IDS.users[key as DemoUserKey];
}

/** Every picture the demo community shows, each once. */
export function demoPictures(): DemoPicture[] {
  const images: DemoImage[] = [
    ...DEMO_USERS.flatMap((user) => (user.avatar ? [user.avatar] : [])),
    ...DEMO_GOODS.flatMap((goods) => goods.images),
    ...DEMO_CABINETS.map((cabinet) => cabinet.cover),
    ...DEMO_NOTES.flatMap((note) => note.images),
    ...DEMO_DESIGNS.map((design) => design.preview),
  ];
  const byName = new Map(images.map((image) => [pictureName(image.picture), image.picture]));
  return [...byName].map(([name, spec]) => ({ name, spec }));
}

/** The most liked comments still there, the older first among equals (as the site shows them). */
function topComments(comments: readonly DemoComment[], noteDaysAgo: number, noteId: string) {
  return comments
    .map((comment, index) => ({ comment, index }))
    .filter(({ comment }) => comment.removed !== true)
    .sort((a, b) => b.comment.likes - a.comment.likes || a.index - b.index)
    .slice(0, TOP_COMMENTS_LIMIT)
    .map(({ comment, index }) => ({
      id: stableDemoId(`comment:${noteId}:${index}`),
      authorId: userId(comment.author),
      text: comment.text,
      likes: comment.likes,
      createdAt: daysAgo(noteDaysAgo, comment.minutesAfter),
    }));
}

export interface DemoCommunityOptions {
  /** Where the stand-in serves its pictures: `http://127.0.0.1:<port>`. */
  mediaOrigin: string;
  /** The pictures' size relative to their natural size (the tests draw small ones). */
  imageScale?: number;
}

/** The demo community as the stand-in platform sends it, in the order it sends it. */
export function demoCommunityEvents({
  mediaOrigin,
  imageScale = 1,
}: DemoCommunityOptions): PlatformEvent[] {
  const image = ({ picture, alt }: DemoImage): PlatformImage => {
    const { width, height } = drawDemoPicture(picture, imageScale);
    return { url: `${mediaOrigin}/media/${pictureName(picture)}`, width, height, alt };
  };
  const events: PlatformEvent[] = [];
  const removals: PlatformEvent[] = [];
  const removed = (type: 'goods.removed' | 'cabinet.removed' | 'note.removed', id: string) =>
    removals.push({ type, data: { id, version: REMOVED_VERSION } });

  for (const user of DEMO_USERS) {
    const blocked = DEMO_DELETION_BLOCKER.user === user.key;
    events.push({
      type: 'user.upserted',
      data: {
        id: userId(user.key),
        version: FIRST_VERSION,
        nickname: user.nickname,
        avatar: user.avatar ? image(user.avatar) : null,
        phone: `+86${DEMO_PHONES[user.key]}`,
        points: demoPointsBalance(user.key),
        deletionBlockers: blocked
          ? [
              {
                kind: DEMO_DELETION_BLOCKER.kind,
                title: DEMO_DELETION_BLOCKER.title,
                since: daysAgo(DEMO_DELETION_BLOCKER.sinceDaysAgo),
              },
            ]
          : [],
      },
    });
  }

  for (const goods of DEMO_GOODS) {
    const id = goodsId(goods.key);
    events.push({
      type: 'goods.upserted',
      data: {
        id,
        version: FIRST_VERSION,
        ownerId: userId(goods.owner),
        name: goods.name,
        work: goods.work,
        character: goods.character,
        category: goods.category,
        priceFen: goods.priceFen,
        status: goods.status,
        visibility: goods.visibility,
        images: goods.images.map(image),
        likes: goods.likes,
        wants: goods.wants,
        text: goods.text,
        tags: [...goods.tags],
        createdAt: daysAgo(goods.daysAgo),
      },
    });
    if (goods.removed) removed('goods.removed', id);
  }

  for (const cabinet of DEMO_CABINETS) {
    const id = cabinetId(cabinet);
    events.push({
      type: 'cabinet.upserted',
      data: {
        id,
        version: FIRST_VERSION,
        ownerId: userId(cabinet.owner),
        name: cabinet.name,
        cover: image(cabinet.cover),
        goodsIds: cabinet.goods.map(goodsId),
        text: cabinet.text,
        likes: cabinet.likes,
        visibility: cabinet.visibility,
        createdAt: daysAgo(cabinet.daysAgo),
      },
    });
    if (cabinet.removed) removed('cabinet.removed', id);
  }

  for (const note of DEMO_NOTES) {
    const id = noteId(note);
    events.push({
      type: 'note.upserted',
      data: {
        id,
        version: FIRST_VERSION,
        authorId: userId(note.author),
        title: note.title,
        text: note.text,
        images: note.images.map(image),
        tags: [...note.tags],
        likes: note.likes,
        collects: note.collects,
        comments: note.comments.filter((comment) => comment.removed !== true).length,
        topComments: topComments(note.comments, note.daysAgo, id),
        visibility: note.visibility,
        createdAt: daysAgo(note.daysAgo),
      },
    });
    if (note.removed) removed('note.removed', id);
  }

  for (const design of DEMO_DESIGNS) {
    events.push({
      type: 'design.upserted',
      data: {
        id: design.publicId,
        version: FIRST_VERSION,
        designerId: userId(design.designer),
        title: design.title,
        preview: image(design.preview),
        pricePoints: design.pricePoints,
        available: !design.retired,
        file: design.file,
        use: design.use,
      },
    });
  }

  return [...events, ...removals];
}

/**
 * The demo community in the deliveries it is sent in, one after the other: the upserts, then the
 * removals, as the platform sends a removal after the item it removes (a removal arriving in the
 * same delivery as its item's first version leaves only the tombstone, and the item answers 404,
 * not 410).
 */
export function demoCommunityDeliveries(options: DemoCommunityOptions): PlatformEvent[][] {
  const events = demoCommunityEvents(options);
  const removal = (event: PlatformEvent) => event.type.endsWith('.removed');
  return [events.filter((event) => !removal(event)), events.filter(removal)];
}
