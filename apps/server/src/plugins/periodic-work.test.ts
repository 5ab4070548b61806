import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { schedulePeriodicWork } from './periodic-work.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/** A server whose error log lines are collected. */
function serverWithLog() {
  const lines: { msg: string; work?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string; work?: string });
      done();
    },
  });
  return { app: Fastify({ logger: { level: 'error', stream } }), lines };
}

describe('schedulePeriodicWork', () => {
  it('logs a failure under the name of the work that failed, and keeps the others going', async () => {
    const { app, lines } = serverWithLog();
    const deletions = vi.fn(() => Promise.resolve());
    schedulePeriodicWork(app, {
      name: 'the account deletion job',
      run: deletions,
      intervalMs: 60_000,
      firstRunDelayMs: 0,
    });
    schedulePeriodicWork(app, {
      name: 'the text outbox',
      run: () => Promise.reject(new Error('the SMS provider is down')),
      intervalMs: 60_000,
      firstRunDelayMs: 0,
    });
    await app.ready();
    await vi.waitFor(() => {
      expect(lines.map((line) => line.msg)).toEqual(['the text outbox failed']);
    }, EVENTUALLY);
    expect(lines[0]?.work).toBe('the text outbox');
    expect(deletions).toHaveBeenCalledOnce();
    await app.close();
  });

  it('waits for a run in progress when the server closes, and starts no other', async () => {
    const { app } = serverWithLog();
    let finish: () => void = () => undefined;
    const run = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    schedulePeriodicWork(app, { name: 'a slow job', run, intervalMs: 5, firstRunDelayMs: 0 });
    await app.ready();
    await vi.waitFor(() => {
      expect(run).toHaveBeenCalledOnce();
    }, EVENTUALLY);
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(run).toHaveBeenCalledOnce();
  });
});
