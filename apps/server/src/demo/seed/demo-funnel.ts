import type { Transaction } from 'kysely';
import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { Database } from '../../db/schema.ts';
import { addDays, funnelDayOf } from '../../funnel/funnel-days.ts';
import {
  addFunnelCounts,
  funnelCountRows,
  type FunnelCountRow,
} from '../../funnel/funnel-repository.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * Sixty days of plausible share-funnel counts up to the day of the seed, so the operators' page
 * shows something after `npm start`, its last 30 days beside the 30 before: a few items shared a
 * lot and many a little, WeChat first, weekends busier, a little more each week, one item's post
 * going round mid-month. Made with a fixed pseudo-random
 * sequence: every seed of the same day tells the same story.
 */
export const DEMO_FUNNEL_DAYS = 60;

/** How many of the public items get counts (the most popular first). */
const ITEMS = 12;

/** Share of views per channel, and how each channel's visitors go on from a view. */
const CHANNELS: readonly {
  channel: ShareChannel;
  share: number;
  /** Opens tapped per view. */
  open: number;
  /** Whether its browser shows the guide instead of opening the app or the store. */
  guide: boolean;
}[] = [
  { channel: 'wechat', share: 0.46, open: 0.22, guide: true },
  { channel: 'qq', share: 0.14, open: 0.2, guide: false },
  { channel: 'weibo', share: 0.08, open: 0.18, guide: true },
  { channel: 'other_in_app', share: 0.06, open: 0.15, guide: true },
  { channel: 'safari', share: 0.13, open: 0.3, guide: false },
  { channel: 'chrome', share: 0.08, open: 0.27, guide: false },
  { channel: 'other', share: 0.05, open: 0.2, guide: false },
];

/** A whole number near `mean` (never negative). */
function near(mean: number, random: () => number): number {
  return Math.max(0, Math.round(mean * (0.75 + random() * 0.5)));
}

export async function seedDemoFunnel(
  trx: Transaction<Database>,
  items: readonly { kind: ShareKind; id: string }[],
  now = new Date(),
): Promise<void> {
  const random = seededRandom(20_251_120);
  const today = funnelDayOf(now);
  const rows: FunnelCountRow[] = [];
  items.slice(0, ITEMS).forEach((item, rank) => {
    // A few items shared a lot, many a little.
    const popularity = 120 / (rank + 1);
    for (let back = DEMO_FUNNEL_DAYS - 1; back >= 0; back -= 1) {
      const day = addDays(today, -back);
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      const weekend = weekday === 0 || weekday === 6 ? 1.4 : 1;
      // The second item's post went round in the middle of the month.
      const spike = rank === 1 && back >= 12 && back <= 14 ? 4 : 1;
      // Growing: the day 60 days back had about a quarter fewer views than today.
      const growth = 1 - back / 240;
      const views = popularity * weekend * spike * growth;
      for (const { channel, share, open, guide } of CHANNELS) {
        const viewed = near(views * share, random);
        const opened = near(viewed * open, random);
        const counts: Partial<Record<FunnelEvent, number>> = {
          viewed,
          open_tapped: opened,
          poster_opened: near(viewed * 0.03, random),
        };
        if (guide) {
          counts.guide_shown = near(opened * 0.9, random);
          counts.link_copied = near(opened * 0.35, random);
        } else {
          const toStore = near(opened * 0.4, random);
          counts.store_fallback = toStore;
          counts.handoff_minted = near(toStore * 0.85, random);
          counts.handoff_claimed = near(toStore * 0.4, random);
          counts.link_fallback = near(viewed * 0.01, random);
        }
        rows.push(...funnelCountRows({ day, kind: item.kind, itemId: item.id, channel }, counts));
      }
    }
  });
  await addFunnelCounts(trx, rows);
}
