import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { Db } from '../db/database.ts';
import { designRepository, type DesignRepository } from './design-repository.ts';
import { designRoutes } from './design-routes.ts';

/** Design drawings and their redemption with points: the API; answers the repository. */
export async function registerDesigns(
  app: FastifyInstance,
  { db, auth }: { db: Db; auth: Authenticator },
): Promise<DesignRepository> {
  const designs = designRepository(db);
  await app.register(designRoutes, { prefix: API_BASE_PATH, designs, auth });
  return designs;
}
