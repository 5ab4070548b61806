import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { funnelQuerySchema } from '@guquan/contract/funnel';
import { FUNNEL_RETENTION_DAYS } from '@guquan/contract/funnel-events';
import { firstIssues } from '../config/zod-issues.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { requestLanguage } from '../http/request-language.ts';
import { daySpan, funnelDayOf } from '../funnel/funnel-days.ts';
import { funnelCounts, funnelReport } from '../funnel/funnel-report.ts';
import { lastOutboxFailures, outboxBacklog } from '../outbox/outbox-repository.ts';
import { readPageQuery } from './funnel-page-query.ts';
import type { Metrics } from './metrics.ts';
import {
  FUNNEL_API_PATH,
  OPERATORS_PAGE_PATH,
  OPERATORS_STYLESHEET,
  OPERATORS_STYLESHEET_PATH,
  operatorsPage,
} from './operators-page.ts';
import type { Readiness } from './readiness.ts';

/**
 * The operators' listener: a second Fastify instance on OPS_HOST:OPS_PORT, never the public port
 * and never behind nginx's public server. Prometheus scrapes `/metrics`; orchestrators and load
 * balancers ask `/health/live` and `/health/ready`; people read the funnel at `/funnel` and its
 * JSON at `/api/funnel`. Nothing here names a visitor: the funnel holds sums only (docs/decisions/0018-share-funnel-and-operators-listener.md).
 */
export const METRICS_PATH = '/metrics';
export const LIVE_PATH = '/health/live';
export const READY_PATH = '/health/ready';

export interface OperationsOptions {
  metrics: Metrics;
  readiness: Readiness;
  db: Db;
  /** The site's public origin: the operators' page links items to their share pages there. */
  publicOrigin: string;
  logger: FastifyBaseLogger;
  now?: () => Date;
}

const SECURITY_HEADERS = {
  // No script at all; the page's one stylesheet is its own; its one form comes back to it.
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
} as const;

export async function buildOperationsApp({
  metrics,
  readiness,
  db,
  publicOrigin,
  logger,
  now = () => new Date(),
}: OperationsOptions): Promise<FastifyInstance> {
  // Prometheus asks every few seconds: its requests are not logged.
  const ops = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  ops.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(SECURITY_HEADERS);
    done(null, payload);
  });
  ops.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, 'an operators’ request failed');
    return sendApiError(reply, 500, 'internal_error', 'Something went wrong.');
  });
  ops.setNotFoundHandler((_request, reply) =>
    sendApiError(reply, 404, 'not_found', 'There is nothing at this address.'),
  );

  ops.get(METRICS_PATH, async (_request, reply) => {
    const text = await metrics.exposition();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
  ops.get(LIVE_PATH, (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'live' }),
  );
  ops.get(READY_PATH, async (_request, reply) => {
    const report = await readiness.check();
    return reply
      .code(report.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: report.ready ? 'ready' : 'unavailable', ...report });
  });

  ops.get('/', (_request, reply) => reply.redirect(OPERATORS_PAGE_PATH, 302));
  // Browsers ask for one; the operators' pages have none.
  ops.get('/favicon.ico', (_request, reply) => reply.code(204).send());
  ops.get(OPERATORS_STYLESHEET_PATH, (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(OPERATORS_STYLESHEET),
  );
  ops.get(OPERATORS_PAGE_PATH, async (request, reply) => {
    const { language } = requestLanguage(request);
    const at = now();
    const asked = readPageQuery(request.query, at);
    const report = asked.ok ? await funnelReport(db, asked.query.scope) : undefined;
    const outbox = {
      backlog: await outboxBacklog(db, at),
      failures: await lastOutboxFailures(db),
    };
    const page = operatorsPage({
      report,
      form: asked.form,
      problems: asked.ok ? [] : asked.problems,
      scale: asked.ok ? asked.query.scale : 'log',
      today: funnelDayOf(at),
      outbox,
      language,
      publicOrigin,
    });
    // A refused period: the page says why, above the form, as a 400.
    return reply
      .code(asked.ok ? 200 : 400)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page);
  });
  ops.get(FUNNEL_API_PATH, async (request, reply) => {
    const query = funnelQuerySchema.safeParse(request.query);
    if (!query.success) {
      const detail = firstIssues(query.error, '(query)');
      return sendApiError(reply, 400, 'bad_request', `Invalid query: ${detail}`);
    }
    if (daySpan(query.data.from, query.data.to) > FUNNEL_RETENTION_DAYS) {
      return sendApiError(
        reply,
        400,
        'bad_request',
        `Invalid query: at most ${FUNNEL_RETENTION_DAYS} days at once`,
      );
    }
    return reply.header('cache-control', 'no-store').send(await funnelCounts(db, query.data));
  });
  await ops.ready();
  return ops;
}
