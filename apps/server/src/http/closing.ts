import type { Socket } from 'node:net';
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
  const closeSilent = trackSilentConnections(app);
  app.addHook('preClose', (done) => {
    closing = true;
    closeSilent();
    lingerIdleConnections(app);
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return sendServiceUnavailable(request, reply);
  });
}

/**
 * How long a kept-alive connection that is idle when the shutdown begins stays open. A client (a
 * proxy's pool of connections) may have sent its next request on it already, still unread in the
 * kernel's buffer: Node's close ended such a connection at once, and the unread request made the
 * kernel answer with a reset, so the request was lost without an answer (issue 38, found by the
 * image's test under load: 8 of 8 kept connections reset). Lingering, the request is read and
 * answered 503 with `Connection: close` (above), and the client goes elsewhere.
 */
const IDLE_LINGER_MS = 1_000;

/** From now on, Node's closing of idle connections waits IDLE_LINGER_MS (once). */
function lingerIdleConnections(app: FastifyInstance): void {
  const server = app.server;
  const closeIdleNow = server.closeIdleConnections.bind(server);
  let timer: NodeJS.Timeout | undefined;
  // Node's server.close() and Fastify's close both call this method of the server.
  server.closeIdleConnections = () => {
    if (timer) return;
    timer = setTimeout(closeIdleNow, IDLE_LINGER_MS);
    server.once('close', () => {
      clearTimeout(timer);
    });
  };
}

/** How often, while closing, connections that have said nothing are looked for again. */
const SILENT_SWEEP_MS = 250;

/**
 * Connections that have not sent a byte: a browser's preconnect, or one opened just as the
 * shutdown began. Node's close ends idle keep-alive connections but counts these as waiting for
 * their first request, so each would hold the shutdown until the headers timeout (10 s). They
 * carry nothing, so closing them loses nothing; a connection part-way through its headers is left
 * to finish. Returns what starts closing them (now, and any that open until the server is gone).
 */
function trackSilentConnections(app: FastifyInstance): () => void {
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  const sweep = () => {
    for (const socket of unused) if (socket.bytesRead === 0) socket.destroy();
  };
  return () => {
    sweep();
    const timer = setInterval(sweep, SILENT_SWEEP_MS);
    app.server.once('close', () => {
      clearInterval(timer);
    });
  };
}
