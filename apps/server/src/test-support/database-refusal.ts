import { DatabaseConnectionError, openPostgresDatabase } from '../db/database.ts';

/** The error opening PostgreSQL at `url` stops the start with; throws when it opens. */
export async function refusal(url: string): Promise<DatabaseConnectionError> {
  const error: unknown = await openPostgresDatabase({ url, poolSize: 1 }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof DatabaseConnectionError)) throw new Error(`not refused: ${String(error)}`);
  return error;
}
