import { aliyunSmsSender, type SmsSender } from './account-deletion/sms-sender.ts';
import { runAccountDeletionJobAlone } from './account-deletion/deletion-job.ts';
import type { Config } from './config/env.ts';
import { runDataCommand } from './data-command.ts';
import { consoleLog } from './http/logging.ts';
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
void runDataCommand(import.meta.url, async ({ config, paths, db, phones }) => {
  const sms = await smsSenderFor(config);
  let run;
  try {
    run = await runAccountDeletionJobAlone(db, config.database.engine, {
      paths,
      sms,
      phones,
      log: consoleLog,
    });
  } catch (error) {
    if (!isJobInterruption(error)) throw error;
    // Each account is deleted whole or not at all: what this run finished stays done, and the
    // next run (or the servers' hourly one) takes up the rest.
    console.error(
      'Account deletion stopped: the connection to the database was lost. Accounts finished so far are deleted; the others are untouched. Run it again.',
    );
    process.exitCode = 1;
    return;
  }
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
});
