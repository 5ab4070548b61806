import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { API_BASE_PATH, BASE_PATH } from '@guquan/contract/site-paths';
import { installErrorHandling } from './error-handling.ts';
import { writeUnavailableFiles } from './unavailable-page.ts';

describe("nginx's 503 files", () => {
  it('are what a server answers while the database is away, page and body', async () => {
    const app = Fastify();
    installErrorHandling(app);
    const away = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    app.get(`${API_BASE_PATH}/things`, away);
    app.get(`${BASE_PATH}/website`, away);
    const dir = await mkdtemp(join(tmpdir(), 'guquan-errors-'));
    try {
      await writeUnavailableFiles(dir);
      const page = await app.inject(`${BASE_PATH}/website`);
      expect(page.statusCode).toBe(503);
      // The same page, less the server's line with the request's id (nginx has none).
      expect(page.body).toContain('Reference: <code>');
      expect(await readFile(join(dir, '503.html'), 'utf8')).toBe(
        page.body.replace(/<p><small>.*<\/small><\/p>\n/, ''),
      );
      const api = await app.inject(`${API_BASE_PATH}/things`);
      expect(api.statusCode).toBe(503);
      const { requestId, ...served } = api.json<{ error: { requestId?: string } }>().error;
      expect(requestId).toBeTruthy();
      expect(JSON.parse(await readFile(join(dir, '503.json'), 'utf8'))).toEqual({ error: served });
    } finally {
      await rm(dir, { recursive: true, force: true });
      await app.close();
    }
  });
});
