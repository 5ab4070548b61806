import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { pointsDebitsClient } from '../designs/points-debits.ts';
import { standInsPerTest } from '../test-support/stand-in-per-test.ts';
import type { StandInPlatform } from './stand-in-platform.ts';

const { start, closeAll } = standInsPerTest('guquan-ledger-');

const USER = DEMO_IDS.users.karasuno;
const body = (points: number, redemptionId = 'R1') => ({
  userId: USER,
  points,
  reason: { kind: 'design_redemption', designId: DEMO_IDS.designs.sakura, redemptionId },
});

function debit(platform: StandInPlatform, key: string, payload: unknown, token?: string) {
  return fetch(`${platform.origin}/v1/points/debits`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token ?? platform.secrets.apiToken}`,
      'idempotency-key': key,
    },
    body: JSON.stringify(payload),
  });
}

function setFault(platform: StandInPlatform, fault: string) {
  return fetch(`${platform.origin}/demo/ledger/fault`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fault }),
  });
}

describe("the stand-in platform's points ledger", () => {
  it('charges a key once, answers a repeat the same, refuses another body and too few points', async () => {
    const platform = await start();
    expect(platform.ledger.balanceOf(USER)).toBe(500);
    expect(platform.ledger.balanceOf('someone-else')).toBe(0);
    expect((await debit(platform, 'k1', body(200), 'wrong')).status).toBe(401);
    expect((await debit(platform, 'k1', { ...body(200), points: -1 })).status).toBe(400);

    const first = await debit(platform, 'k1', body(200));
    expect(first.status).toBe(201);
    const charged = (await first.json()) as { debitId: string; balance: number };
    expect(charged.balance).toBe(300);
    const again = await debit(platform, 'k1', body(200));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(charged);
    expect((await debit(platform, 'k1', body(150))).status).toBe(422);

    const poor = await debit(platform, 'k2', body(800, 'R2'));
    expect(poor.status).toBe(409);
    expect(await poor.json()).toMatchObject({ error: { code: 'insufficient_points' } });
    expect(platform.ledger.balanceOf(USER)).toBe(300);

    const shown = (await (await fetch(`${platform.origin}/demo/ledger`)).json()) as {
      balances: { userId: string; balance: number }[];
      debits: { key: string; outcome: string; balance: number }[];
      nextDebitFault: string;
    };
    expect(shown.balances).toContainEqual({ userId: USER, balance: 300 });
    expect(shown.debits.map(({ key, outcome, balance }) => ({ key, outcome, balance }))).toEqual([
      { key: 'k2', outcome: 'insufficient_points', balance: 300 },
      { key: 'k1', outcome: 'charged', balance: 300 },
    ]);
    expect(shown.nextDebitFault).toBe('none');

    // Kept on disk: a restart of the stand-in knows the key and the balance.
    await closeAll();
    const restarted = await start();
    expect(restarted.ledger.balanceOf(USER)).toBe(300);
    expect((await debit(restarted, 'k1', body(200))).status).toBe(200);
  });

  it('fails, hangs or loses its answer for the next debit only, as the demo asks', async () => {
    const platform = await start();
    const client = pointsDebitsClient(
      { apiUrl: platform.origin, apiToken: platform.secrets.apiToken },
      { timeoutMs: 500 },
    );
    const ask = (key: string) =>
      client({
        key,
        body: {
          userId: USER,
          points: 100,
          reason: {
            kind: 'design_redemption',
            designId: DEMO_IDS.designs.sakura,
            redemptionId: key,
          },
        },
      });
    expect((await setFault(platform, 'sometimes')).status).toBe(400);

    expect((await setFault(platform, 'fail')).status).toBe(204);
    const failed = await ask('f1');
    expect(failed.kind === 'unknown' && failed.reason).toMatch(/^500/);
    expect(platform.ledger.debits()).toHaveLength(0);

    await setFault(platform, 'hang');
    const hung = await ask('h1');
    expect(hung.kind === 'unknown' && hung.reason).toMatch(/Timeout/);
    expect(platform.ledger.debits()).toHaveLength(0);

    await setFault(platform, 'lose_answer');
    expect(await ask('l1')).toMatchObject({ kind: 'unknown' });
    expect(platform.ledger.debits().map((d) => d.key)).toEqual(['l1']);
    // The next request, the same key: the stored charge, no second one.
    expect(await ask('l1')).toEqual({
      kind: 'charged',
      debitId: platform.ledger.debits()[0]?.debitId,
      balance: 400,
    });
    expect(platform.ledger.balanceOf(USER)).toBe(400);
  });

  it('answers a balance past 2^31 − 1 once: refused as the contract says, logged, then the charge', async () => {
    const platform = await start();
    const warnings: { details: object; message: string }[] = [];
    const client = pointsDebitsClient(
      { apiUrl: platform.origin, apiToken: platform.secrets.apiToken },
      {
        log: {
          info: () => undefined,
          warn: (details, message) => warnings.push({ details, message }),
        },
      },
    );
    const ask = () =>
      client({
        key: 'b1',
        body: {
          userId: USER,
          points: 100,
          reason: {
            kind: 'design_redemption',
            designId: DEMO_IDS.designs.sakura,
            redemptionId: 'b1',
          },
        },
      });
    await setFault(platform, 'huge_balance');
    const refused = await ask();
    expect(refused).toEqual({
      kind: 'unknown',
      reason: expect.stringMatching(
        /^201 with an answer the contract does not allow \(balance: .*2147483647\)$/,
      ) as string,
    });
    expect(warnings).toEqual([
      {
        details: { status: 201, key: 'b1', issues: expect.stringMatching(/^balance: /) as string },
        message: expect.stringMatching(/contract refuses: the redemption stays pending$/) as string,
      },
    ]);
    // Charged once; the repeat answers the stored charge, in range.
    expect(await ask()).toMatchObject({ kind: 'charged', balance: 400 });
    expect(platform.ledger.debits()).toHaveLength(1);
  });

  it('holds answers as a slow platform would: charged at once, answered once released', async () => {
    const platform = await start();
    const release = platform.ledger.holdAnswers();
    const answer = debit(platform, 's1', body(100, 's1'));
    await expect.poll(() => platform.ledger.holding(), { interval: 10 }).toBeGreaterThan(0);
    // Charged and kept; the answer not sent.
    expect(platform.ledger.debits().map((d) => d.key)).toEqual(['s1']);
    release();
    const answered = await answer;
    expect(answered.status).toBe(201);
    expect(await answered.json()).toMatchObject({ balance: 400 });
    expect(platform.ledger.holding()).toBe(0);
    // Released: the next debit is answered at once.
    expect((await debit(platform, 's2', body(100, 's2'))).status).toBe(201);
  });

  it('lets a held request go when it closes', async () => {
    const platform = await start();
    await setFault(platform, 'hang');
    const held = debit(platform, 'c1', body(100, 'c1')).catch((error: unknown) => error);
    await expect.poll(() => platform.ledger.requests(), { interval: 10 }).toBeGreaterThan(0);
    // The held request would hang for ever: that the close finishes at all is the proof (the
    // test's timeout catches a hang), however long a slow machine takes.
    await closeAll();
    expect(await held).toBeInstanceOf(Error);
    expect(platform.ledger.debits()).toHaveLength(0);
  });
});
