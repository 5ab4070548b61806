import { aliyunSmsSender, demoSmsSender } from './account-deletion/sms-sender.ts';
import { runAccountDeletionJob } from './account-deletion/deletion-job.ts';
import { defaultPaths } from './config/default-paths.ts';
import { dataPaths } from './config/data-paths.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { openSqliteDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { loadPhoneProtection } from './crypto/phone-keys.ts';

/**
 * `npm run delete-accounts`: runs the account deletion job once, now, on the data the server
 * uses (the server also runs it hourly). Safe to run at any time, and twice.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, defaultPaths(import.meta.url));
  const paths = dataPaths(config.dataDir);
  const db = openSqliteDatabase(paths.database);
  try {
    const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
    await migrateToLatest(db, { phones });
    const report = await runAccountDeletionJob(db, new Date(), {
      paths,
      phones,
      sms: config.sms ? aliyunSmsSender(config.sms) : demoSmsSender(),
      log: (message, details) => {
        console.warn(message, details ?? '');
      },
    });
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
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
