import { imageSrcSet } from '@guquan/contract/share-paths';

/**
 * Where a share's image is drawn: the `sizes` the browser picks a width with, and the widest the
 * slot ever gets in CSS pixels (none for a full-screen, zoomable image).
 */
export interface ImageSlot {
  readonly sizes: string;
  readonly widest?: number;
}

/**
 * The sharpest a bounded slot is served: twice its CSS size. Past that a phone's screen shows no
 * difference at arm's length, while the bytes and the decoding grow with the square of the
 * density (a 1280 px cover instead of 960 px at 2.6×).
 */
export const MAX_DENSITY = 2;

/**
 * The page's first (largest) image: the phone column's width, which stops growing at 414 px; from
 * 1024 px the gallery's column beside the details (views/share-view.module.css), about half the screen
 * and at most 600 px. Its srcset stays that of a phone (960 px at most): a desktop screen at 1×,
 * where 600 px is drawn from 640 or 960, needs no more, and a phone at 3× never gets 1280.
 */
export const HERO_SLOT: ImageSlot = {
  sizes: '(min-width: 1200px) 600px, (min-width: 1024px) 50vw, (min-width: 414px) 414px, 100vw',
  widest: 414,
};
/**
 * Three tiles a row in the column (at most 414 px wide, 16 px margins, 8 px gaps); from 1024 px
 * as many as fit, each 128 px and a little more (goods-tile.module.css): at most 160 px here.
 */
export const TILE_SLOT: ImageSlot = {
  sizes: '(min-width: 1024px) 160px, (min-width: 414px) 127px, calc((100vw - 48px) / 3)',
  widest: 160,
};
export const AVATAR_SLOT: ImageSlot = { sizes: '40px', widest: 40 };
/** The full-screen viewer, where a visitor zooms in: every width the image has. */
export const FULL_SCREEN_SLOT: ImageSlot = { sizes: '100vw' };

/** The srcset for `image` in `slot`: no wider than the slot needs at MAX_DENSITY. */
export function slotSrcSet(image: { id: string; width: number }, slot: ImageSlot): string {
  return imageSrcSet(image, slot.widest === undefined ? Infinity : slot.widest * MAX_DENSITY);
}
