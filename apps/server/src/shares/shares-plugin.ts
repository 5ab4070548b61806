import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Db } from '../db/database.ts';
import { recentShareReads, SHARE_REUSE_SECONDS } from './recent-share-reads.ts';
import { createShareReader, shareRepositories, type ShareReader } from './share-reader.ts';
import { shareRoutes } from './share-routes.ts';
import { shelfRoutes } from './shelf-routes.ts';
import { createWorkShelfReader, type WorkShelfReader } from './work-shelf-reader.ts';

/**
 * The shared items (goods, cabinets, notes): their API, and the one reader the share pages, their
 * pictures and posters read through, each item at most once a second (recent-share-reads.ts); the
 * shelf that ends their pages (work-shelf-reader.ts), as often.
 */
export async function registerShares(
  app: FastifyInstance,
  { db }: { db: Db },
): Promise<{ shares: ShareReader; shelves: WorkShelfReader }> {
  const reader = createShareReader(shareRepositories(db));
  await app.register(shareRoutes, { prefix: API_BASE_PATH, shares: reader });
  const shares = recentShareReads(reader, SHARE_REUSE_SECONDS * 1000);
  const shelves = createWorkShelfReader(db, SHARE_REUSE_SECONDS * 1000);
  await app.register(shelfRoutes, { prefix: API_BASE_PATH, shares, shelves });
  return { shares, shelves };
}
