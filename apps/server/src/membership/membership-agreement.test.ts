import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { listPlans } from './membership-repository.ts';

/** The membership agreement the page links to, as the site serves it. */
const AGREEMENT = new URL('../../../../content/legal/vip/2025-10-15.md', import.meta.url);

let data: TestDatabase | undefined;
afterEach(async () => {
  await data?.close();
  data = undefined;
});

describe('the membership agreement', () => {
  it('describes the plans the page sells: each by name, all auto-renewing, one subscription', async () => {
    data = await openTestDatabase({ seed: false });
    const plans = await listPlans(data.db);
    const agreement = await readFile(AGREEMENT, 'utf8');
    const summary = /^summary: (.*)$/m.exec(agreement)?.[1] ?? '';
    for (const plan of plans) expect(summary).toContain(plan.titles['zh-CN']);
    // The page offers no plan that does not renew, so the agreement does not either.
    expect(agreement).not.toMatch(/非自动续费|月卡|季卡|年卡/);
    // A member changes the plan (as the App Store does it), never buys a second one.
    expect(summary).toMatch(/升级立即生效，降级在下次续费时生效/);
  });
});
