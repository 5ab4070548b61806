import { z } from 'zod';
import { publicIdSchema } from './share.ts';

/**
 * The events the site sends the platform (PRODUCT.md, "The app's platform", "Events out"): what
 * happened on the site's pages that the platform must know. Delivered to PLATFORM_EVENTS_URL,
 * signed by Standard Webhooks with PLATFORM_EVENTS_SECRET, as `{ "events": [ … ] }`; each event
 * is `{ "type", "data" }` like the events in. In order per user, at least once: a retry keeps its
 * `webhook-id`, but a failed delivery of several users is split, each user's events going again
 * under a new one (docs/platform.md, "Events out"). The JSON Schemas below are docs/platform.md's.
 */

/** Events in one delivery, at most. */
export const PLATFORM_EVENTS_OUT_PER_DELIVERY = 100;

export const PLATFORM_EVENT_OUT_TYPES = [
  'membership.changed',
  'account.deletion_requested',
  'account.deletion_withdrawn',
  'account.deleted',
] as const;
export type PlatformEventOutType = (typeof PLATFORM_EVENT_OUT_TYPES)[number];

const timestamp = z.iso.datetime({ offset: true });

/**
 * The membership as it is after a grant, renewal, plan change, expiry, refund or revocation:
 * `plan` the App Store product it is (null when none is left), `expiresAt` when it ends (null
 * likewise), `autoRenew` whether it renews (null when not known). `version` rises with each
 * event of the user: keep the highest.
 */
export const membershipChangedSchema = z.object({
  userId: publicIdSchema,
  plan: z.string().min(1).max(100).nullable(),
  expiresAt: timestamp.nullable(),
  autoRenew: z.boolean().nullable(),
  version: z.number().int().positive(),
});

/** The user confirmed the deletion of the account; it is deleted at `deleteAfter` unless withdrawn. */
export const accountDeletionRequestedSchema = z.object({
  userId: publicIdSchema,
  confirmedAt: timestamp,
  deleteAfter: timestamp,
});

/** The request was withdrawn: by the user on the page, or by logging in again (privacy policy 11.5). */
export const accountDeletionWithdrawnSchema = z.object({
  userId: publicIdSchema,
  why: z.enum(['user', 'logged_in']),
});

/** The site has deleted the account: the platform deletes its own data of it. */
export const accountDeletedSchema = z.object({
  userId: publicIdSchema,
  deletedAt: timestamp,
});

/** Each type's `data`. */
export const platformEventOutDataSchemas = {
  'membership.changed': membershipChangedSchema,
  'account.deletion_requested': accountDeletionRequestedSchema,
  'account.deletion_withdrawn': accountDeletionWithdrawnSchema,
  'account.deleted': accountDeletedSchema,
} as const satisfies Record<PlatformEventOutType, z.ZodType>;

function eventOf<T extends PlatformEventOutType>(type: T) {
  return z.object({ type: z.literal(type), data: platformEventOutDataSchemas[type] });
}

export const platformEventOutSchema = z.discriminatedUnion('type', [
  eventOf('membership.changed'),
  eventOf('account.deletion_requested'),
  eventOf('account.deletion_withdrawn'),
  eventOf('account.deleted'),
]);
export type PlatformEventOut = z.infer<typeof platformEventOutSchema>;

/** The body of a delivery to the platform: `{ "events": [ … ] }`, 1 to 100 events. */
export const platformEventsOutDeliverySchema = z.object({
  events: z.array(platformEventOutSchema).min(1).max(PLATFORM_EVENTS_OUT_PER_DELIVERY),
});
export type PlatformEventsOutDelivery = z.infer<typeof platformEventsOutDeliverySchema>;

/** The JSON Schemas of the delivery and of each type's `data` (docs/platform.md). */
export function platformEventOutJsonSchemas(): {
  delivery: z.core.JSONSchema.BaseSchema;
  data: Record<PlatformEventOutType, z.core.JSONSchema.BaseSchema>;
} {
  const data: Partial<Record<PlatformEventOutType, z.core.JSONSchema.BaseSchema>> = {};
  for (const type of PLATFORM_EVENT_OUT_TYPES) {
    data[type] = z.toJSONSchema(platformEventOutDataSchemas[type], { io: 'output' });
  }
  return {
    delivery: z.toJSONSchema(platformEventsOutDeliverySchema, { io: 'output' }),
    data: data as Record<PlatformEventOutType, z.core.JSONSchema.BaseSchema>,
  };
}
