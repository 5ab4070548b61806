import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { DataPaths } from '../config/data-paths.ts';
import type { DatabaseConfig } from '../config/database-config.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import type { DesignRepository } from '../designs/design-repository.ts';
import type { Authenticator } from '../auth/user-authenticator.ts';
import { schedulePeriodicWork } from '../plugins/periodic-work.ts';
import { accountDeletionRoutes } from './account-deletion-routes.ts';
import { DELETION_JOB_INTERVAL_MS, runAccountDeletionJobAlone } from './deletion-job.ts';
import { deletionLosses } from './deletion-losses.ts';
import type { SmsSender } from './sms-sender.ts';

export interface AccountDeletionPluginOptions {
  db: Db;
  engine: DatabaseConfig['engine'];
  paths: DataPaths;
  phones: PhoneProtection;
  sms: SmsSender;
  auth: Authenticator;
  designs: DesignRepository;
  /** Told of each run of the job that went to its end (operations/metrics.ts). */
  onJobDone?: (at: Date, deleted: number) => void;
}

/**
 * Deleting an account (docs/decisions/0006-account-deletion.md): the page's API, the hourly job
 * that deletes what is due (the outbox, outbox/, then tells each deleted user and the platform).
 */
export async function registerAccountDeletion(
  app: FastifyInstance,
  { db, engine, paths, phones, sms, auth, designs, onJobDone }: AccountDeletionPluginOptions,
): Promise<void> {
  // Every server schedules the job; on PostgreSQL one at a time runs it (the others skip).
  schedulePeriodicWork(app, {
    name: 'the account deletion job',
    intervalMs: DELETION_JOB_INTERVAL_MS,
    run: async () => {
      const run = await runAccountDeletionJobAlone(db, engine, {
        paths,
        sms,
        phones,
        log: app.log,
      });
      if (run.ran) onJobDone?.(new Date(), run.value.deleted);
    },
  });
  await app.register(accountDeletionRoutes, {
    prefix: API_BASE_PATH,
    db,
    losses: deletionLosses(db, designs),
    auth,
    sms,
    phones,
  });
}
