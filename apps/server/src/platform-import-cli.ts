import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { runDataCommand } from './data-command.ts';
import type { EventFileOutcome } from './platform-import/event-file-run.ts';
import { progressLine, progressWriter } from './platform-import/import-progress.ts';
import {
  deliverEventFile,
  importEventFile,
  localSteps,
} from './platform-import/platform-import.ts';
import { RemoteRefusal } from './platform-import/signed-delivery.ts';

const USAGE = `Usage: npm run platform:import -- FILE [--to ORIGIN]

Applies FILE's events (one JSON object { "type", "data" } a line) to the site's database, as
the platform's deliveries are applied, a few thousand to a transaction. With --to ORIGIN, sends
them to that site's events endpoint instead, signed with the first of PLATFORM_WEBHOOK_SECRETS,
500 to a delivery. Ctrl-C stops after the current transaction or delivery; running the same
command again goes on (versions make what was applied ignored). See docs/platform.md.`;

/** Exit codes: 0 done, 1 a bad line or a failure, 2 a bad command line, 130 stopped (Ctrl-C). */
const EXIT = { refused: 1, failed: 1, usage: 2, stopped: 130 } as const;

const progress = progressWriter(process.stderr);
let stopRequested = false;

function onSignal(): void {
  if (stopRequested) process.exit(EXIT.stopped);
  stopRequested = true;
  progress.done();
  console.error('Stopping after the current batch… (Ctrl-C again to quit at once)');
}

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

const count = new Intl.NumberFormat('en-US');

function summary(outcome: EventFileOutcome, verb: string): string {
  if (outcome.lastLine === 0) return `no line was ${verb}`;
  return (
    `${count.format(outcome.events)} events of lines 1–${outcome.lastLine} ${verb}: ` +
    `${count.format(outcome.applied)} applied, ${count.format(outcome.ignored)} ignored ` +
    `(not above the version the site has, or of a type it does not know)`
  );
}

function report(outcome: EventFileOutcome, verb: string): void {
  progress.done();
  switch (outcome.kind) {
    case 'done':
      console.error(`Done. ${summary(outcome, verb)}.`);
      return;
    case 'stopped':
      console.error(
        `Stopped after line ${outcome.lastLine}. ${summary(outcome, verb)}. ` +
          'Run the same command again to go on: what was applied is ignored the second time.',
      );
      process.exitCode = EXIT.stopped;
      return;
    case 'refused': {
      const { line, path, message } = outcome.refusal;
      // A whole line's fault (not UTF-8, too long, not JSON) names the line alone.
      const where = path === '(line)' ? `Line ${line}` : `Line ${line}, ${path}:`;
      console.error(
        `${where} ${message}. Its batch (lines ${outcome.lastLine + 1}–${line} so far) ` +
          `was not ${verb}. Before it, ${summary(outcome, verb)}. ` +
          'Correct the line and run the same command again.',
      );
      process.exitCode = EXIT.refused;
      return;
    }
    case 'failed': {
      const { first, last } = outcome.lines;
      const { error } = outcome;
      const why =
        error instanceof RemoteRefusal && error.line
          ? `the site refused line ${error.line.line}, ${error.line.path}: ${error.line.message} (${error.refused.status} ${error.refused.code})`
          : error instanceof Error
            ? error.message
            : String(error);
      console.error(
        `Lines ${first}–${last} were not ${verb}: ${why}. Before them, ${summary(outcome, verb)}.`,
      );
      process.exitCode = EXIT.failed;
      return;
    }
  }
}

/** The origin of --to: scheme, host and port only. */
function originOf(value: string): string {
  if (!URL.canParse(value))
    fail(`--to ${value}: not a URL (e.g. https://www.example.com)`, EXIT.usage);
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search) {
    fail(`--to ${value}: must be a site's origin, http(s)://host[:port]`, EXIT.usage);
  }
  return url.origin;
}

/** The first of PLATFORM_WEBHOOK_SECRETS: the one the platform signs with. */
function signingSecret(): string {
  const secret = (process.env.PLATFORM_WEBHOOK_SECRETS ?? '').split(',')[0]?.trim() ?? '';
  if (secret === '') {
    fail(
      '--to needs PLATFORM_WEBHOOK_SECRETS: the secret the site verifies deliveries with (whsec_<base64>)',
      EXIT.usage,
    );
  }
  try {
    new Webhook(secret);
  } catch {
    fail('PLATFORM_WEBHOOK_SECRETS: the first secret is not whsec_<base64>', EXIT.usage);
  }
  return secret;
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { to: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`, EXIT.usage);
  }
  if (parsed.values.help) fail(USAGE, 0);
  const [given, ...extra] = parsed.positionals;
  if (given === undefined || extra.length > 0) fail(USAGE, EXIT.usage);
  // npm runs the script at the repository's root: a relative path is the caller's.
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const found = await stat(file).catch(() => null);
  if (!found?.isFile()) fail(`${file}: no such file`, EXIT.usage);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const controls = {
    file,
    stopRequested: () => stopRequested,
    onProgress: (at: Parameters<typeof progressLine>[0]) => {
      progress.update(progressLine(at));
    },
  };

  if (parsed.values.to !== undefined) {
    const origin = originOf(parsed.values.to);
    const outcome = await deliverEventFile({
      ...controls,
      target: {
        origin,
        secret: signingSecret(),
        onRetry: (why, waitMs) => {
          progress.done();
          console.error(
            `Delivery failed (${why}); trying again in ${Math.round(waitMs / 1000)} s.`,
          );
        },
      },
    });
    report(outcome, `delivered to ${origin}`);
    return;
  }

  await runDataCommand(import.meta.url, async ({ config, db, phones }) => {
    const mediaOrigins = config.platform?.mediaOrigins ?? [];
    if (mediaOrigins.length === 0) {
      console.error(
        'No PLATFORM_MEDIA_ORIGINS: an event with an image is refused (set the PLATFORM_* settings).',
      );
    }
    const outcome = await importEventFile({
      ...controls,
      ...localSteps(db, { phones, mediaOrigins }),
    });
    report(outcome, 'applied');
  });
}

void main();
