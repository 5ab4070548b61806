import { z } from 'zod';
import { HANDOFF_CODE_PATTERN, MAX_IMAGE_INDEX } from './app-link-paths.ts';
import { publicIdSchema } from './share.ts';
import { SHARE_KINDS } from './share-paths.ts';

/**
 * The handoff API (docs/decisions/0017-app-links-and-handoffs.md): a share page mints a code for the item a visitor heads to the
 * store from; the app, on its first launch, claims the code it found on the clipboard.
 */

export const appTargetSchema = z.object({
  kind: z.enum(SHARE_KINDS),
  id: publicIdSchema,
  /** Kinds that open at an image only (opensAtImage: goods): the one being viewed, from 0. */
  image: z.number().int().min(0).max(MAX_IMAGE_INDEX).optional(),
});
export type AppTargetBody = z.infer<typeof appTargetSchema>;

export const mintHandoffRequestSchema = z.object({ target: appTargetSchema });
export type MintHandoffRequest = z.infer<typeof mintHandoffRequestSchema>;

export const handoffCodeSchema = z.string().regex(HANDOFF_CODE_PATTERN);

export const mintedHandoffSchema = z.object({
  code: handoffCodeSchema,
  /** The item's Universal Link, for the share text. */
  link: z.url({ protocol: /^https?$/ }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type MintedHandoff = z.infer<typeof mintedHandoffSchema>;

export const claimHandoffRequestSchema = z.object({
  /** As found between the ￥ signs; lower case is accepted (some keyboards change case). */
  code: z
    .string()
    .max(40)
    .transform((value) => value.trim().toUpperCase())
    .pipe(handoffCodeSchema),
  /**
   * A random id the app made at its installation (a UUID): the same install claiming again counts
   * once. Never stored as it is (docs/decisions/0017-app-links-and-handoffs.md).
   */
  installId: z
    .string()
    .min(16)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/),
});
export type ClaimHandoffRequest = z.input<typeof claimHandoffRequestSchema>;

export const claimedHandoffSchema = z.object({
  target: appTargetSchema,
  /** Where the app opens, in its own path form: `goods/<id>?image=2`. */
  appPath: z.string(),
});
export type ClaimedHandoff = z.infer<typeof claimedHandoffSchema>;
