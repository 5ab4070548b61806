import type { Transaction } from 'kysely';
import type { PhoneProtection } from '../../crypto/phone-protection.ts';
import type { Database } from '../../db/schema.ts';
import type { DemoUserKey } from './demo-ids.ts';

/**
 * The demo state of account deletion: every demo user has a bound phone (numbers of the 138 0000
 * demo range, never real ones), and 乌野排球部后援会 has an exposure in review, which blocks
 * deleting that account until the review ends.
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

export async function seedAccountDeletionDemo(
  trx: Transaction<Database>,
  users: ReadonlyMap<string, number>,
  daysAgo: (days: number) => string,
  phones: PhoneProtection,
): Promise<void> {
  for (const [key, phone] of Object.entries(DEMO_PHONES)) {
    const id = users.get(key);
    if (id === undefined) throw new Error(`Demo phone for an unknown user ${key}`);
    await trx
      .updateTable('users')
      .set({ phone_encrypted: phones.encrypt(phone), phone_index: phones.index(phone) })
      .where('id', '=', id)
      .execute();
  }
  const blocked = users.get(DEMO_BLOCKED_USER);
  if (blocked === undefined) throw new Error('The blocked demo user is missing');
  await trx
    .insertInto('account_cases')
    .values([
      {
        user_id: blocked,
        kind: DEMO_DELETION_BLOCKER.kind,
        title: DEMO_DELETION_BLOCKER.title,
        status: 'open',
        opened_at: daysAgo(DEMO_DELETION_BLOCKER.sinceDaysAgo),
        closed_at: null,
      },
      {
        user_id: blocked,
        kind: 'appeal_open',
        title: '申诉：被指“拍错不退”的曝光',
        status: 'closed',
        opened_at: daysAgo(40),
        closed_at: daysAgo(30),
      },
    ])
    .execute();
}
