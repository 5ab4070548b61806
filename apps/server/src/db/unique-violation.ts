/**
 * Whether a database error is a unique constraint refusing a row: SQLite (better-sqlite3) names
 * it by code, PostgreSQL by SQLSTATE 23505. Used to tell "a parallel request got there first"
 * apart from real failures.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}
