import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './env.ts';
import {
  ROTATING_SECRET_SETTINGS,
  SECRET_SETTINGS,
  secretFilesOf,
  withSecretFiles,
  type Env,
} from './secret-files.ts';
import { rotateSecrets, secretRotationOf } from './secret-rotation.ts';

/**
 * When a running server reads its secrets again: on SIGHUP, and when a secret's file (`X_FILE`)
 * changes. Kubernetes updates a mounted Secret by swapping a link in its folder, so the folders
 * are watched, not the files (only their secrets' names and Kubernetes's `..` entries count); a
 * change is taken up a moment later (`settleMs`), once the writer is done. A configuration that no longer reads (a file half-written, a malformed secret) is
 * logged and ignored: the secrets in use stay until a valid one is read.
 */
export interface SecretReloadOptions {
  env: Env;
  /** Reads the whole configuration again (loadConfig), or throws saying why. */
  readConfig: () => Config;
  /** Whether SIGHUP reloads (production, or any `X_FILE` given); otherwise it keeps its default. */
  onSighup: boolean;
  settleMs?: number;
}

const SETTLE_MS = 200;

/** The secrets that are read once, at start: a change to their file needs a restart. */
function fixedSecretsOf(env: Env): Map<string, string | undefined> {
  const { env: resolved } = withSecretFiles(env);
  return new Map(
    SECRET_SETTINGS.filter((name) => !ROTATING_SECRET_SETTINGS.includes(name)).map((name) => [
      name,
      resolved[name],
    ]),
  );
}

/** Starts watching; returns how to stop (the app's close does it). */
export function reloadSecretsOnChange(
  app: FastifyInstance,
  { env, readConfig, onSighup, settleMs = SETTLE_MS }: SecretReloadOptions,
): () => void {
  const atStart = fixedSecretsOf(env);

  const reload = (trigger: 'SIGHUP' | 'file') => {
    let next: Config;
    try {
      next = readConfig();
    } catch (error) {
      app.log.error(
        { trigger, problem: error instanceof Error ? error.message : String(error) },
        'secrets read again but not taken up (the configuration is invalid): those in use stay',
      );
      return;
    }
    const parts = secretRotationOf(app);
    const changed = parts ? rotateSecrets(parts, next) : [];
    app.log.info(
      { trigger, changed },
      changed.length > 0 ? `secrets rotated: ${changed.join(', ')}` : 'secrets read again',
    );
    const now = fixedSecretsOf(env);
    const needRestart = [...atStart].filter(([name, value]) => now.get(name) !== value);
    if (needRestart.length > 0) {
      app.log.warn(
        { settings: needRestart.map(([name]) => name) },
        'these secrets changed; they are read at start only: restart the server to use them',
      );
    }
  };

  // Once per change, a moment after it began (not put off by a folder that keeps changing).
  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      reload('file');
    }, settleMs).unref();
  };
  const paths = [...secretFilesOf(env).values()];
  const names = new Set(paths.map((path) => basename(path)));
  // A secret's own name, or Kubernetes's `..data` link and its `..2026_…` folders.
  const concerns = (name: string | null) =>
    name === null || names.has(name) || name.startsWith('..');
  const watchers: FSWatcher[] = [];
  for (const folder of new Set(paths.map((path) => dirname(path)))) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (concerns(name)) soon();
      });
      watcher.on('error', (error) => {
        app.log.warn({ err: error, folder }, 'a secrets folder can no longer be watched');
      });
      watchers.push(watcher);
    } catch (error) {
      app.log.warn(
        { err: error, folder },
        'a secrets folder cannot be watched: SIGHUP still works',
      );
    }
  }
  const sighup = () => {
    reload('SIGHUP');
  };
  if (onSighup) process.on('SIGHUP', sighup);
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
    process.off('SIGHUP', sighup);
  };
}
