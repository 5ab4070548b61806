/** Which database the server uses: SQLite in DATA_DIR (the default) or PostgreSQL. */
export type DatabaseConfig =
  | { engine: 'sqlite'; file: string }
  | {
      engine: 'postgres';
      /** DATABASE_URL: may hold a password, so it is never logged; see describeDatabaseUrl. */
      url: string;
      /** DATABASE_POOL_SIZE: connections this server keeps at most. */
      poolSize: number;
    };

const POSTGRES_PROTOCOLS = new Set(['postgres:', 'postgresql:']);

/** Why DATABASE_URL cannot be used, without repeating it; undefined when it can. */
export function databaseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a postgres:// or postgresql:// URL (unset it to use SQLite in DATA_DIR)';
  }
  if (!POSTGRES_PROTOCOLS.has(url.protocol)) {
    return `must be a postgres:// or postgresql:// URL, not ${url.protocol}// (unset it to use SQLite in DATA_DIR)`;
  }
  if (url.hostname === '' && !url.searchParams.has('host')) return 'names no host';
  if (url.pathname.length <= 1) return 'names no database (postgres://user@host/database)';
  return undefined;
}

/** The database a URL points at, for messages: user, host, port and database, never a password. */
export function describeDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
    return `${user}${host}:${url.port || '5432'}/${decodeURIComponent(url.pathname.slice(1))}`;
  } catch {
    return '(an unreadable URL)';
  }
}
