import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './folder-graph.ts';

/**
 * Who queries the database (docs/architecture.md, "Server"): the data modules only — `db/`, a
 * feature's `<area>-repository.ts`, and a module named after the one thing it keeps or does to
 * its tables (`sms-codes.ts`, `handoff-store.ts`, `waiting-images.ts`). Routes, plugins, pages,
 * the HTTP layer and the authenticator never do: they call those, so a change to a table is
 * read in one place (issue 40, item 6).
 */
const SERVER = join(ROOT, 'apps/server/src');

/** A query: Kysely's four builders, or raw SQL. */
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/;

/** Code that answers requests or wires features, which must not query: its path says so. */
function mayNotQuery(path: string): boolean {
  if (path.endsWith('-repository.ts')) return false;
  return (
    /-(routes|plugin)\.tsx?$/.test(path) ||
    /^(http|pages|plugins|auth)\//.test(path) ||
    path === 'app.ts' ||
    path === 'app-startup.ts'
  );
}

describe('database access', () => {
  it('tells a query from other code', () => {
    expect(QUERY.test("await db.selectFrom('users')")).toBe(true);
    expect(QUERY.test('await sql`select 1`.execute(db)')).toBe(true);
    expect(QUERY.test("import { sql } from 'kysely';")).toBe(false);
    expect(mayNotQuery('designs/design-routes.ts')).toBe(true);
    expect(mayNotQuery('auth/auth-repository.ts')).toBe(false);
    expect(mayNotQuery('designs/redemption-service.ts')).toBe(false);
  });

  it('happens in no route, plugin, page, HTTP module or the authenticator', () => {
    const offenders = sourceFiles(SERVER)
      .map((file) => relative(SERVER, file).split(sep).join('/'))
      .filter((path) => mayNotQuery(path) && QUERY.test(readFileSync(join(SERVER, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
