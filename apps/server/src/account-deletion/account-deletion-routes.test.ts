import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELETION_CODE_CHECK_PATH,
  ACCOUNT_DELETION_CODE_PATH,
  ACCOUNT_DELETION_PATH,
  DEMO_LATEST_SMS_PATH,
  type DeletionError,
  type DeletionOverview,
} from '@guquan/contract/account-deletion';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { SmsSender } from './sms-sender.ts';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import {
  buildTestAppWithDb,
  demoUserRowId,
  type TestAppWithDb,
} from '../test-support/design-test-app.ts';
import { TEST_SMS_ENV, buildTestApp, standInToken } from '../test-support/test-app.ts';

/** The app and a second connection to its database, to look and to move time. */
type Started = TestAppWithDb;

function start(smsSender?: SmsSender): Promise<Started> {
  return buildTestAppWithDb(smsSender ? { smsSender } : {});
}

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.close());

/** The demo log-in; with `authTime`, the app refreshing the token of that log-in. */
async function login(
  user: DemoUserKey,
  { app = s.app, authTime }: { app?: typeof s.app; authTime?: number } = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/demo/sessions`,
    payload: { userId: DEMO_IDS.users[user], authTime },
  });
  expect(response.statusCode).toBe(201);
  return `Bearer ${response.json<{ token: string }>().token}`;
}

const secondsAgo = (seconds: number) => Math.floor(Date.now() / 1000) - seconds;

/** A token of a log-in `ago` seconds ago, issued then. */
async function tokenOf(user: DemoUserKey, ago: number): Promise<string> {
  const at = secondsAgo(ago);
  return `Bearer ${await standInToken(s.app, DEMO_IDS.users[user], { issuedAt: at, authTime: at })}`;
}

const overview = (authorization: string) =>
  s.app.inject({ url: ACCOUNT_DELETION_PATH, headers: { authorization } });
const sendCode = (authorization: string, app = s.app) =>
  app.inject({ method: 'POST', url: ACCOUNT_DELETION_CODE_PATH, headers: { authorization } });
const confirm = (authorization: string, payload: unknown) =>
  s.app.inject({
    method: 'POST',
    url: ACCOUNT_DELETION_PATH,
    headers: { authorization },
    payload: payload as Record<string, unknown>,
  });
const cancel = (authorization: string) =>
  s.app.inject({ method: 'DELETE', url: ACCOUNT_DELETION_PATH, headers: { authorization } });

async function latestCode(authorization: string): Promise<string> {
  const response = await s.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } });
  expect(response.statusCode).toBe(200);
  return response.json<{ code: string }>().code;
}

function errorOf(response: { json: () => unknown }): DeletionError['error'] {
  return (response.json() as DeletionError).error;
}

const userId = (user: DemoUserKey) => demoUserRowId(s.db, user);

/** Moves the user's codes into the past, as if time had passed. */
async function ageCodes(user: DemoUserKey, seconds: number): Promise<void> {
  const id = await userId(user);
  const rows = await s.db
    .selectFrom('sms_codes')
    .select(['id', 'created_at', 'expires_at'])
    .where('user_id', '=', id)
    .execute();
  for (const row of rows) {
    const shift = (iso: string) => new Date(Date.parse(iso) - seconds * 1000).toISOString();
    await s.db
      .updateTable('sms_codes')
      .set({ created_at: shift(row.created_at), expires_at: shift(row.expires_at) })
      .where('id', '=', row.id)
      .execute();
  }
}

function wrongCodeFor(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

describe('authentication', () => {
  const calls = [
    ['GET', ACCOUNT_DELETION_PATH],
    ['POST', ACCOUNT_DELETION_CODE_PATH],
    ['POST', ACCOUNT_DELETION_PATH],
    ['DELETE', ACCOUNT_DELETION_PATH],
    ['GET', DEMO_LATEST_SMS_PATH],
  ] as const;

  it.each([
    ['no token', undefined],
    ['a forged token', `Bearer ${'x'.repeat(43)}`],
    ['a malformed token', 'Bearer short'],
  ])('answers 401 to %s on every endpoint', async (_name, authorization) => {
    for (const [method, url] of calls) {
      const response = await s.app.inject({
        method,
        url,
        headers: authorization ? { authorization } : {},
        ...(method === 'POST' && url === ACCOUNT_DELETION_PATH
          ? { payload: { code: '123456', confirm: true } }
          : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(errorOf(response).code).toBe('unauthorized');
    }
  });

  it('turns a stranger away before reading the body: 401, never a validation error', async () => {
    const response = await s.app.inject({
      method: 'POST',
      url: ACCOUNT_DELETION_PATH,
      payload: { code: 'not a code' },
    });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response).code).toBe('unauthorized');
  });

  it('answers 401 to an expired token and changes nothing', async () => {
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 2 * 60 * 60;
    const token = await standInToken(s.app, DEMO_IDS.users.beika, { issuedAt: twoHoursAgo });
    expect((await sendCode(`Bearer ${token}`)).statusCode).toBe(401);
    const codes = await s.db
      .selectFrom('sms_codes')
      .select('id')
      .where('user_id', '=', await userId('beika'))
      .execute();
    expect(codes).toEqual([]);
  });
});

describe('the overview', () => {
  it('says what is deleted, kept and lost, with the masked phone', async () => {
    const response = await overview(await login('yuyuan'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<DeletionOverview>();
    expect(body.maskedPhone).toBe('138****0001');
    expect(body.content.goods).toBeGreaterThan(0);
    expect(body.blockers).toEqual([]);
    expect(body.request).toBeNull();
    expect(body.coolOffDays).toBe(15);
    expect(body.retained).toContainEqual({ kind: 'goods_and_transactions', months: 36 });
    // yuyuan's own figures: 1200 points left, one design redeemed, no membership.
    expect(body.losses).toEqual({
      points: 1200,
      designs: 1,
      membershipUntil: null,
      renewingSubscription: false,
    });
    expect(body.cancelledByLogin).toBeNull();
    expect(JSON.stringify(body)).not.toContain('13800000001');
  });

  it('names the membership time a member loses, and the subscription that keeps renewing', async () => {
    const body = (await overview(await login('satoru'))).json<DeletionOverview>();
    expect(body.losses).toMatchObject({ points: 120, designs: 0, renewingSubscription: true });
    expect(Date.parse(body.losses.membershipUntil ?? '')).toBeGreaterThan(Date.now());
  });

  it('names the points balance the platform last sent (users.points) as lost', async () => {
    const id = await userId('conductor');
    const { points } = await s.db
      .selectFrom('users')
      .select('points')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    try {
      // As the platform's user.upserted sets it.
      await s.db.updateTable('users').set({ points: 4321 }).where('id', '=', id).execute();
      const body = (await overview(await login('conductor'))).json<DeletionOverview>();
      expect(body.losses.points).toBe(4321);
    } finally {
      await s.db.updateTable('users').set({ points }).where('id', '=', id).execute();
    }
  });

  it('lists the blockers, and a blocked user gets no code and no request', async () => {
    const authorization = await login('karasuno');
    const body = (await overview(authorization)).json<DeletionOverview>();
    expect(body.blockers).toEqual([
      {
        kind: 'exposure_in_review',
        title: expect.any(String) as string,
        since: expect.any(String) as string,
      },
    ]);
    const code = await sendCode(authorization);
    expect(code.statusCode).toBe(409);
    expect(errorOf(code)).toMatchObject({ code: 'deletion_blocked', blockers: body.blockers });
    const confirmed = await confirm(authorization, { code: '123456', confirm: true });
    expect(confirmed.statusCode).toBe(409);
    expect(errorOf(confirmed).code).toBe('deletion_blocked');
  });
});

describe('requesting and cancelling', () => {
  it('verifies the code, creates one request, ends the tokens issued before it, and cancels', async () => {
    // The app's tokens have whole seconds: these were issued (and their user logged in) 10 s ago.
    const other = await tokenOf('chigu', 10);
    const authorization = await tokenOf('chigu', 10);
    const sent = await sendCode(authorization);
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ maskedPhone: '138****0004', resendAfterSeconds: 60 });
    const code = await latestCode(authorization);
    expect(code).toMatch(/^\d{6}$/);

    const wrong = await confirm(authorization, { code: wrongCodeFor(code), confirm: true });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({ code: 'code_wrong', attemptsLeft: 4 });

    const before = Date.now();
    const created = await confirm(authorization, { code, confirm: true });
    expect(created.statusCode).toBe(201);
    const { request } = created.json<{ request: { requestedAt: string; deletesAt: string } }>();
    expect(Date.parse(request.requestedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(request.deletesAt) - Date.parse(request.requestedAt)).toBe(
      15 * 24 * 60 * 60 * 1000,
    );

    // Every token issued before the confirmation is refused, this page's own too.
    expect((await overview(other)).statusCode).toBe(401);
    expect((await overview(authorization)).statusCode).toBe(401);
    // The app hands the page a refreshed token: the same log-in, issued now.
    const refreshed = await login('chigu', { authTime: secondsAgo(10) });
    // A double tap or a retry gets the same request.
    const again = await confirm(refreshed, { code, confirm: true });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ request });
    expect((await overview(refreshed)).json<DeletionOverview>().request).toEqual(request);
    expect(errorOf(await sendCode(refreshed)).code).toBe('deletion_pending');

    expect((await cancel(refreshed)).statusCode).toBe(204);
    expect((await overview(refreshed)).json<DeletionOverview>().request).toBeNull();
    expect((await cancel(refreshed)).statusCode).toBe(204);
    // The used code cannot start a new request.
    const reused = await confirm(refreshed, { code, confirm: true });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused).code).toBe('code_used');
    const rows = await s.db
      .selectFrom('account_deletion_requests')
      .selectAll()
      .where('user_id', '=', await userId('chigu'))
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ cancel_reason: 'user' });
  });

  it('checks a code before the last confirmation: a wrong one at once, a right one unused', async () => {
    // An app of its own: the other tests here spend the demo users' codes.
    const own = await start();
    try {
      const post = (authorization: string, url: string, payload: unknown) =>
        own.app.inject({
          method: 'POST',
          url,
          headers: { authorization },
          payload: payload as Record<string, unknown>,
        });
      const authorization = await login('yuyuan', { app: own.app });
      expect((await sendCode(authorization, own.app)).statusCode).toBe(201);
      const sms = await own.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } });
      const { code } = sms.json<{ code: string }>();
      const wrong = await post(authorization, ACCOUNT_DELETION_CODE_CHECK_PATH, {
        code: wrongCodeFor(code),
      });
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong)).toMatchObject({ code: 'code_wrong', attemptsLeft: 4 });
      const right = await post(authorization, ACCOUNT_DELETION_CODE_CHECK_PATH, { code });
      expect(right.statusCode).toBe(204);
      expect(right.headers['cache-control']).toBe('no-store');
      expect(
        (await post(authorization, ACCOUNT_DELETION_CODE_CHECK_PATH, { code: 'abc' })).statusCode,
      ).toBe(400);
      // Checked, nothing requested: the code still confirms, once.
      const created = await post(authorization, ACCOUNT_DELETION_PATH, { code, confirm: true });
      expect(created.statusCode).toBe(201);
      // The app's refreshed token of the same log-in (a new log-in would withdraw the request).
      const refreshed = await login('yuyuan', { app: own.app, authTime: secondsAgo(10) });
      const pending = await post(refreshed, ACCOUNT_DELETION_CODE_CHECK_PATH, { code });
      expect(errorOf(pending).code).toBe('deletion_pending');
    } finally {
      await own.close();
    }
  });

  it('is cancelled by logging in again', async () => {
    const authorization = await tokenOf('conductor', 10);
    await sendCode(authorization);
    const code = await latestCode(authorization);
    expect((await confirm(authorization, { code, confirm: true })).statusCode).toBe(201);
    // Confirmed 5 s ago: a log-in now has a later auth_time, whole seconds and all.
    await s.db
      .updateTable('account_deletion_requests')
      .set({ requested_at: new Date(Date.now() - 5000).toISOString() })
      .where('user_id', '=', await userId('conductor'))
      .execute();
    const fresh = await login('conductor');
    const after = (await overview(fresh)).json<DeletionOverview>();
    expect(after.request).toBeNull();
    // Said, not silent: the page tells the user their log-in withdrew the request.
    expect(Date.parse(after.cancelledByLogin?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const row = await s.db
      .selectFrom('account_deletion_requests')
      .select(['cancelled_at', 'cancel_reason'])
      .where('user_id', '=', await userId('conductor'))
      .executeTakeFirstOrThrow();
    expect(row.cancel_reason).toBe('login');
  });
});

describe('the demo SMS code', () => {
  it('answers 204 while none was sent (no 404 for the panel to log), then the code', async () => {
    const own = await start();
    try {
      const authorization = await login('beika', { app: own.app });
      const none = await own.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } });
      expect(none.statusCode).toBe(204);
      expect(none.body).toBe('');
      expect(none.headers['cache-control']).toBe('no-store');
      expect((await sendCode(authorization, own.app)).statusCode).toBe(201);
      const sent = await own.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } });
      expect(sent.statusCode).toBe(200);
      expect(sent.json<{ code: string }>().code).toMatch(/^\d{6}$/);
    } finally {
      await own.close();
    }
  });
});

describe('codes', () => {
  it('refuses a missing, expired or exhausted code', async () => {
    const authorization = await login('satoru');
    const none = await confirm(authorization, { code: '123456', confirm: true });
    expect(errorOf(none).code).toBe('code_missing');

    await sendCode(authorization);
    const expiredCode = await latestCode(authorization);
    await ageCodes('satoru', 5 * 60 + 1);
    const expired = await confirm(authorization, { code: expiredCode, confirm: true });
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired).code).toBe('code_expired');

    expect((await sendCode(authorization)).statusCode).toBe(201);
    const code = await latestCode(authorization);
    const wrong = wrongCodeFor(code);
    const left: (number | undefined)[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      left.push(errorOf(await confirm(authorization, { code: wrong, confirm: true })).attemptsLeft);
    }
    expect(left).toEqual([4, 3, 2, 1]);
    const fifth = await confirm(authorization, { code: wrong, confirm: true });
    expect(errorOf(fifth).code).toBe('code_attempts_exceeded');
    // Even the right code is dead now.
    const right = await confirm(authorization, { code, confirm: true });
    expect(right.statusCode).toBe(400);
    expect(errorOf(right).code).toBe('code_attempts_exceeded');
    expect((await overview(authorization)).json<DeletionOverview>().request).toBeNull();
  });

  it('limits codes per user: one a minute, five a day, with the wait', async () => {
    const authorization = await login('satoru');
    await ageCodes('satoru', 3600);
    expect((await sendCode(authorization)).statusCode).toBe(201);
    const soon = await sendCode(authorization);
    expect(soon.statusCode).toBe(429);
    const wait = Number(soon.headers['retry-after']);
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    expect(errorOf(soon)).toMatchObject({ code: 'sms_rate_limited', retryAfterSeconds: wait });

    // Three codes so far today (earlier test); two more, a minute apart, then the day is full.
    for (let sent = 0; sent < 2; sent += 1) {
      await ageCodes('satoru', 61);
      expect((await sendCode(authorization)).statusCode).toBe(201);
    }
    await ageCodes('satoru', 61);
    const full = await sendCode(authorization);
    expect(full.statusCode).toBe(429);
    expect(errorOf(full).retryAfterSeconds).toBeGreaterThan(60 * 60);
  });

  it('limits codes per phone, whichever account it is bound to', async () => {
    const first = await login('yuyuan');
    expect((await sendCode(first)).statusCode).toBe(201);
    // The number moves to another account (say it was rebound).
    await s.db
      .updateTable('users')
      .set({ phone_encrypted: null, phone_index: null })
      .where('id', '=', await userId('yuyuan'))
      .execute();
    await s.db
      .updateTable('users')
      .set({
        phone_encrypted: s.phones.encrypt('+8613800000001'),
        phone_index: s.phones.index('+8613800000001'),
      })
      .where('id', '=', await userId('beika'))
      .execute();
    const second = await login('beika');
    const limited = await sendCode(second);
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited).code).toBe('sms_rate_limited');
    // And the account left without a phone is told to bind one.
    const noPhone = await sendCode(first);
    expect(noPhone.statusCode).toBe(409);
    expect(errorOf(noPhone).code).toBe('no_bound_phone');
  });

  it('refuses malformed bodies and huge ones', async () => {
    const authorization = await login('chigu');
    for (const payload of [
      {},
      { code: '123456' },
      { code: '123456', confirm: false },
      { code: '12345', confirm: true },
      { code: '12345a', confirm: true },
      { code: 123456, confirm: true },
      { code: '123456', confirm: true, userId: DEMO_IDS.users.yuyuan },
    ]) {
      const response = await confirm(authorization, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const huge = await s.app.inject({
      method: 'POST',
      url: ACCOUNT_DELETION_PATH,
      headers: { authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ code: '123456', confirm: true, pad: 'x'.repeat(200_000) }),
    });
    expect(huge.statusCode).toBe(413);
  });
});

describe('guesses at once', () => {
  it('compares at most five guesses against one code, however many arrive together', async () => {
    const own = await start();
    try {
      const authorization = await login('conductor', { app: own.app });
      expect((await sendCode(authorization, own.app)).statusCode).toBe(201);
      const sent = await own.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } });
      const code = sent.json<{ code: string }>().code;
      const guesses = Array.from({ length: 20 }, (_, i) => (i === 7 ? code : wrongCodeFor(code)));
      const answers = await Promise.all(
        guesses.map((guess) =>
          own.app.inject({
            method: 'POST',
            url: ACCOUNT_DELETION_PATH,
            headers: { authorization },
            payload: { code: guess, confirm: true },
          }),
        ),
      );
      const { id } = await own.db
        .selectFrom('users')
        .select('id')
        .where('public_id', '=', DEMO_IDS.users.conductor)
        .executeTakeFirstOrThrow();
      const row = await own.db
        .selectFrom('sms_codes')
        .select('attempts')
        .where('user_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBeLessThanOrEqual(5);

      const outcomes = answers.map((answer) =>
        answer.statusCode === 201 ? 'created' : errorOf(answer).code,
      );
      // Nobody is told "used" (which would say the guess was right without confirming anything).
      for (const outcome of outcomes) {
        expect(['created', 'code_wrong', 'code_attempts_exceeded']).toContain(outcome);
      }
      const compared = outcomes.filter((outcome) => outcome !== 'code_attempts_exceeded');
      expect(compared.length).toBeLessThanOrEqual(5);
      expect(outcomes.filter((outcome) => outcome === 'created').length).toBeLessThanOrEqual(1);
      const pending = await own.db
        .selectFrom('account_deletion_requests')
        .select('id')
        .where('user_id', '=', id)
        .where('cancelled_at', 'is', null)
        .execute();
      // The right guess either confirmed (within the five) or was refused like any other.
      expect(pending.length).toBe(outcomes[7] === 'created' ? 1 : 0);
      if (outcomes[7] !== 'created') {
        const late = await own.app.inject({
          method: 'POST',
          url: ACCOUNT_DELETION_PATH,
          headers: { authorization },
          payload: { code, confirm: true },
        });
        expect(errorOf(late).code).toBe('code_attempts_exceeded');
      }
    } finally {
      await own.close();
    }
  });
});

describe('with a failing SMS provider', () => {
  it('answers 502, and the failed send still counts against the limit', async () => {
    const failing = await start({ send: () => Promise.reject(new Error('provider down')) });
    try {
      const authorization = await login('yuyuan', { app: failing.app });
      const response = await sendCode(authorization, failing.app);
      expect(response.statusCode).toBe(502);
      expect(errorOf(response).code).toBe('sms_failed');
      expect((await sendCode(authorization, failing.app)).statusCode).toBe(429);
    } finally {
      await failing.close();
    }
  });
});

describe('in production mode', () => {
  it('has no demo SMS endpoint', async () => {
    const production = await buildTestApp({
      APP_MODE: 'production',
      PUBLIC_ORIGIN: 'https://www.example.com',
      ...TEST_SMS_ENV,
    });
    try {
      const response = await production.inject({
        url: DEMO_LATEST_SMS_PATH,
        headers: { authorization: `Bearer ${'x'.repeat(43)}` },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe('parallel requests (a burst of taps, or requests reaching several servers)', () => {
  let p: Started;
  beforeAll(async () => {
    p = await start();
  });
  afterAll(() => p.close());

  async function codesOf(user: DemoUserKey) {
    const { id } = await p.db
      .selectFrom('users')
      .select('id')
      .where('public_id', '=', DEMO_IDS.users[user])
      .executeTakeFirstOrThrow();
    return p.db.selectFrom('sms_codes').selectAll().where('user_id', '=', id).execute();
  }

  it('sends one code, however many ask for it at once', async () => {
    const authorization = await login('satoru', { app: p.app });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => sendCode(authorization, p.app)),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([
      201, 429, 429, 429, 429, 429, 429, 429,
    ]);
    expect(await codesOf('satoru')).toHaveLength(1);
  });

  it('counts every guess of a burst, and compares no more than the attempts allow', async () => {
    const authorization = await login('chigu', { app: p.app });
    expect((await sendCode(authorization, p.app)).statusCode).toBe(201);
    const { code } = (
      await p.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } })
    ).json<{ code: string }>();
    const guesses = await Promise.all(
      Array.from({ length: 12 }, () =>
        p.app.inject({
          method: 'POST',
          url: ACCOUNT_DELETION_PATH,
          headers: { authorization },
          payload: { code: wrongCodeFor(code), confirm: true },
        }),
      ),
    );
    const codes = guesses.map((response) => errorOf(response).code);
    expect(codes.filter((name) => name === 'code_wrong')).toHaveLength(4);
    expect(codes.filter((name) => name === 'code_attempts_exceeded')).toHaveLength(8);
    const [stored] = await codesOf('chigu');
    expect(stored?.attempts).toBe(5);
    const right = await p.app.inject({
      method: 'POST',
      url: ACCOUNT_DELETION_PATH,
      headers: { authorization },
      payload: { code, confirm: true },
    });
    expect(errorOf(right).code).toBe('code_attempts_exceeded');
  });

  it('creates one request when the right code is confirmed several times at once', async () => {
    const authorization = await login('conductor', { app: p.app });
    expect((await sendCode(authorization, p.app)).statusCode).toBe(201);
    const { code } = (
      await p.app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } })
    ).json<{ code: string }>();
    // A double or triple tap: every try takes one of the code's five attempts (sms-codes.ts).
    const responses = await Promise.all(
      Array.from({ length: 3 }, () =>
        p.app.inject({
          method: 'POST',
          url: ACCOUNT_DELETION_PATH,
          headers: { authorization },
          payload: { code, confirm: true },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // The others get the same request, or are told the code is used up.
    for (const response of responses) {
      if (response.statusCode !== 201) {
        expect(
          response.statusCode === 200 || errorOf(response).code === 'code_used',
          response.body,
        ).toBe(true);
      }
    }
    const { id } = await p.db
      .selectFrom('users')
      .select('id')
      .where('public_id', '=', DEMO_IDS.users.conductor)
      .executeTakeFirstOrThrow();
    const requests = await p.db
      .selectFrom('account_deletion_requests')
      .selectAll()
      .where('user_id', '=', id)
      .execute();
    expect(requests).toHaveLength(1);
  });
});
