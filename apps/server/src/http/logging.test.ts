import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-app.ts';

/** Readable lines for a person (demo mode), JSON lines for a log collector (production). */
async function logsOf(pretty: boolean, env: Record<string, string> = {}): Promise<string[]> {
  const lines: string[] = [];
  const app = await buildTestApp(
    { LOG_LEVEL: 'info', ...env },
    {
      logStream: { write: (line) => lines.push(...line.split('\n').filter(Boolean)) },
      prettyLogs: pretty,
    },
  );
  await app.inject('/anime_merch_web/api/v1/health');
  await app.close();
  return lines;
}

describe('logs', () => {
  it('in readable form: one short line per request, with the start of its id', async () => {
    const lines = await logsOf(true);
    const requests = lines.filter((line) => line.includes('/anime_merch_web/api/v1/health'));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\] INFO: \[[0-9a-f]{8}\] GET \/anime_merch_web\/api\/v1\/health 200 in \d+ ms$/,
    );
    expect(lines.every((line) => !line.startsWith('{'))).toBe(true);
  });

  it('as JSON lines, each request with its id', async () => {
    const lines = await logsOf(false);
    const entries = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    // The demo community's deliveries are requests too: this test's is the health check.
    const health = entries.find((entry) => JSON.stringify(entry).includes('/health'))?.reqId;
    const request = entries.filter(
      (entry) => entry.msg === 'request completed' && entry.reqId === health,
    );
    expect(request).toHaveLength(1);
    expect(request[0]?.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
