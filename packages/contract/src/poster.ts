import { z } from 'zod';
import { shareApiPath, type ShareKind } from './share-paths.ts';
import { PICTURES_PATH } from './share-pictures.ts';

/**
 * Where a share page asks for its poster (the 分享海报 action): the address of the current
 * version, which only the server can name (the QR code holds the item's Universal Link, a server
 * setting). `?lang=` picks the poster's language. `:id` for the route.
 */
export function posterApiPath(kind: ShareKind, id = ':id'): string {
  return `${shareApiPath(kind, id)}/poster`;
}

export const posterSchema = z.object({
  /** The poster's address under the base path: its version is in it, so it never changes. */
  url: z.string().startsWith(`${PICTURES_PATH}/`),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** What the poster shows, for screen readers. */
  alt: z.string().min(1),
});
export type Poster = z.infer<typeof posterSchema>;
