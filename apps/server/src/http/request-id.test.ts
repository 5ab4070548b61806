import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../test-support/test-app.ts';
import { requestIdGenerator } from './request-id.ts';
import type { IncomingMessage } from 'node:http';

/** Ids from nginx (a trusted proxy) are kept; anyone else's are replaced by the server's own. */
function incoming(remoteAddress: string, id?: string): IncomingMessage {
  return {
    headers: id === undefined ? {} : { 'x-request-id': id },
    socket: { remoteAddress },
  } as unknown as IncomingMessage;
}

describe('requestIdGenerator', () => {
  const NGINX_ID = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

  it('keeps the id of a trusted proxy, by address or network, IPv4 on a dual-stack socket too', () => {
    const generate = requestIdGenerator(['127.0.0.1', '10.0.0.0/8']);
    expect(generate(incoming('127.0.0.1', NGINX_ID))).toBe(NGINX_ID);
    expect(generate(incoming('::ffff:10.1.2.3', NGINX_ID))).toBe(NGINX_ID);
  });

  it('makes its own for anyone else, for a missing id and for one it would not log as is', () => {
    const generate = requestIdGenerator(['127.0.0.1']);
    expect(generate(incoming('203.0.113.5', NGINX_ID))).not.toBe(NGINX_ID);
    expect(generate(incoming('127.0.0.1'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(generate(incoming('127.0.0.1', 'bad id\nwith a newline'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(generate(incoming('127.0.0.1', 'x'.repeat(200)))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdGenerator(false)(incoming('127.0.0.1', NGINX_ID))).not.toBe(NGINX_ID);
  });
});

describe('a server behind nginx', () => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    app = await buildTestApp(
      { TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' },
      { logStream: { write: (line) => lines.push(line) } },
    );
  });
  afterAll(() => app.close());

  it('logs nginx’s id, answers with it, and names it in an error answer', async () => {
    const id = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    // An answer nobody keeps (no-store): a shared cache's copy of a refusal (a share's 404) must
    // not hand one visitor's id to the next, so those carry none.
    const answer = await app.inject({
      url: '/anime_merch_web/api/v1/membership',
      headers: { 'x-request-id': id },
      remoteAddress: '127.0.0.1',
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.headers['x-request-id']).toBe(id);
    expect(answer.json()).toMatchObject({ error: { requestId: id } });
    const shared = await app.inject({
      url: '/anime_merch_web/api/v1/goods/BmsOP1ywckU0CmUx',
      headers: { 'x-request-id': id },
      remoteAddress: '127.0.0.1',
    });
    expect(shared.statusCode).toBe(404);
    expect(shared.json()).not.toHaveProperty('error.requestId');
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    expect(logged.filter((line) => line.reqId === id).length).toBeGreaterThanOrEqual(1);
  });
});
