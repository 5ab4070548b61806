import { z } from 'zod';
import { deletionBlockerKindSchema } from './account-deletion.ts';
import { designFileSchema, designUseSchema } from './design.ts';
import { GOODS_STATUSES, publicIdSchema, TOP_COMMENTS_LIMIT } from './share.ts';
import { API_BASE_PATH } from './site-paths.ts';

/**
 * The events the platform sends the site (PRODUCT.md, "The app's platform", "Events in"): one
 * schema per type, for the server that applies them and, as JSON Schema, for the platform team
 * (docs/platform.md). Limits fit the site's tables. Fields the site does not know are ignored, so
 * the platform may add one before the site reads it; what the site does with a type it does not
 * know is in docs/decisions/0021-platform-events-in.md (ignored, and counted).
 */

export const PLATFORM_EVENTS_PATH = `${API_BASE_PATH}/platform/events`;

/** Events in one delivery: at least one, at most this many. */
export const PLATFORM_EVENTS_PER_DELIVERY = 500;
/** A delivery's body, in bytes, at most. */
export const PLATFORM_DELIVERY_MAX_BYTES = 5 * 1024 * 1024;

export const PLATFORM_EVENT_TYPES = [
  'user.upserted',
  'goods.upserted',
  'cabinet.upserted',
  'note.upserted',
  'design.upserted',
  'goods.removed',
  'cabinet.removed',
  'note.removed',
  'design.removed',
  'user.deleted',
] as const;
export type PlatformEventType = (typeof PLATFORM_EVENT_TYPES)[number];

/**
 * The site's integer columns are 32-bit on PostgreSQL: counts and points stay below that, in the
 * platform's events and in its answers to debits (points-debits.ts).
 */
export const INT32_MAX = 2_147_483_647;
const count = z.number().int().nonnegative().max(INT32_MAX);
/** ISO 8601 with its time zone, e.g. 2025-11-02T08:30:00.000Z. */
const timestamp = z.iso.datetime({ offset: true });
const tag = z.string().min(1).max(30);
const tags = z.array(tag).max(20);
const visibility = z.enum(['public', 'private']);
/** E.164: a plus, the country code, at most 15 digits in all. */
const phone = z
  .string()
  .regex(/^\+[1-9]\d{1,14}$/, 'must be a phone number in E.164 (+8613800138000)');

/** Raised by the platform with each change of an entity; an event not above the stored one is ignored. */
export const platformVersionSchema = z.number().int().nonnegative();

/** An image on one of the platform's media origins (PLATFORM_MEDIA_ORIGINS). */
export const platformImageSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  /** Of the original, in pixels: the page keeps its space while the file is fetched. */
  width: z.number().int().positive().max(20_000),
  height: z.number().int().positive().max(20_000),
  /** A short description for screen readers, or '' for a decorative image. */
  alt: z.string().max(200),
});
export type PlatformImage = z.infer<typeof platformImageSchema>;

const entity = { id: publicIdSchema, version: platformVersionSchema };

export const platformDeletionBlockerSchema = z.object({
  kind: deletionBlockerKindSchema,
  /** The case as the user knows it, e.g. the exposure's title. */
  title: z.string().min(1).max(100),
  since: timestamp,
});

export const userUpsertedSchema = z.object({
  ...entity,
  nickname: z.string().min(1).max(40),
  avatar: platformImageSchema.nullable(),
  /** Where the deletion code is sent; null when the account has none bound. */
  phone: phone.nullable(),
  /** The points balance. */
  points: count,
  /** What stops the account's deletion now; an empty list when nothing does. */
  deletionBlockers: z.array(platformDeletionBlockerSchema).max(50),
});

export const goodsUpsertedSchema = z.object({
  ...entity,
  ownerId: publicIdSchema,
  name: z.string().min(1).max(100),
  work: z.string().min(1).max(60),
  character: z.string().max(60).nullable(),
  category: z.string().min(1).max(30),
  /** In fen (1/100 yuan); null where the owner set none. */
  priceFen: count.nullable(),
  status: z.enum(GOODS_STATUSES),
  visibility,
  images: z.array(platformImageSchema).min(1).max(20),
  likes: count,
  wants: count,
  text: z.string().max(5000),
  tags,
  createdAt: timestamp,
});

export const cabinetUpsertedSchema = z.object({
  ...entity,
  ownerId: publicIdSchema,
  name: z.string().min(1).max(60),
  cover: platformImageSchema,
  /** The goods in it, in order; a goods listed twice counts once (its first place). */
  goodsIds: z.array(publicIdSchema).max(1000),
  text: z.string().max(2000),
  likes: count,
  visibility,
  createdAt: timestamp,
});

export const platformCommentSchema = z.object({
  id: publicIdSchema,
  authorId: publicIdSchema,
  text: z.string().min(1).max(1000),
  likes: count,
  createdAt: timestamp,
});

export const noteUpsertedSchema = z.object({
  ...entity,
  authorId: publicIdSchema,
  title: z.string().min(1).max(100),
  text: z.string().max(10000),
  images: z.array(platformImageSchema).max(20),
  tags,
  likes: count,
  collects: count,
  /** How many comments the note has in all. */
  comments: count,
  /** The ones the share page shows. */
  topComments: z.array(platformCommentSchema).max(TOP_COMMENTS_LIMIT),
  visibility,
  createdAt: timestamp,
});

export const designUpsertedSchema = z.object({
  ...entity,
  designerId: publicIdSchema,
  title: z.string().min(1).max(60),
  /** Watermarked: the full drawing is only ever in the app. */
  preview: platformImageSchema,
  pricePoints: count.positive(),
  /** False once retired: nobody can redeem it any more. */
  available: z.boolean(),
  /** The file a redemption gives (format, pixels, bytes); the redeem page says it before. */
  file: designFileSchema.optional(),
  /** The use the designer allows: `personal`, `non_commercial` or `commercial`. */
  use: designUseSchema.optional(),
});

/** A removal (410 from then on) or a deleted account: the id and version only. */
export const platformRemovalSchema = z.object(entity);

/** Each type's `data`. */
export const platformEventDataSchemas = {
  'user.upserted': userUpsertedSchema,
  'goods.upserted': goodsUpsertedSchema,
  'cabinet.upserted': cabinetUpsertedSchema,
  'note.upserted': noteUpsertedSchema,
  'design.upserted': designUpsertedSchema,
  'goods.removed': platformRemovalSchema,
  'cabinet.removed': platformRemovalSchema,
  'note.removed': platformRemovalSchema,
  'design.removed': platformRemovalSchema,
  'user.deleted': platformRemovalSchema,
} as const satisfies Record<PlatformEventType, z.ZodType>;

function eventOf<T extends PlatformEventType>(type: T) {
  return z.object({ type: z.literal(type), data: platformEventDataSchemas[type] });
}

export const platformEventSchema = z.discriminatedUnion('type', [
  eventOf('user.upserted'),
  eventOf('goods.upserted'),
  eventOf('cabinet.upserted'),
  eventOf('note.upserted'),
  eventOf('design.upserted'),
  eventOf('goods.removed'),
  eventOf('cabinet.removed'),
  eventOf('note.removed'),
  eventOf('design.removed'),
  eventOf('user.deleted'),
]);
export type PlatformEvent = z.infer<typeof platformEventSchema>;
export type PlatformEventOf<T extends PlatformEventType> = Extract<PlatformEvent, { type: T }>;

/** The body of a delivery: `{ "events": [ … ] }`, 1 to 500 events. */
export const platformDeliverySchema = z.object({
  events: z.array(platformEventSchema).min(1).max(PLATFORM_EVENTS_PER_DELIVERY),
});
export type PlatformDelivery = z.infer<typeof platformDeliverySchema>;

/**
 * Why an event changed nothing (docs/platform.md, "What the site answers"): its version is not
 * above the stored one, its type is unknown, or it is of a deleted account, or names one as an
 * item's owner, author or designer (a deleted account never comes back).
 */
export const platformIgnoredCountsSchema = z.object({
  not_newer: count,
  unknown_type: count,
  account_deleted: count,
});
export type PlatformIgnoredCounts = z.infer<typeof platformIgnoredCountsSchema>;
export type PlatformIgnoredReason = keyof PlatformIgnoredCounts;

/**
 * What a delivery applied is answered with (and a repeat of it, with the same figures):
 * `applied` events changed what the site shows, `waiting` ones are kept until what they name
 * arrives (their pages show what they showed before), `ignored` ones changed nothing, counted by
 * reason in `ignoredBecause`. A delivery recorded before the last two existed is repeated without
 * them.
 */
export const platformDeliveryResultSchema = z.object({
  applied: count,
  ignored: count,
  waiting: count.optional(),
  ignoredBecause: platformIgnoredCountsSchema.optional(),
});
export type PlatformDeliveryResult = z.infer<typeof platformDeliveryResultSchema>;

/**
 * The JSON Schemas the platform team reads (docs/platform.md): the delivery, and each type's
 * `data`, made from the zod schemas above so they cannot differ from what the site checks.
 */
export function platformEventJsonSchemas(): {
  delivery: z.core.JSONSchema.BaseSchema;
  data: Record<PlatformEventType, z.core.JSONSchema.BaseSchema>;
} {
  const data: Partial<Record<PlatformEventType, z.core.JSONSchema.BaseSchema>> = {};
  for (const type of PLATFORM_EVENT_TYPES) {
    data[type] = z.toJSONSchema(platformEventDataSchemas[type], { io: 'input' });
  }
  return {
    delivery: z.toJSONSchema(platformDeliverySchema, { io: 'input' }),
    data: data as Record<PlatformEventType, z.core.JSONSchema.BaseSchema>,
  };
}
