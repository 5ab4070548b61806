import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  designApiPath,
  designPreviewApiPath,
  designPreviewSchema,
  designViewSchema,
  redemptionResultSchema,
  redemptionsApiPath,
} from '@guquan/contract/design';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import {
  buildTestAppWithDb,
  PATIENT_REDEMPTIONS,
  chargesOf,
  logIn,
  pointsOf,
  type TestAppWithDb,
} from '../test-support/design-test-app.ts';
import { standInOf, standInToken } from '../test-support/test-app.ts';

const DESIGNS = DEMO_IDS.designs;

let t: TestAppWithDb;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await buildTestAppWithDb(PATIENT_REDEMPTIONS);
  for (const user of ['yuyuan', 'satoru', 'karasuno', 'chigu', 'beika'] as const) {
    tokens[user] = await logIn(t.app, user);
  }
});
afterAll(async () => {
  await t.close();
});

function bearer(user: string): Record<string, string> {
  const token = tokens[user];
  if (!token) throw new Error(`no session for ${user}`);
  return { authorization: `Bearer ${token}` };
}

function view(designId: string, headers: Record<string, string>) {
  return t.app.inject({ url: designApiPath(designId), headers });
}

function redeem(designId: string, headers: Record<string, string>, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: redemptionsApiPath(designId),
    headers: { ...headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
}

function expectError(
  response: Awaited<ReturnType<typeof view>>,
  status: number,
  code: string,
): void {
  expect(response.statusCode, response.body).toBe(status);
  const body = apiErrorSchema.parse(response.json());
  expect(body.error.code).toBe(code);
  expect(body.error.message).not.toMatch(/sqlite|select|constraint|\/tmp|at .*\.ts/i);
  expect(response.headers['cache-control']).toBe('no-store');
}

const MALFORMED_IDS = [
  '',
  `${DESIGNS.sakura}${'x'.repeat(65 - DESIGNS.sakura.length)}`,
  'x'.repeat(300),
  'AbCdEfGh.jKlMnOp',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '%E4%BA%94%E6%9D%A1%E6%82%9F%E5%90%A7%E5%94%A7%E5%90%A7',
  '..%2F..%2F..%2Fetc%2Fpasswd',
];

describe('GET a design', () => {
  it('shows the design, the user’s points and that nothing is redeemed yet', async () => {
    const response = await view(DESIGNS.shelf, bearer('karasuno'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = designViewSchema.parse(response.json());
    expect(body.design).toMatchObject({
      id: DESIGNS.shelf,
      pricePoints: 150,
      available: true,
      designer: { id: DEMO_IDS.users.beika },
    });
    expect(body.design.preview).not.toBeNull();
    expect(body.viewer).toEqual({ balance: 500, redemption: null, ownDesign: false });

    // The watermarked preview is served to anybody.
    const preview = body.design.preview;
    if (!preview) throw new Error('no preview');
    const image = await t.app.inject({ url: `/anime_merch_web/media/${preview.id}/320.webp` });
    expect(image.statusCode).toBe(200);
  });

  it('shows each user only their own redemption and balance', async () => {
    const own = designViewSchema.parse((await view(DESIGNS.starry, bearer('yuyuan'))).json());
    expect(own.viewer.balance).toBe(1200);
    expect(own.viewer.redemption).toMatchObject({ designId: DESIGNS.starry, pricePoints: 300 });
    const other = designViewSchema.parse((await view(DESIGNS.starry, bearer('satoru'))).json());
    expect(other.viewer).toEqual({ balance: 120, redemption: null, ownDesign: false });
    const none = designViewSchema.parse((await view(DESIGNS.starry, bearer('chigu'))).json());
    expect(none.viewer).toEqual({ balance: 0, redemption: null, ownDesign: false });
  });

  it('tells the designer the design is their own, and refuses to sell it to them', async () => {
    const own = designViewSchema.parse((await view(DESIGNS.shelf, bearer('beika'))).json());
    expect(own.viewer.ownDesign).toBe(true);
    const before = await pointsOf(t.db, 'beika');
    const refused = await redeem(DESIGNS.shelf, bearer('beika'), randomUUID());
    expectError(refused, 409, 'own_design');
    expect(await pointsOf(t.db, 'beika')).toEqual(before);
    const after = designViewSchema.parse((await view(DESIGNS.shelf, bearer('beika'))).json());
    expect(after.viewer.redemption).toBeNull();
  });

  it('shows a retired design as unavailable, without its preview (which is no longer served)', async () => {
    const body = designViewSchema.parse((await view(DESIGNS.retired, bearer('karasuno'))).json());
    expect(body.design.available).toBe(false);
    expect(body.design.preview).toBeNull();
    const row = await t.db
      .selectFrom('designs')
      .innerJoin('images', 'images.id', 'designs.preview_image_id')
      .select('images.public_id')
      .where('designs.public_id', '=', DESIGNS.retired)
      .executeTakeFirstOrThrow();
    const image = await t.app.inject({ url: `/anime_merch_web/media/${row.public_id}/320.webp` });
    expect(image.statusCode).toBe(404);
  });

  it('answers 404 for an unknown design and invalid_id for a malformed one', async () => {
    expectError(await view(DEMO_IDS.unknown, bearer('karasuno')), 404, 'not_found');
    // A goods id is no design id.
    expectError(await view(DEMO_IDS.goods.gallery, bearer('karasuno')), 404, 'not_found');
    for (const id of MALFORMED_IDS) {
      expectError(await view(id, bearer('karasuno')), 400, 'invalid_id');
    }
  });
});

describe('GET a design’s preview, without a session (issue 39)', () => {
  it('shows what would be redeemed to anybody, and nothing of any user', async () => {
    const response = await t.app.inject({ url: designPreviewApiPath(DESIGNS.sakura) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = designPreviewSchema.strict().parse(response.json());
    const signedIn = designViewSchema.parse((await view(DESIGNS.sakura, bearer('yuyuan'))).json());
    expect(body.design).toEqual(signedIn.design);
    expect(body.design.preview).not.toBeNull();
    expect(Object.keys(response.json<object>())).toEqual(['design']);
  });

  it('answers 404 for an unknown design and invalid_id for a malformed one', async () => {
    expectError(
      await t.app.inject({ url: designPreviewApiPath(DEMO_IDS.unknown) }),
      404,
      'not_found',
    );
    expectError(await t.app.inject({ url: designPreviewApiPath('bad!') }), 400, 'invalid_id');
  });
});

describe('tokens on the design endpoints', () => {
  const cases: [string, Record<string, string>][] = [
    ['no token', {}],
    ['a forged token', { authorization: `Bearer ${'A'.repeat(43)}.${'B'.repeat(60)}.C` }],
    ['a malformed token', { authorization: 'Bearer short' }],
    ['a token in the wrong scheme', { authorization: `Basic ${'A'.repeat(43)}` }],
  ];

  it.each(cases)(
    'refuses %s with 401 on both endpoints, changing nothing',
    async (_name, headers) => {
      const before = await pointsOf(t.db, 'karasuno');
      expectError(await view(DESIGNS.sakura, headers), 401, 'unauthorized');
      expectError(await redeem(DESIGNS.sakura, headers, randomUUID()), 401, 'unauthorized');
      // The session is checked before anything else is looked at.
      expectError(await view('bad', headers), 401, 'unauthorized');
      expectError(await redeem('bad', headers, 'bad'), 401, 'unauthorized');
      expect(await pointsOf(t.db, 'karasuno')).toEqual(before);
    },
  );

  it('refuses an expired token', async () => {
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 2 * 60 * 60;
    const expired = await standInToken(t.app, DEMO_IDS.users.karasuno, { issuedAt: twoHoursAgo });
    const headers = { authorization: `Bearer ${expired}` };
    expectError(await view(DESIGNS.sakura, headers), 401, 'unauthorized');
    expectError(await redeem(DESIGNS.sakura, headers, randomUUID()), 401, 'unauthorized');
  });
});

describe('POST a redemption', () => {
  it('redeems once: 201, then 200 with the same body for the same key, 409 for another key', async () => {
    const before = await pointsOf(t.db, 'karasuno');
    const charges = chargesOf(t.app, 'karasuno');
    const key = randomUUID();
    const first = await redeem(DESIGNS.sakura, bearer('karasuno'), key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const result = redemptionResultSchema.parse(first.json());
    expect(result).toMatchObject({
      redemption: { designId: DESIGNS.sakura, pricePoints: 200, state: 'redeemed' },
      balanceAfter: 300,
    });

    // The app retried (the answer was lost): the same key gives the same redemption, no debit.
    const again = await redeem(DESIGNS.sakura, bearer('karasuno'), key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    // Keys are UUIDs: upper-case is the same key.
    const upper = await redeem(DESIGNS.sakura, bearer('karasuno'), key.toUpperCase());
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toEqual(first.json());

    // Another attempt (another device) for the same design.
    expectError(
      await redeem(DESIGNS.sakura, bearer('karasuno'), randomUUID()),
      409,
      'already_redeemed',
    );
    // The key of the sakura redemption cannot redeem another design.
    expectError(
      await redeem(DESIGNS.shelf, bearer('karasuno'), key),
      422,
      'idempotency_key_reused',
    );

    const after = await pointsOf(t.db, 'karasuno');
    expect(after.balance).toBe(before.balance - 200);
    // The platform charged it once, and the balance shown is the one it answered.
    expect(chargesOf(t.app, 'karasuno')).toMatchObject({
      charged: charges.charged + 1,
      chargedSum: charges.chargedSum + 200,
      balance: after.balance,
    });
    expect(after.lastBalanceAfter).toBe(after.balance);
    expect(after.redemptions).toBe(before.redemptions + 1);

    const shown = designViewSchema.parse((await view(DESIGNS.sakura, bearer('karasuno'))).json());
    expect(shown.viewer).toEqual({
      balance: 300,
      redemption: result.redemption,
      ownDesign: false,
    });
  });

  it('answers each refusal with its status and changes nothing', async () => {
    const users = ['yuyuan', 'satoru', 'karasuno'] as const;
    // What was spent and redeemed (a refused attempt is kept as such: nothing spent).
    const spent = async () =>
      Promise.all(
        users.map(async (user) => {
          const { balance, redemptions, redeemedPriceSum, pending } = await pointsOf(t.db, user);
          const points = { balance, redemptions, redeemedPriceSum, pending };
          return { points, charges: chargesOf(t.app, user).chargedSum };
        }),
      );
    const before = await spent();

    // satoru has 120 points; the cheapest design costs 150.
    expectError(
      await redeem(DESIGNS.shelf, bearer('satoru'), randomUUID()),
      409,
      'insufficient_points',
    );
    expectError(await redeem(DESIGNS.retired, bearer('yuyuan'), randomUUID()), 410, 'unavailable');
    expectError(
      await redeem(DESIGNS.starry, bearer('yuyuan'), randomUUID()),
      409,
      'already_redeemed',
    );
    expectError(await redeem(DEMO_IDS.unknown, bearer('yuyuan'), randomUUID()), 404, 'not_found');
    for (const id of MALFORMED_IDS) {
      expectError(await redeem(id, bearer('yuyuan'), randomUUID()), 400, 'invalid_id');
    }
    for (const key of [
      undefined,
      '',
      'not-a-uuid',
      `${randomUUID()}0`,
      randomUUID().replaceAll('-', ''),
      'x'.repeat(5000),
      "1'; drop table redemptions; --",
    ]) {
      expectError(
        await redeem(DESIGNS.shelf, bearer('karasuno'), key),
        400,
        'invalid_idempotency_key',
      );
    }

    const huge = await t.app.inject({
      method: 'POST',
      url: redemptionsApiPath(DESIGNS.shelf),
      headers: {
        ...bearer('karasuno'),
        'idempotency-key': randomUUID(),
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ padding: 'x'.repeat(200_000) }),
    });
    expectError(huge, 413, 'payload_too_large');

    expect(await spent()).toEqual(before);
  });

  it('limits redemptions per user', async () => {
    // chigu has no points: every attempt is refused, until the limit refuses them all.
    const responses = await Promise.all(
      Array.from({ length: 65 }, () => redeem(DESIGNS.shelf, bearer('chigu'), randomUUID())),
    );
    const codes = responses.map((response) => response.statusCode);
    // Any other answer, with its body: what a failure here needs to be understood (CI once saw
    // 59 refusals, without saying what the 60th answer was).
    const others = responses
      .filter((response) => response.statusCode !== 409 && response.statusCode !== 429)
      .map((response) => `${String(response.statusCode)} ${response.body}`);
    expect(others).toEqual([]);
    const limitedBodies = responses
      .filter((response) => response.statusCode === 429)
      .map((response) => response.body);
    expect(
      codes.filter((code) => code === 409),
      JSON.stringify(limitedBodies),
    ).toHaveLength(60);
    expect(codes.filter((code) => code === 429)).toHaveLength(5);
    const limited = responses.find((response) => response.statusCode === 429);
    if (!limited) throw new Error('not limited');
    expectError(limited, 429, 'too_many_requests');
    // Another user is not affected.
    const other = await view(DESIGNS.shelf, bearer('satoru'));
    expect(other.statusCode).toBe(200);
    const satoru = await redeem(DESIGNS.shelf, bearer('satoru'), randomUUID());
    expect(satoru.statusCode).toBe(409);
  });
});

describe('parallel redemptions', () => {
  it('never debit twice: 40 requests from three devices, same and different keys, four designs', async () => {
    // conductor has 2000 points; he drew starry and premium (refused to him), and the other
    // two available designs cost 350 together.
    const devices = [
      await logIn(t.app, 'conductor'),
      await logIn(t.app, 'conductor'),
      await logIn(t.app, 'conductor'),
    ];
    const before = await pointsOf(t.db, 'conductor');
    const charges = chargesOf(t.app, 'conductor');
    const sakuraKey = randomUUID();
    const shelfKeys = [randomUUID(), randomUUID()];
    const plan: { design: string; key: string }[] = [
      // A double tap and retries: one key, ten times.
      ...Array.from({ length: 10 }, () => ({ design: DESIGNS.sakura, key: sakuraKey })),
      // His own design, ten attempts with keys of their own.
      ...Array.from({ length: 10 }, () => ({ design: DESIGNS.starry, key: randomUUID() })),
      // Two attempts, each retried five times.
      ...Array.from({ length: 10 }, (_, i) => ({
        design: DESIGNS.shelf,
        key: shelfKeys[i % 2] ?? '',
      })),
      ...Array.from({ length: 8 }, () => ({ design: DESIGNS.premium, key: randomUUID() })),
      ...Array.from({ length: 2 }, () => ({ design: DESIGNS.retired, key: randomUUID() })),
    ];
    const responses = await Promise.all(
      plan.map(({ design, key }, i) =>
        redeem(design, { authorization: `Bearer ${devices[i % devices.length] ?? ''}` }, key),
      ),
    );

    const byDesign = new Map<string, number[]>();
    plan.forEach(({ design }, i) => {
      const codes = byDesign.get(design) ?? [];
      codes.push(responses[i]?.statusCode ?? 0);
      byDesign.set(design, codes);
    });
    for (const design of [DESIGNS.sakura, DESIGNS.shelf]) {
      const codes = byDesign.get(design) ?? [];
      expect(
        codes.filter((code) => code === 201),
        design,
      ).toHaveLength(1);
      expect(
        codes.every((code) => [200, 201, 409].includes(code)),
        codes.join(),
      ).toBe(true);
    }
    expect(byDesign.get(DESIGNS.sakura)?.filter((code) => code === 200)).toHaveLength(9);
    // His own designs (the retired one too): refused every time, whatever the key.
    for (const design of [DESIGNS.starry, DESIGNS.premium, DESIGNS.retired]) {
      for (const [i, entry] of plan.entries()) {
        if (entry.design !== design) continue;
        expect(apiErrorSchema.parse(responses[i]?.json()).error.code).toBe('own_design');
      }
    }
    // Every answer for one key is the same redemption.
    const sakuraBodies = new Set(
      responses.filter((_, i) => plan[i]?.key === sakuraKey).map((response) => response.body),
    );
    expect(sakuraBodies.size).toBe(1);

    const after = await pointsOf(t.db, 'conductor');
    const prices = 200 + 150;
    expect(after.balance).toBe(before.balance - prices);
    expect(after.redemptions).toBe(before.redemptions + 2);
    expect(after.redeemedPriceSum).toBe(before.redeemedPriceSum + prices);
    // One debit per redemption, and the balance shown is the platform's.
    expect(chargesOf(t.app, 'conductor')).toMatchObject({
      charged: charges.charged + 2,
      chargedSum: charges.chargedSum + prices,
      balance: after.balance,
    });
  });

  it('never overdraw: parallel redemptions worth more than the balance', async () => {
    // karasuno has 300 points left (after sakura): starry (300), shelf (150) and premium (800)
    // cannot all be had.
    const designs = [DESIGNS.starry, DESIGNS.shelf, DESIGNS.premium];
    const prices: Record<string, number> = {
      [DESIGNS.starry]: 300,
      [DESIGNS.shelf]: 150,
      [DESIGNS.premium]: 800,
    };
    const before = await pointsOf(t.db, 'karasuno');
    expect(before.balance).toBe(300);
    const plan = Array.from({ length: 30 }, (_, i) => designs[i % designs.length] ?? '');
    const responses = await Promise.all(
      plan.map((design) => redeem(design, bearer('karasuno'), randomUUID())),
    );
    const redeemed = plan.filter((_, i) => responses[i]?.statusCode === 201);
    expect(new Set(redeemed).size).toBe(redeemed.length);
    expect(redeemed.length).toBeGreaterThan(0);
    for (const response of responses) {
      expect([201, 409]).toContain(response.statusCode);
    }
    const spent = redeemed.reduce((sum, design) => sum + (prices[design] ?? 0), 0);
    const after = await pointsOf(t.db, 'karasuno');
    expect(after.balance).toBe(300 - spent);
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(chargesOf(t.app, 'karasuno').balance).toBe(after.balance);
    expect(after.lastBalanceAfter).toBe(after.balance);
    expect(after.redemptions).toBe(before.redemptions + redeemed.length);
  });

  it('shows and spends the balance the platform last sent (users.points)', async () => {
    const { id } = await t.db
      .selectFrom('users')
      .select('id')
      .where('public_id', '=', DEMO_IDS.users.satoru)
      .executeTakeFirstOrThrow();
    // The user earned points in the app: the platform's balance, and its user.upserted here.
    await standInOf(t.app).ledger.setBalance(DEMO_IDS.users.satoru, 500);
    await t.db.updateTable('users').set({ points: 500 }).where('id', '=', id).execute();
    const shown = designViewSchema.parse((await view(DESIGNS.shelf, bearer('satoru'))).json());
    expect(shown.viewer).toEqual({ balance: 500, redemption: null, ownDesign: false });
    const before = await pointsOf(t.db, 'satoru');
    const charges = chargesOf(t.app, 'satoru');
    const redeemed = await redeem(DESIGNS.shelf, bearer('satoru'), randomUUID());
    expect(redeemed.statusCode).toBe(201);
    expect(redemptionResultSchema.parse(redeemed.json()).balanceAfter).toBe(350);
    expect(await pointsOf(t.db, 'satoru')).toMatchObject({
      balance: 350,
      lastBalanceAfter: 350,
      redemptions: before.redemptions + 1,
    });
    expect(chargesOf(t.app, 'satoru')).toMatchObject({
      charged: charges.charged + 1,
      chargedSum: charges.chargedSum + 150,
      balance: 350,
    });
    const after = designViewSchema.parse((await view(DESIGNS.starry, bearer('satoru'))).json());
    expect(after.viewer.balance).toBe(350);
    // 300 of 350: then 50 left, and the premium design (800) is refused.
    expect((await redeem(DESIGNS.starry, bearer('satoru'), randomUUID())).statusCode).toBe(201);
    expectError(
      await redeem(DESIGNS.premium, bearer('satoru'), randomUUID()),
      409,
      'insufficient_points',
    );
    expect((await pointsOf(t.db, 'satoru')).balance).toBe(50);
  });
});
