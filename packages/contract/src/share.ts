import { z } from 'zod';
import { PUBLIC_ID_PATTERN, type ShareFailure, type ShareKind } from './share-paths.ts';

/**
 * What the share pages show (PRODUCT.md "Share pages"), checked by the server before it answers
 * and by the web app when it reads an answer. One schema per thing, for both ends.
 */

export const publicIdSchema = z.string().regex(PUBLIC_ID_PATTERN);

export const imageSchema = z.object({
  id: publicIdSchema,
  /** Of the original, in pixels: lets the page reserve the space before the image arrives. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** A short description for screen readers, or '' for a decorative image. */
  alt: z.string().max(200),
  /**
   * Present while the file is not here (still being fetched from the platform's media hosts, or
   * refused): the page shows the placeholder at the image's size, never a broken image. Absent
   * once it is (and in answers of servers from before it), so a ready image reads as before.
   */
  missing: z.literal(true).optional(),
});
export type Image = z.infer<typeof imageSchema>;

export const userSummarySchema = z.object({
  id: publicIdSchema,
  nickname: z.string().min(1).max(40),
  avatar: imageSchema.nullable(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** 展示 (only on show), 出 (for sale or swap), 收 (wanted). */
export const GOODS_STATUSES = ['display', 'selling', 'wanted'] as const;
export const goodsStatusSchema = z.enum(GOODS_STATUSES);
export type GoodsStatus = z.infer<typeof goodsStatusSchema>;

const count = z.number().int().nonnegative();
const tag = z.string().min(1).max(30);
/** ISO 8601 with the time zone, e.g. 2025-11-02T08:30:00.000Z. */
const timestamp = z.iso.datetime({ offset: true });

export const goodsSchema = z.object({
  id: publicIdSchema,
  name: z.string().min(1).max(100),
  /** The work (IP) the goods come from, e.g. 咒术回战. */
  work: z.string().min(1).max(60),
  character: z.string().max(60).nullable(),
  /** e.g. 吧唧 (badge), 立牌 (acrylic stand), 色纸. */
  category: z.string().min(1).max(30),
  /** In fen (1/100 yuan); null where the owner set none. */
  priceFen: z.number().int().nonnegative().nullable(),
  status: goodsStatusSchema,
  owner: userSummarySchema,
  images: z.array(imageSchema).min(1).max(20),
  likes: count,
  wants: count,
  text: z.string().max(5000),
  tags: z.array(tag).max(20),
  createdAt: timestamp,
});
export type Goods = z.infer<typeof goodsSchema>;

/** A goods as a cabinet lists it: enough for a tile that links to its share page. */
export const goodsCardSchema = goodsSchema.pick({
  id: true,
  name: true,
  work: true,
  status: true,
});
export const cabinetItemSchema = goodsCardSchema.extend({
  cover: imageSchema,
  /**
   * As the goods' own (null: none set): its tile shows it when the goods is for sale. Absent in
   * answers of servers from before it, which read as no price.
   */
  priceFen: goodsSchema.shape.priceFen.optional(),
});
export type CabinetItem = z.infer<typeof cabinetItemSchema>;

export const cabinetSchema = z.object({
  id: publicIdSchema,
  name: z.string().min(1).max(60),
  cover: imageSchema,
  owner: userSummarySchema,
  /** All goods in the cabinet, public ones or not; `items` lists only the public ones. */
  itemCount: count,
  items: z.array(cabinetItemSchema).max(200),
  text: z.string().max(2000),
  likes: count,
  createdAt: timestamp,
});
export type Cabinet = z.infer<typeof cabinetSchema>;

export const commentSchema = z.object({
  id: publicIdSchema,
  author: userSummarySchema,
  text: z.string().min(1).max(1000),
  likes: count,
  createdAt: timestamp,
});
export type Comment = z.infer<typeof commentSchema>;

/** At most this many comments come with a note: the rest are in the app. */
export const TOP_COMMENTS_LIMIT = 3;

export const noteSchema = z.object({
  id: publicIdSchema,
  title: z.string().min(1).max(100),
  /** Plain text as the author wrote it: line breaks, #tags, @mentions and URLs included. */
  text: z.string().max(10000),
  author: userSummarySchema,
  images: z.array(imageSchema).max(20),
  tags: z.array(tag).max(20),
  likes: count,
  collects: count,
  comments: count,
  topComments: z.array(commentSchema).max(TOP_COMMENTS_LIMIT),
  createdAt: timestamp,
});
export type Note = z.infer<typeof noteSchema>;

export interface ShareItems {
  goods: Goods;
  cabinet: Cabinet;
  note: Note;
}

export const shareSchemas = {
  goods: goodsSchema,
  cabinet: cabinetSchema,
  note: noteSchema,
} as const satisfies Record<ShareKind, z.ZodType>;

/** What reading a share gives: the item, or why not. */
export type ShareResult<K extends ShareKind> =
  { readonly state: 'ok'; readonly item: ShareItems[K] } | { readonly state: ShareFailure };
