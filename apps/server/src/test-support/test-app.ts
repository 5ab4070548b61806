import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/env.ts';
import { loadWebBuild, type WebBuild } from '../pages/web-build.ts';

/** The web build the server tests run against (`npm run build` makes it). */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

let webBuild: Promise<WebBuild> | undefined;

/** The real app, built in process as `npm start` builds it, with the logger silenced. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  webBuild ??= loadWebBuild(WEB_DIST_DIR);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env }, WEB_DIST_DIR);
  const app = await buildApp(config, { webBuild: await webBuild, logger: false });
  await app.ready();
  return app;
}
