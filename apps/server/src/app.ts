import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { constants as zlib } from 'node:zlib';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config/env.ts';
import { sendApiError } from './http/api-error.ts';
import { installErrorHandling } from './http/error-handling.ts';
import { pageRoutes } from './pages/page-routes.ts';
import { loadWebBuild, type WebBuild } from './pages/web-build.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStaticAssets } from './plugins/static-assets.ts';
import { healthRoutes } from './routes/health.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  /** A web build already loaded (tests share one); otherwise read from config.webDistDir. */
  webBuild?: WebBuild;
  /** false silences the logger (tests). */
  logger?: boolean;
}

/**
 * Builds the whole server without listening. The order matters: the security headers and
 * compression first, so every later response (assets, API, pages, errors) carries them; then the
 * static assets; then the API; the page routes last, as their wildcard takes what is left.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const build = options.webBuild ?? (await loadWebBuild(config.webDistDir));

  await registerSecurityHeaders(app, config.mode);
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    // Pages are compressed per request: a fast brotli level, not the maximum the build uses.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  });
  installErrorHandling(app);
  await registerStaticAssets(app, build.assetsDir);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { version: packageJson.version });
      api.all('/*', (_request, reply) =>
        sendApiError(reply, 404, 'not_found', 'There is no such API endpoint.'),
      );
    },
    { prefix: API_BASE_PATH },
  );

  await app.register(pageRoutes, { build, publicOrigin: config.publicOrigin });
  return app;
}
