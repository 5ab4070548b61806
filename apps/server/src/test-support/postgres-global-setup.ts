import type { TestProject } from 'vitest/node';
import { createDatabase, startPostgres } from '../../../../tests/support/postgres-server.ts';
import { openPostgresDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { phoneProtection } from '../crypto/phone-protection.ts';
import { TEST_PHONE_KEYS } from './test-phone-keys.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway PostgreSQL of project `server-postgres` (test-engine.ts uses it). */
    postgres: { adminUrl: string; template: string };
  }
}

const TEMPLATE = 'guquan_template';

/** TEST_POSTGRES_PORTS=18590-18599 keeps the server in a range; any free port otherwise. */
function portsFromEnv(): number | [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(process.env.TEST_POSTGRES_PORTS ?? '');
  if (!match) return 0;
  const from = Number(match[1]);
  return [from, Number(match[2] ?? from)];
}

/**
 * Starts one PostgreSQL for all the server tests of the run, with a migrated template database
 * each test's data directory copies (CREATE DATABASE … TEMPLATE: a few milliseconds), and stops
 * it at the end, leaving no process behind.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres({ ports: portsFromEnv() });
  try {
    await createDatabase(server.url('postgres'), TEMPLATE);
    const db = await openPostgresDatabase({ url: server.url(TEMPLATE), poolSize: 1 });
    try {
      // The template holds no phone number, so any key serves its (empty) encryption step.
      await migrateToLatest(db, { phones: phoneProtection(TEST_PHONE_KEYS) });
    } finally {
      await db.destroy();
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  project.provide('postgres', { adminUrl: server.url('postgres'), template: TEMPLATE });
  return () => server.stop();
}
