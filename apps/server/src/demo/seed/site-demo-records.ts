import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { recordRedeemed } from '../../designs/redemption-repository.ts';
import { SHARE_KINDS } from '@guquan/contract/share-paths';
import { DEMO_POINTS } from './demo-designs.ts';
import { seedDemoFunnel } from './demo-funnel.ts';
import { DEMO_IDS, type DemoUserKey } from './demo-ids.ts';
import { demoSharedItems } from './demo-item-ids.ts';
import { DEMO_MEMBER_KEY, seedDemoMembership } from './demo-membership.ts';
import { daysAgo } from './story-clock.ts';

/**
 * The demo's records of which the site, not the platform, is the system of record: the demo
 * member's yearly membership, the designs redeemed earlier, the share funnel of the last 30 days.
 * Written once the demo community has arrived from the stand-in platform (they name its users,
 * designs and items).
 */

/** Whether the demo users and designs have arrived, so the site's records can name them. */
export async function demoCommunityArrived(db: Db): Promise<boolean> {
  const users = Object.values(DEMO_IDS.users);
  const designs = Object.values(DEMO_IDS.designs);
  const [userCount, designCount] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('public_id', 'in', users)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('designs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('public_id', 'in', designs)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(userCount.n) === users.length && Number(designCount.n) === designs.length;
}

/**
 * Writes the site's own demo records, in one transaction; false when they are there already.
 * The membership is dated from the real clock (bought 20 days ago), so the member is a member
 * whenever the demo starts; the funnel runs up to today.
 */
export async function seedSiteDemoRecords(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const userRows = await trx
      .selectFrom('users')
      .select(['id', 'public_id', 'points'])
      .where('public_id', 'in', Object.values(DEMO_IDS.users))
      .execute();
    const user = (key: DemoUserKey) => {
      const row = userRows.find((candidate) => candidate.public_id === DEMO_IDS.users[key]);
      if (!row) throw new Error(`The demo user ${key} has not arrived`);
      return row;
    };

    if (!(await seedDemoMembership(trx, user(DEMO_MEMBER_KEY).id, now))) return false;

    // Spent before the story begins: the platform's balance (and its stand-in's ledger) already
    // has them taken off, and no debit of the stand-in's names them.
    for (const account of DEMO_POINTS) {
      for (const redeemed of account.redeemed) {
        const design = await trx
          .selectFrom('designs')
          .select(['id', 'price_points'])
          .where('public_id', '=', redeemed.design)
          .executeTakeFirstOrThrow();
        await recordRedeemed(trx, {
          userId: user(account.user).id,
          designRowId: design.id,
          pricePoints: design.price_points,
          balanceAfter: user(account.user).points,
          debitId: null,
          idempotencyKey: randomUUID(),
          at: daysAgo(redeemed.daysAgo),
        });
      }
    }

    // Public items in the order of the story (the demo links first), kinds taking turns.
    const shared = demoSharedItems();
    const items = [0, 1, 2, 3, 4, 5].flatMap((index) =>
      SHARE_KINDS.flatMap((kind) => {
        const id = shared[kind][index];
        return id === undefined ? [] : [{ kind, id }];
      }),
    );
    await seedDemoFunnel(trx, items, now);
    return true;
  });
}
