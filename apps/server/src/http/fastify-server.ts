import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from '../config/env.ts';
import { sendApiError } from './api-error.ts';
import { handleClientError } from './client-errors.ts';
import { loggerOptions, logOneLinePerRequest, type LogDestination } from './logging.ts';
import { REQUEST_ID_HEADER, requestIdGenerator } from './request-id.ts';
import { rewriteToOriginForm } from './request-target.ts';
import { SERVER_TIMEOUTS, serverTimeoutOptions, type ServerTimeouts } from './server-timeouts.ts';

const BODY_LIMIT_BYTES = 64 * 1024;

export interface ServerLogging {
  /** false silences the logger (tests). */
  enabled?: boolean;
  /** Where log lines go instead of stdout (tests read them): JSON lines, or readable with `pretty`. */
  stream?: LogDestination;
  pretty?: boolean;
}

/**
 * The Fastify instance every route runs in, before any route: its logger, request ids (every
 * answer names its request, so a report can be matched to the logs), the client timeouts, the
 * body limit, zod validation, and the one error shape for what fails before any handler.
 */
export async function createFastifyServer(
  config: Config,
  {
    logging = {},
    timeouts = SERVER_TIMEOUTS,
  }: { logging?: ServerLogging; timeouts?: ServerTimeouts },
): Promise<FastifyInstance> {
  const logger =
    logging.enabled === false
      ? false
      : await loggerOptions(
          config,
          logging.stream ? { stream: logging.stream, pretty: logging.pretty === true } : undefined,
        );
  const prettyLogs =
    logger !== false && (logging.stream ? logging.pretty === true : config.logFormat === 'pretty');
  const app = Fastify({
    logger,
    // Readable logs say one line per request (logOneLinePerRequest) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: prettyLogs }),
    genReqId: requestIdGenerator(config.trustProxy),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    ...serverTimeoutOptions(timeouts),
    // Our own 503 while closing, in the site's shapes: http/closing.ts.
    return503OnClosing: false,
    // `GET http://host/path HTTP/1.1` is routed and handled as `/path` (http/request-target.ts).
    rewriteUrl: rewriteToOriginForm,
    // Long enough that an oversized id still reaches its route and is answered as invalid there.
    routerOptions: { maxParamLength: 1000 },
    // Errors the router raises before any handler (a malformed percent-encoding) get the one
    // error shape too, without echoing the URL back.
    frameworkErrors: (_error, _request, reply) => {
      sendApiError(reply, 400, 'bad_request', 'The address is malformed.');
    },
    // And those Node's parser raises before any request exists (bad header, long URL, timeout).
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  if (prettyLogs) logOneLinePerRequest(app);
  return app;
}
