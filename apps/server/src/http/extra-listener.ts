import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { handleClientError } from './client-errors.ts';
import { SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts.ts';

/**
 * One more port for the same app (demo mode's link domain on PORT + 1): the app's own routing,
 * hooks and error handling answer every request, with the same client timeouts as the main
 * listener. Returns a function that closes it: idle connections at once, the rest after their
 * answers.
 */
export async function listenAlsoOn(
  app: FastifyInstance,
  address: { host: string; port: number },
  timeouts: ServerTimeouts = SERVER_TIMEOUTS,
): Promise<{ server: Server; close: () => Promise<void> }> {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      keepAliveTimeout: timeouts.keepAliveMs,
    },
    (request, response) => {
      app.routing(request, response);
    },
  );
  server.timeout = timeouts.idleMs;
  server.on('clientError', handleClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: address.host, port: address.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
