import type { FastifyInstance } from 'fastify';
import { sendServiceUnavailable } from './error-handling.ts';

/**
 * While the server shuts down (SIGTERM, a rolling restart), a request that still reaches it on a
 * connection it had open (a keep-alive or pipelined one) is answered 503 in the site's own shape
 * (the error shape, or the friendly page) and the connection is closed, so the client or nginx
 * tries again elsewhere. Takes the place of Fastify's `return503OnClosing`, whose body is in
 * Fastify's shape; the app turns that off.
 */
export function answerUnavailableWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return sendServiceUnavailable(request, reply);
  });
}
