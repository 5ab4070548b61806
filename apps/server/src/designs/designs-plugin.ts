import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { SessionRepository } from '../auth/session-repository.ts';
import type { Db } from '../db/database.ts';
import { designRepository, type DesignRepository } from './design-repository.ts';
import { designRoutes } from './design-routes.ts';

/** Design drawings and their redemption with points: the API; answers the repository. */
export async function registerDesigns(
  app: FastifyInstance,
  { db, sessions }: { db: Db; sessions: SessionRepository },
): Promise<DesignRepository> {
  const designs = designRepository(db);
  await app.register(designRoutes, { prefix: API_BASE_PATH, designs, sessions });
  return designs;
}
