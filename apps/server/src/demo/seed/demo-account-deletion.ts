import type { DemoUserKey } from './demo-ids.ts';

/**
 * The demo state of account deletion, as the stand-in platform reports it (stand-in/demo-community.ts):
 * every demo user has a bound phone (numbers of the 138 0000 demo range, never real ones), and
 * 乌野排球部后援会 has an exposure in review, which blocks deleting that account until the review
 * ends.
 */
export const DEMO_PHONES: Readonly<Record<DemoUserKey, string>> = {
  yuyuan: '13800000001',
  satoru: '13800000002',
  karasuno: '13800000003',
  chigu: '13800000004',
  conductor: '13800000005',
  beika: '13800000006',
};

const DEMO_BLOCKED_USER: DemoUserKey = 'karasuno';

/** The case that blocks deleting the blocked user's account, as the platform reports it. */
export const DEMO_DELETION_BLOCKER = {
  user: DEMO_BLOCKED_USER,
  kind: 'exposure_in_review',
  title: '曝光：收款后不发货的“影山飞雄吧唧”交易',
  sinceDaysAgo: 2,
} as const;
