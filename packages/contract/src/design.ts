import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';
import { imageSchema, publicIdSchema, userSummarySchema } from './share.ts';

/**
 * Redeeming a design drawing with points (PRODUCT.md "Redeem a design drawing"). Points are
 * earned in the app, never bought (App Store rule 3.1.1). Both endpoints need a session.
 */

/** Points are whole numbers; a price is never 0 (a free drawing is not redeemed). */
const points = z.number().int().nonnegative();
const timestamp = z.iso.datetime({ offset: true });

/**
 * The key a page sends with one redemption attempt (`Idempotency-Key` header): a UUID, made once
 * per attempt and sent again unchanged with every retry of that attempt.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z.uuid();

/** The drawing's file the redeemer gets (without the preview's watermark). */
export const DESIGN_FILE_FORMATS = ['png', 'jpg', 'psd', 'pdf'] as const;
export const designFileSchema = z.object({
  format: z.enum(DESIGN_FILE_FORMATS),
  /** In pixels. */
  width: z.number().int().positive().max(100_000),
  height: z.number().int().positive().max(100_000),
  /** The file's size. */
  bytes: z.number().int().positive().max(2_147_483_647),
});
export type DesignFile = z.infer<typeof designFileSchema>;
export type DesignFileFormat = DesignFile['format'];

/**
 * What a redeemer may do with the drawing, as its designer allows: `personal` (for oneself: print
 * it, a wallpaper, goods made for oneself; never sold or shared on), `non_commercial` (also given
 * away, free, e.g. as 无料; never sold), `commercial` (also goods made to sell).
 */
export const DESIGN_USES = ['personal', 'non_commercial', 'commercial'] as const;
export const designUseSchema = z.enum(DESIGN_USES);
export type DesignUse = z.infer<typeof designUseSchema>;

export const designSchema = z.object({
  id: publicIdSchema,
  title: z.string().min(1).max(60),
  designer: userSummarySchema,
  /** Watermarked; null once the design is retired (its preview is no longer served). */
  preview: imageSchema.nullable(),
  pricePoints: points.positive(),
  /** False once retired: nobody can redeem it any more (who has it keeps it). */
  available: z.boolean(),
  /** The file a redemption gives; null when the platform has not said. */
  file: designFileSchema.nullable(),
  /** The use allowed; null when the platform has not said. */
  use: designUseSchema.nullable(),
});
export type Design = z.infer<typeof designSchema>;

/**
 * Where a redemption stands (docs/decisions/0026-points-debits.md): `pending` while the platform,
 * which keeps the balances, has not answered its debit (the site asks again until it does);
 * `redeemed` once it has charged it. A refused one (too few points) is no redemption: the API
 * answers 409 insufficient_points and the user may try again later.
 */
export const REDEMPTION_STATES = ['pending', 'redeemed'] as const;
export type RedemptionState = (typeof REDEMPTION_STATES)[number];

export const redemptionSchema = z.object({
  id: publicIdSchema,
  designId: publicIdSchema,
  pricePoints: points.positive(),
  state: z.enum(REDEMPTION_STATES),
  /** When the user asked. */
  requestedAt: timestamp,
  /** When the platform charged it; null while pending. */
  redeemedAt: timestamp.nullable(),
});
export type Redemption = z.infer<typeof redemptionSchema>;

/** GET /designs/:designId: the design, and where the logged-in user stands with it. */
export const designViewSchema = z.object({
  design: designSchema,
  viewer: z.object({
    /** The user's points now. */
    balance: points,
    /** The user's redemption of this design, or null. */
    redemption: redemptionSchema.nullable(),
    /** The user drew it: a designer does not redeem their own design. */
    ownDesign: z.boolean(),
  }),
});
export type DesignView = z.infer<typeof designViewSchema>;

/**
 * POST /designs/:designId/redemptions: 201 the first time, 200 with the same body when the same
 * key comes again, 202 while the redemption is pending (the platform has not answered within the
 * 1.5 s the server waits, or at all: GET the design again to see it complete). `balanceAfter` is
 * the balance the platform answered to this redemption's debit; null while pending.
 */
export const redemptionResultSchema = z.object({
  redemption: redemptionSchema,
  balanceAfter: points.nullable(),
});
export type RedemptionResult = z.infer<typeof redemptionResultSchema>;

/** The refusals of a redemption: HTTP status per API error code. */
export const REDEMPTION_FAILURES = {
  /** A missing or malformed design id. */
  invalid_id: 400,
  /** A missing or malformed Idempotency-Key. */
  invalid_idempotency_key: 400,
  unauthorized: 401,
  not_found: 404,
  /** The user has this design already (through another attempt). */
  already_redeemed: 409,
  insufficient_points: 409,
  /** The user is the design's designer. */
  own_design: 409,
  /** The design was retired. */
  unavailable: 410,
  /** The key was used before for another design. */
  idempotency_key_reused: 422,
  too_many_requests: 429,
} as const;
export type RedemptionFailure = keyof typeof REDEMPTION_FAILURES;

/** The API paths, e.g. /anime_merch_web/api/v1/designs/AbCd…; `:designId` for the routes. */
export function designApiPath(designId = ':designId'): string {
  return `${API_BASE_PATH}/designs/${designId}`;
}

/**
 * What anybody may read of a design, without a session: what the redeem page shows before the
 * log-in (its title, preview and price), so a logged-out user sees what they would redeem.
 */
export function designPreviewApiPath(designId = ':designId'): string {
  return `${designApiPath(designId)}/preview`;
}

/** GET /designs/:designId/preview: the design alone (nobody's points or redemption). */
export const designPreviewSchema = z.object({ design: designSchema });
export type DesignPreview = z.infer<typeof designPreviewSchema>;

export function redemptionsApiPath(designId = ':designId'): string {
  return `${designApiPath(designId)}/redemptions`;
}

/** The app screen that explains how points are earned (bridge `openAppRoute`). */
export const EARN_POINTS_APP_ROUTE = 'points/earn';

/** The app's list of designs to redeem (bridge `openAppRoute`): where a retired one leads. */
export const DESIGNS_APP_ROUTE = 'designs';

/** The app screen that shows a redeemed drawing (bridge `openAppRoute`). */
export function designAppRoute(designId: string): string {
  return `design/${designId}`;
}
