import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userDataOf, type TableName, type UserDataFate } from '../db/user-data.ts';
import { DEMO_PHONES } from '../demo/seed/demo-account-deletion.ts';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import { appAccountToken } from '../membership/membership-repository.ts';
import { countRows, liveColumns, userReferringColumns } from '../test-support/live-schema.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { deliverPlatformEvents } from '../outbox/event-channel.ts';
import { runAccountDeletionJob, type DeletionJobReport } from './deletion-job.ts';
import { createRequest } from './deletion-requests.ts';
import { issueCode } from './sms-codes.ts';
import type { SmsMessage } from './sms-sender.ts';

/**
 * After the deletion job has deleted every demo account, the walk reads every table, on the
 * tests' engine (SQLite, then PostgreSQL): a deleted user's id is left only in the columns the
 * list of a user's data (db/user-data.ts) says the law keeps or that stay with the anonymized
 * account, and the users' old public ids, phone numbers and their blind indexes are nowhere.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const REQUESTED = new Date('2025-12-01T08:00:00.000Z');
const DUE = new Date(REQUESTED.getTime() + 15 * DAY_MS + 1000);
const USERS = Object.keys(DEMO_IDS.users) as DemoUserKey[];

let t: TestDatabase;
let ids: number[];
/** What identified the users before the job, as text. */
let identifiers: string[];
let before: Map<string, number>;
let report: DeletionJobReport;
let sent: SmsMessage[];
/** The events the platform heard: the outbox delivered, its payloads are wiped. */
let heard: { type: string }[];

/** Rows holding one of the deleted users' ids, per user-referring column (`table.column`). */
async function rowsOfUsers(): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  for (const { table, column } of await userReferringColumns(t.db)) {
    held.set(`${table}.${column}`, await countRows(t.db, table, { column, values: ids }));
  }
  return held;
}

function fateOf(tableColumn: string): UserDataFate | undefined {
  const [table = '', column = ''] = tableColumn.split('.');
  return userDataOf(table as TableName).user?.[column];
}

beforeAll(async () => {
  t = await openTestDatabase();
  const users = await t.db
    .selectFrom('users')
    .select(['id', 'public_id', 'phone_index'])
    .where('public_id', 'in', Object.values(DEMO_IDS.users))
    .execute();
  ids = users.map((user) => user.id);
  identifiers = [
    ...users.flatMap((user) => [user.public_id, user.phone_index ?? '']),
    ...Object.values(DEMO_PHONES),
  ].filter(Boolean);
  // The investigation that blocks one of them is over: every account can go, and the closed
  // cases stay for their period.
  await t.db
    .updateTable('account_cases')
    .set({ status: 'closed', closed_at: REQUESTED.toISOString() })
    .where('status', '=', 'open')
    .execute();
  // What each user has besides the demo content: an App Store token, a code.
  for (const key of USERS) {
    const user = users.find((row) => row.public_id === DEMO_IDS.users[key]);
    if (!user) throw new Error(`No demo user ${key}`);
    await appAccountToken(t.db, user.id, REQUESTED);
    const code = await issueCode(t.db, t.phones, user.id, DEMO_PHONES[key], REQUESTED);
    expect(code.ok).toBe(true);
    await createRequest(t.db, user.id, REQUESTED);
  }
  before = await rowsOfUsers();
  sent = [];
  report = await runAccountDeletionJob(t.db, DUE, {
    paths: t.paths,
    phones: t.phones,
    sms: { send: (message) => Promise.resolve(void sent.push(message)) },
  });
  // The platform is told (account.deleted and what came before); once it has heard, the events
  // that named the users are gone from the outbox too.
  heard = [];
  await deliverPlatformEvents(t.db, {
    secret: () => `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    now: () => DUE,
    post: ({ body }) => {
      heard.push(...(JSON.parse(String(body)) as { events: { type: string }[] }).events);
      return Promise.resolve({ status: 200, body: '' });
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('after the deletion job', () => {
  it('has deleted every account and told each user', () => {
    expect(report).toMatchObject({ deleted: USERS.length, blocked: 0, failed: 0 });
    expect(sent).toHaveLength(USERS.length);
    expect(heard.filter((event) => event.type === 'account.deleted')).toHaveLength(USERS.length);
  });

  it("finds a user's id only where the list says the law keeps it, or the anonymized account", async () => {
    const after = await rowsOfUsers();
    const left = [...after]
      .filter(([, rows]) => rows > 0)
      .map(([column]) => `${column}: ${fateOf(column)?.fate ?? 'not in db/user-data.ts'}`)
      .sort();
    expect(left.filter((entry) => !/: (kept|anonymized)$/.test(entry))).toEqual([]);
    // The walk saw every column of the list hold the users' ids, before the job or after it.
    const unseen = [...after.keys()].filter(
      (column) => (before.get(column) ?? 0) + (after.get(column) ?? 0) === 0,
    );
    expect(unseen, 'give the walk a row of a demo user in these columns').toEqual([]);
    expect(left.length).toBeGreaterThan(0);
  });

  it('finds no old public id, phone number or blind index of theirs in any text column', async () => {
    const textColumns = (await liveColumns(t.db)).filter(({ dataType }) =>
      /char|text|clob/.test(dataType),
    );
    expect(textColumns.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const { table, column } of textColumns) {
      const matches = sql.join(
        identifiers.map((value) => sql`${sql.ref(column)} like ${`%${value}%`}`),
        sql` or `,
      );
      const result = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)} where ${matches}`.execute(t.db);
      if (Number(result.rows[0]?.n ?? 0) > 0) found.push(`${table}.${column}`);
    }
    expect(found).toEqual([]);
  });
});
