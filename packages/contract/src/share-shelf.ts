import { z } from 'zod';
import { goodsSchema, imageSchema } from './share.ts';
import { SHELF_SIZE } from './share-paths.ts';

/**
 * "More from this work": the shelf at the end of a goods page and of every page that cannot show
 * its item (PRODUCT.md "Share pages"). Public goods only, never the item itself, newest first.
 */

/** A goods as a shelf tile shows it: its first image, name, and the price when for sale. */
export const shelfGoodsSchema = goodsSchema
  .pick({ id: true, name: true, work: true, status: true, priceFen: true })
  .extend({ cover: imageSchema });
export type ShelfGoods = z.infer<typeof shelfGoodsSchema>;

export const workShelfSchema = z.object({
  /**
   * The work (IP) the goods are of: the item's own. Null when the site does not know one it may
   * name (a private item, an unknown or malformed id, a cabinet or note) or the work has no other
   * public goods: then the shelf holds the newest public goods of any work.
   */
  work: z.string().min(1).max(60).nullable(),
  goods: z.array(shelfGoodsSchema).max(SHELF_SIZE),
});
export type WorkShelf = z.infer<typeof workShelfSchema>;
