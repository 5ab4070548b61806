import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Writable } from 'node:stream';
import type { Config } from '../config/env.ts';

/**
 * Logs for who reads them: JSON lines for a log collector (production), and one short readable
 * line per event for a person at a terminal (`npm start` in demo mode: pino-pretty, loaded only
 * then). Every line of a request carries its id (`reqId`, request-id.ts).
 */
type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

const REDACTED = ['req.headers.authorization', 'req.headers.cookie'];

/**
 * What a part of the server logs through: the server's own logger (`app.log`, pino) in the
 * server, `consoleLog` in a command. Details first, then the message, as pino takes them.
 */
export interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** A command's log (npm run delete-accounts): the message, then its details. */
export const consoleLog: Log = {
  info: (details, message) => {
    console.log(message, details);
  },
  warn: (details, message) => {
    console.warn(message, details);
  },
};

export interface LogDestination {
  write(line: string): void;
}

/** pino-pretty writes to a stream: one that hands each chunk to `destination`. */
function writableTo(destination: LogDestination): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      destination.write(chunk.toString('utf8'));
      done();
    },
  });
}

export async function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  /** Where lines go instead of stdout (tests): JSON, or readable lines with `pretty`. */
  destination?: { stream: LogDestination; pretty?: boolean },
): Promise<LoggerOptions> {
  const base = { level: config.logLevel, redact: REDACTED };
  const pretty = destination ? destination.pretty === true : config.logFormat === 'pretty';
  if (!pretty) return destination ? { ...base, stream: destination.stream } : base;
  const { default: prettyStream } = await import('pino-pretty');
  return {
    ...base,
    stream: prettyStream({
      colorize: destination ? false : process.stdout.isTTY,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      // `[abcd1234] GET /… 200 in 3 ms`: the id's start is enough to find the other lines.
      messageFormat: (log, messageKey) => {
        const id = typeof log.reqId === 'string' ? `[${log.reqId.slice(0, 8)}] ` : '';
        const message = log[messageKey];
        return `${id}${typeof message === 'string' ? message : ''}`;
      },
      ...(destination ? { destination: writableTo(destination.stream) } : {}),
    }),
  };
}

/**
 * Readable logs say one line per request (Fastify's own request logging, two JSON lines with
 * the whole request and response, is off then).
 */
export function logOneLinePerRequest(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      `${request.method} ${request.url} ${reply.statusCode} in ${Math.round(reply.elapsedTime)} ms`,
    );
    done();
  });
}
