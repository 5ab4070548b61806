import { z } from 'zod';
import { publicIdSchema } from './share.ts';
import { SHARE_KINDS } from './share-paths.ts';
import {
  FUNNEL_DAY_PATTERN,
  FUNNEL_EVENTS,
  MAX_BEACON_EVENTS,
  PAGE_EVENTS,
  SHARE_CHANNELS,
  type PageEventReport,
} from './funnel-events.ts';

/**
 * The share funnel's schemas: the beacon a share page sends (checked by the server only: pages
 * build it from the plain types of funnel-events.ts), and the operators' `/api/funnel` answer.
 */

const shareKindSchema = z.enum(SHARE_KINDS);

export const pageEventReportSchema = z.strictObject({
  event: z.enum(PAGE_EVENTS),
  kind: shareKindSchema,
  id: publicIdSchema,
}) satisfies z.ZodType<PageEventReport>;

/** The body of `POST /api/v1/events`: a few events from one page. */
export const funnelBeaconSchema = z.strictObject({
  events: z.array(pageEventReportSchema).min(1).max(MAX_BEACON_EVENTS),
});
export type FunnelBeacon = z.infer<typeof funnelBeaconSchema>;

export const funnelDaySchema = z
  .string()
  .regex(FUNNEL_DAY_PATTERN, 'must be a day as YYYY-MM-DD')
  .refine(
    (day) =>
      !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) &&
      new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
    'must be a real day',
  );

/** The operators' `GET /api/funnel` query: a range of days, for everything or one item. */
export const funnelQuerySchema = z
  .strictObject({
    from: funnelDaySchema,
    to: funnelDaySchema,
    kind: shareKindSchema.optional(),
    id: publicIdSchema.optional(),
  })
  .refine((query) => query.from <= query.to, {
    message: 'from must not be after to',
    path: ['from'],
  })
  .refine((query) => (query.kind === undefined) === (query.id === undefined), {
    message: 'kind and id go together',
    path: ['id'],
  });
export type FunnelQuery = z.infer<typeof funnelQuerySchema>;

const eventCountsSchema = z.record(z.enum(FUNNEL_EVENTS), z.number().int().nonnegative());
export type EventCounts = z.infer<typeof eventCountsSchema>;

export const funnelResponseSchema = z.object({
  totals: eventCountsSchema,
  days: z.array(z.object({ day: z.string(), counts: eventCountsSchema })),
});
export type FunnelResponse = z.infer<typeof funnelResponseSchema>;

export const shareChannelSchema = z.enum(SHARE_CHANNELS);
