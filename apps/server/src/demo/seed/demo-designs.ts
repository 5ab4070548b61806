import type { DesignFile, DesignUse } from '@guquan/contract/design';
import { DEMO_IDS, type DemoUserKey } from './demo-ids.ts';
import type { DemoImage } from './demo-content.ts';

/**
 * The demo designs and points, one user per state the redeem page can be in:
 * - yuyuan (1200 points left) has redeemed `starry` and can afford every other design;
 * - satoru (120 points) has too few for any design (the cheapest available costs 150);
 * - karasuno (500 points) can redeem `sakura` and `shelf` but is 300 short of `premium`;
 * - chigu has never had points (no balance row: 0);
 * - conductor and beika draw the designs (and have points of their own).
 * `retired` can no longer be redeemed by anybody.
 */
export interface DemoDesign {
  publicId: string;
  designer: DemoUserKey;
  title: string;
  preview: DemoImage;
  pricePoints: number;
  retired: boolean;
  daysAgo: number;
  /** What a redemption gives: the file and the use allowed (the redeem page says both). */
  file: DesignFile;
  use: DesignUse;
}

export interface DemoPoints {
  user: DemoUserKey;
  /** What the user earned in the app, oldest first. */
  earned: readonly { points: number; reference: string; daysAgo: number }[];
  /** Designs the user redeemed, after the earnings. */
  redeemed: readonly { design: string; daysAgo: number }[];
}

const preview = (shape: DemoImage['picture']['shape'], palette: number, variant: number) => ({
  picture: { shape, palette, variant, watermark: true },
  alt: '设计图预览（带水印）',
});

export const DEMO_DESIGNS: readonly DemoDesign[] = [
  {
    publicId: DEMO_IDS.designs.starry,
    designer: 'conductor',
    title: '星空吧唧设计图',
    preview: preview('badge', 0, 11),
    pricePoints: 300,
    retired: false,
    daysAgo: 30,
    file: { format: 'png', width: 3000, height: 3000, bytes: 8_400_000 },
    use: 'personal',
  },
  {
    publicId: DEMO_IDS.designs.sakura,
    designer: 'beika',
    title: '樱花季立牌设计图',
    preview: preview('stand', 3, 12),
    pricePoints: 200,
    retired: false,
    daysAgo: 21,
    file: { format: 'psd', width: 2480, height: 3508, bytes: 46_200_000 },
    use: 'non_commercial',
  },
  {
    publicId: DEMO_IDS.designs.shelf,
    designer: 'beika',
    title: '痛柜背板设计图',
    preview: preview('shelf', 6, 13),
    pricePoints: 150,
    retired: false,
    daysAgo: 14,
    file: { format: 'pdf', width: 7016, height: 4961, bytes: 12_900_000 },
    use: 'personal',
  },
  {
    publicId: DEMO_IDS.designs.premium,
    designer: 'conductor',
    title: '烫金票根设计图（典藏）',
    preview: preview('ticket', 5, 14),
    pricePoints: 800,
    retired: false,
    daysAgo: 7,
    file: { format: 'png', width: 2048, height: 4096, bytes: 15_700_000 },
    use: 'commercial',
  },
  {
    publicId: DEMO_IDS.designs.retired,
    designer: 'conductor',
    title: '夏日限定色纸设计图',
    preview: preview('shikishi', 4, 15),
    pricePoints: 100,
    retired: true,
    daysAgo: 60,
    file: { format: 'jpg', width: 2400, height: 2400, bytes: 3_100_000 },
    use: 'personal',
  },
];

export const DEMO_POINTS: readonly DemoPoints[] = [
  {
    user: 'yuyuan',
    earned: [
      { points: 1000, reference: 'task:new-user', daysAgo: 40 },
      { points: 500, reference: 'task:daily-check-in', daysAgo: 20 },
    ],
    redeemed: [{ design: DEMO_IDS.designs.starry, daysAgo: 10 }],
  },
  {
    user: 'satoru',
    earned: [{ points: 120, reference: 'task:daily-check-in', daysAgo: 5 }],
    redeemed: [],
  },
  {
    user: 'karasuno',
    earned: [
      { points: 300, reference: 'task:first-note', daysAgo: 12 },
      { points: 200, reference: 'task:daily-check-in', daysAgo: 3 },
    ],
    redeemed: [],
  },
  {
    user: 'conductor',
    earned: [{ points: 2000, reference: 'task:designer-bonus', daysAgo: 50 }],
    redeemed: [],
  },
  {
    user: 'beika',
    earned: [{ points: 300, reference: 'task:first-note', daysAgo: 25 }],
    redeemed: [],
  },
];

/** A demo user's points balance: what they earned less the designs they redeemed (0 if none). */
export function demoPointsBalance(user: DemoUserKey): number {
  const account = DEMO_POINTS.find((points) => points.user === user);
  if (!account) return 0;
  const earned = account.earned.reduce((sum, earning) => sum + earning.points, 0);
  const spent = account.redeemed.reduce((sum, redeemed) => {
    const design = DEMO_DESIGNS.find((candidate) => candidate.publicId === redeemed.design);
    if (!design) throw new Error('Demo points name an unknown design');
    return sum + design.pricePoints;
  }, 0);
  return earned - spent;
}
