import { z } from 'zod';
import { INT32_MAX } from './platform-events.ts';
import { publicIdSchema } from './share.ts';

/**
 * Spending points through the platform (PRODUCT.md, "The app's platform", Points): the site asks
 * `POST {PLATFORM_API_URL}/v1/points/debits` with its service token and the redemption's public
 * id as `Idempotency-Key`; the platform keeps the balances and charges a key once. The stand-in
 * platform's ledger answers with these schemas too
 * (apps/server/src/stand-in/points-ledger-routes.ts).
 */
export const POINTS_DEBITS_PATH = '/v1/points/debits';

/** The header that names the debit: the redemption's public id, the same at every retry. */
export const DEBIT_IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const pointsDebitRequestSchema = z
  .object({
    /** The platform's id of the user who spends. */
    userId: publicIdSchema,
    points: z.number().int().positive().max(INT32_MAX),
    reason: z
      .object({
        kind: z.literal('design_redemption'),
        designId: publicIdSchema,
        /** The redemption's public id (the Idempotency-Key). */
        redemptionId: publicIdSchema,
      })
      .strict(),
  })
  .strict();
export type PointsDebitRequest = z.infer<typeof pointsDebitRequestSchema>;

/**
 * 200 or 201: charged (or charged before under this key), with the balance after it: at most
 * 2^31 − 1, as `points` in `user.upserted` (the site's balance columns are 32-bit on
 * PostgreSQL). A larger one is an answer the contract refuses: the redemption stays pending
 * (docs/decisions/0026-points-debits.md).
 */
export const pointsDebitAnswerSchema = z.object({
  debitId: z.string().min(1).max(100),
  balance: z.number().int().nonnegative().max(INT32_MAX),
});
export type PointsDebitAnswer = z.infer<typeof pointsDebitAnswerSchema>;

/** 409: too few points; nothing was charged. */
export const insufficientPointsAnswerSchema = z.object({
  error: z.object({ code: z.literal('insufficient_points'), message: z.string().optional() }),
});
