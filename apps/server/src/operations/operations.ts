import type { FastifyInstance } from 'fastify';
import { buildOperationsApp, type OperationsOptions } from './ops-app.ts';

/**
 * The operators' listener belongs to one app: it says "not ready" from the moment the app starts
 * closing, and closes after it. server.ts makes it listen on OPS_HOST:OPS_PORT; tests inject.
 */
const operationsApps = new WeakMap<FastifyInstance, FastifyInstance>();

export async function attachOperations(
  app: FastifyInstance,
  options: OperationsOptions,
): Promise<FastifyInstance> {
  const ops = await buildOperationsApp(options);
  operationsApps.set(app, ops);
  app.addHook('preClose', (done) => {
    options.readiness.markShuttingDown();
    done();
  });
  app.addHook('onClose', () => ops.close());
  return ops;
}

/** The operators' listener of an app, or undefined when OPS_PORT is off. */
export function operationsOf(app: FastifyInstance): FastifyInstance | undefined {
  return operationsApps.get(app);
}
