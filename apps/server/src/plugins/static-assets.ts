import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ASSETS_PATH } from '@guquan/contract/site-paths';

/**
 * The build's hashed files: a name changes whenever its content does, so browsers keep each one
 * for a year. The build wrote .br and .gz beside them; these are sent as they are.
 */
export async function registerStaticAssets(app: FastifyInstance, assetsDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: assetsDir,
    prefix: ASSETS_PATH,
    preCompressed: true,
    cacheControl: true,
    maxAge: '365d',
    immutable: true,
    index: false,
    dotfiles: 'deny',
    decorateReply: false,
  });
}
