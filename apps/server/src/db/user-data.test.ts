import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foreignKeys, liveTables, userReferringColumns } from '../test-support/live-schema.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { TABLES_CHILDREN_FIRST, userColumnsOf, userDataOf, type TableName } from './user-data.ts';

/**
 * The list of a user's data (user-data.ts) against the schema the migrations build, on the tests'
 * engine: a migration that adds a table, or a column referring to a user, fails here until the
 * list says what becomes of it when an account is deleted.
 */
const LIST = 'apps/server/src/db/user-data.ts';
const FATES =
  "{ fate: 'deleted' } (the deletion job deletes the user's rows), " +
  "{ fate: 'anonymized', why: '…' } (the row stays with the anonymized account), or " +
  "{ fate: 'kept', retention: '<RetainedKind>' } (kept by law for RETENTION's period, " +
  'packages/contract/src/account-deletion.ts, as the privacy policy says in 8.2; the job must ' +
  'then purge it)';

let data: TestDatabase;
beforeAll(async () => {
  data = await openTestDatabase({ seed: false });
});
afterAll(async () => {
  await data.close();
});

function isListed(table: string): table is TableName {
  return (TABLES_CHILDREN_FIRST as readonly string[]).includes(table);
}

describe('the list of a user’s data', () => {
  it('lists every table the migrations build, and no other', async () => {
    const tables = await liveTables(data.db);
    const unlisted = tables
      .filter((table) => !isListed(table))
      .map(
        (table) =>
          `${LIST}: add USER_DATA.${table} (before the tables it refers to): ` +
          `{ user: { <column>: … } } for each column holding a user's id, with ${FATES}; ` +
          `{ through: { <column>: '<parent table>' } } for rows that are a user's through a row of theirs; ` +
          `or { noUserColumn: '<what it holds>' } when no column refers to a user`,
      );
    expect(unlisted).toEqual([]);
    expect([...TABLES_CHILDREN_FIRST].sort()).toEqual(tables);
  });

  it('lists children before their parents (the order deletions and the demo wipe take)', async () => {
    const position = (table: string) => TABLES_CHILDREN_FIRST.indexOf(table as TableName);
    const misplaced = (await foreignKeys(data.db))
      .filter((key) => key.table !== key.parent && position(key.table) > position(key.parent))
      .map((key) => `${LIST}: move USER_DATA.${key.table} before USER_DATA.${key.parent}`);
    expect(misplaced).toEqual([]);
  });

  it('says what becomes of every column that refers to a user', async () => {
    const columns = await userReferringColumns(data.db);
    const unclassified = columns
      .filter(({ table, column }) => !isListed(table) || !userDataOf(table).user?.[column])
      .map(
        ({ table, column }) =>
          `${LIST}: ${table}.${column} refers to a user: add USER_DATA.${table}.user.${column} = ${FATES}`,
      );
    expect(unclassified).toEqual([]);

    const live = new Set(columns.map(({ table, column }) => `${table}.${column}`));
    const stale = TABLES_CHILDREN_FIRST.flatMap((table) =>
      userColumnsOf(table).map(([column]) => `${table}.${column}`),
    ).filter((column) => !live.has(column));
    expect(stale, 'classified as holding a user id, but not one in the schema').toEqual([]);
  });

  it('reaches a user’s rows through a foreign key to the parent named', async () => {
    const keys = new Set(
      (await foreignKeys(data.db)).map((key) => `${key.table}.${key.column}>${key.parent}`),
    );
    const unreachable = TABLES_CHILDREN_FIRST.flatMap((table) =>
      Object.entries(userDataOf(table).through ?? {}).map(
        ([column, parent]) => `${table}.${column}>${parent ?? ''}`,
      ),
    ).filter((through) => !keys.has(through));
    expect(unreachable).toEqual([]);
  });
});
