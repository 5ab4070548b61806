import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { redemptionsApiPath } from '@guquan/contract/design';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import {
  buildTestAppWithDb,
  chargesOf,
  logIn,
  pointsOf,
  type TestAppWithDb,
} from '../test-support/design-test-app.ts';
import { sleep } from '../timing/sleep.ts';

/**
 * The audit's attack: PostgreSQL backends terminated (pg_terminate_backend) during a burst of
 * redemptions. A cut that reached a client between two statements of its transaction used to be an
 * 'error' with no listener, which ended the server. Now each request fails cleanly (503 in the
 * error shape) or succeeds, a retry with the same Idempotency-Key gets a definite answer, nothing
 * is debited twice, and the pool serves the next requests.
 */
let t: TestAppWithDb;
beforeAll(async () => {
  t = await buildTestAppWithDb();
});
afterAll(async () => {
  await t.close();
});

async function pendingRedemptionsOf(db: Db, user: 'conductor'): Promise<number> {
  const row = await db
    .selectFrom('redemptions')
    .innerJoin('users', 'users.id', 'redemptions.user_id')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('users.public_id', '=', DEMO_IDS.users[user])
    .where('redemptions.state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('PostgreSQL connections cut during a burst of redemptions', () => {
  it(
    'answers each request 2xx, 409 or a clean 503, debits once, and recovers',
    { timeout: 180_000 },
    async () => {
      // conductor has the points, and draws neither of these (a designer cannot buy their own).
      const user = 'conductor';
      const token = await logIn(t.app, user);
      const before = await pointsOf(t.db, user);
      const charges = chargesOf(t.app, user);
      const designs = [DEMO_IDS.designs.sakura, DEMO_IDS.designs.shelf];
      const attempts = designs.flatMap((design) =>
        Array.from({ length: 6 }, () => ({ design, key: randomUUID() })),
      );
      const redeem = ({ design, key }: { design: string; key: string }) =>
        t.app.inject({
          method: 'POST',
          url: redemptionsApiPath(design),
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
        });

      // Three rounds of the same attempts (retries, double taps: under the limit of 60 a minute),
      // 40 ms apart, and every backend of the app's database but this one cut three times among
      // them: the server's pool, busy with transactions, included.
      const rounds = Promise.all(
        [0, 40, 80].map(async (delay) => {
          await sleep(delay);
          return Promise.all(attempts.map(redeem));
        }),
      ).then((all) => all.flat());
      let cuts = 0;
      for (const delay of [20, 40, 40]) {
        await sleep(delay);
        const cut = await sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`.execute(t.db);
        cuts += cut.rows[0]?.n ?? 0;
      }
      const first = await rounds;
      expect(cuts).toBeGreaterThan(0);

      const statuses = first.map((response) => response.statusCode);
      // 202: asked, the answer not written yet (a cut came between): the platform is asked again.
      expect(statuses.filter((status) => ![200, 201, 202, 409, 503].includes(status))).toEqual([]);
      for (const response of first.filter((r) => r.statusCode === 503)) {
        expect(apiErrorSchema.parse(response.json()).error.code).toBe('service_unavailable');
        expect(response.headers['retry-after']).toBe('5');
      }

      // The pool recovers. A redemption whose answer a cut kept from being written completes once
      // its lease runs out and the retry worker asks again, with the same key: waited for in the
      // database, not by asking again and again (the rounds would reach the limit of 60 a minute
      // on a slow run, and every answer would be a 429). Then each attempt, retried with its key,
      // gets a definite answer.
      await expect
        .poll(() => pendingRedemptionsOf(t.db, user), { timeout: 90_000, interval: 250 })
        .toBe(0);
      const answers = await Promise.all(attempts.map(redeem));
      expect(answers.map((response) => response.statusCode).filter((s) => s === 429)).toEqual([]);
      expect(answers.map((response) => response.statusCode).filter((s) => s === 503)).toEqual([]);
      expect(answers.map((response) => response.statusCode).filter((s) => s === 202)).toEqual([]);
      const redeemed = new Set(
        attempts
          .filter((_, i) => [200, 201].includes(answers[i]?.statusCode ?? 0))
          .map(({ design }) => design),
      );
      const prices: Record<string, number> = {
        [DEMO_IDS.designs.sakura]: 200,
        [DEMO_IDS.designs.shelf]: 150,
      };
      const after = await pointsOf(t.db, user);
      const spent = [...redeemed].reduce((sum, design) => sum + (prices[design] ?? 0), 0);
      expect(redeemed.size).toBe(designs.length);
      expect(after.balance).toBe(before.balance - spent);
      expect(after.redemptions).toBe(before.redemptions + redeemed.size);
      // The platform charged each once.
      expect(chargesOf(t.app, user).chargedSum - charges.chargedSum).toBe(spent);
    },
  );
});
