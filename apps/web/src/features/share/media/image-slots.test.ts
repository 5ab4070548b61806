import { describe, expect, it } from 'vitest';
import { AVATAR_SLOT, FULL_SCREEN_SLOT, HERO_SLOT, TILE_SLOT, slotSrcSet } from './image-slots';

const widths = (srcset: string) =>
  srcset.split(', ').map((candidate) => candidate.replace(/^.*\/(\d+)\.webp (\d+)w$/, '$1:$2'));

const large = { id: 'largeAAAAAAAAAA1', width: 1280 };

describe('slotSrcSet', () => {
  it('stops at twice the widest a bounded slot is drawn', () => {
    // 414 px × 2 = 828: 960 is the first width that covers it; 1280 is never offered.
    expect(widths(slotSrcSet(large, HERO_SLOT))).toEqual([
      '160:160',
      '320:320',
      '480:480',
      '640:640',
      '750:750',
      '960:960',
    ]);
    // 160 px × 2 = 320.
    expect(widths(slotSrcSet(large, TILE_SLOT))).toEqual(['160:160', '320:320']);
    expect(widths(slotSrcSet(large, AVATAR_SLOT))).toEqual(['160:160']);
  });

  it('offers every width to the zoomable full-screen viewer', () => {
    expect(widths(slotSrcSet(large, FULL_SCREEN_SLOT)).at(-1)).toBe('1280:1280');
  });

  it('never describes a width past the original’s own', () => {
    expect(widths(slotSrcSet({ id: 'smallAAAAAAAAAA1', width: 300 }, HERO_SLOT))).toEqual([
      '160:160',
      '320:300',
    ]);
  });
});
