import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Db } from '../db/database.ts';
import {
  sessionRepository,
  type SessionRepositoryOptions,
  type SessionRepository,
} from './session-repository.ts';
import { sessionRoutes } from './session-routes.ts';

export interface AuthPluginOptions {
  db: Db;
  /** What other features do when a user logs in (in the log-in's transaction). */
  onLogin: NonNullable<SessionRepositoryOptions['onLogin']>;
}

/** Sessions (`requireUser` is the one auth hook): their API; answers the repository. */
export async function registerAuth(
  app: FastifyInstance,
  { db, onLogin }: AuthPluginOptions,
): Promise<SessionRepository> {
  const sessions = sessionRepository(db, { onLogin });
  await app.register(sessionRoutes, { prefix: API_BASE_PATH, sessions });
  return sessions;
}
