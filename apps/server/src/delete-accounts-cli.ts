import { aliyunSmsSender, type SmsSender } from './account-deletion/sms-sender.ts';
import { runAccountDeletionJobAlone } from './account-deletion/deletion-job.ts';
import { defaultPaths } from './config/default-paths.ts';
import { configuredPaths } from './config/data-paths.ts';
import { ConfigError, loadConfig, type Config } from './config/env.ts';
import { DatabaseConnectionError, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { loadPhoneProtection } from './crypto/phone-keys.ts';
import { isJobInterruption } from './db/run-alone.ts';

/** Production texts each deleted user; demo mode has only the stand-in, which sends nothing. */
async function smsSenderFor(config: Config): Promise<SmsSender> {
  if (config.sms) return aliyunSmsSender(config.sms);
  const { demoSmsSender } = await import('./demo/demo-sms-sender.ts');
  return demoSmsSender();
}

/**
 * `npm run delete-accounts`: runs the account deletion job once, now, on the data the server
 * uses (the server also runs it hourly). Safe to run at any time, and twice.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, defaultPaths(import.meta.url));
  const paths = configuredPaths(config);
  const db = await openDatabase(config.database);
  try {
    const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
    await migrateToLatest(db, { phones });
    const sms = await smsSenderFor(config);
    const run = await runAccountDeletionJobAlone(db, config.database.engine, {
      paths,
      sms,
      phones,
      log: (message, details) => {
        console.warn(message, details ?? '');
      },
    });
    if (!run.ran) {
      console.log('Account deletion: a server is running the job right now; nothing done.');
      return;
    }
    const report = run.value;
    console.log(
      `Account deletion: ${report.deleted} deleted, ${report.blocked} blocked by open cases, ` +
        `${report.failed} failed (left untouched), ${report.purged} expired records purged; ` +
        `deletion notices: ${report.notices.sent} sent, ${report.notices.retrying} to retry, ` +
        `${report.notices.failed} given up.`,
    );
    if (report.failed > 0) process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseConnectionError) {
    console.error(error.message);
  } else if (isJobInterruption(error)) {
    // Each account is deleted whole or not at all: what this run finished stays done, and the
    // next run (or the servers' hourly one) takes up the rest.
    console.error(
      'Account deletion stopped: the connection to the database was lost. Accounts finished so far are deleted; the others are untouched. Run it again.',
    );
  } else {
    console.error(error);
  }
  process.exit(1);
});
