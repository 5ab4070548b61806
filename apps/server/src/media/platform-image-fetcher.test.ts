import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.ts';
import type { Log } from '../http/logging.ts';
import {
  startMediaHost,
  testImage,
  truncatedImage,
  bytesAnswer,
  drippingAnswer,
  type MediaHost,
} from '../test-support/media-host.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { imageRow, insertWaitingImage } from '../test-support/waiting-image-rows.ts';
import {
  createPlatformImageFetcher,
  retryDelayMs,
  type FetcherLimits,
  type ImageFetchOutcome,
  type PlatformImageFetcher,
} from './platform-image-fetcher.ts';

// The fetcher on its own, against a media host on loopback (docs/decisions/0023-platform-images.md).

let data: TestDatabase;
let host: MediaHost;
let fetchers: PlatformImageFetcher[];
let outcomes: ImageFetchOutcome[];
let logged: { details: object; message: string }[];

const log: Log = {
  info: (details, message) => logged.push({ details, message }),
  warn: (details, message) => logged.push({ details, message }),
};

function startFetcher(
  limits: Partial<FetcherLimits> = {},
  origins = [host.origin],
  db: Db = data.db,
) {
  const fetcher = createPlatformImageFetcher({
    db,
    mediaDir: data.paths.media,
    origins,
    log,
    observer: { fetched: (outcome) => outcomes.push(outcome) },
    limits: { pollMs: 50, ...limits },
  });
  fetchers.push(fetcher);
  fetcher.start();
  return fetcher;
}

/**
 * `db`, whose first update that makes an image ready fails as a busy or broken database would
 * (better-sqlite3 and pg throw), after the file is stored.
 */
function failingFirstReady(db: Db): Db {
  let failed = false;
  const chain = (builder: object, ready: boolean): object =>
    new Proxy(builder, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property === 'executeTakeFirst' && ready && !failed)
          return () => {
            failed = true;
            return Promise.reject(Object.assign(new Error('disk I/O error'), { code: 'EIO' }));
          };
        return (...args: unknown[]) => {
          const result: unknown = Reflect.apply(value, target, args);
          const makesReady =
            ready || (property === 'set' && (args[0] as { state?: unknown }).state === 'ready');
          return result !== null && typeof result === 'object' && !(result instanceof Promise)
            ? chain(result, makesReady)
            : result;
        };
      },
    });
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, target, args);
        return property === 'updateTable' && result !== null && typeof result === 'object'
          ? chain(result, false)
          : result;
      };
    },
  });
}

beforeEach(async () => {
  data = await openTestDatabase({ seed: false });
  host = await startMediaHost();
  fetchers = [];
  outcomes = [];
  logged = [];
});

afterEach(async () => {
  for (const fetcher of fetchers) await fetcher.stop();
  await host.close();
  await data.close();
});

describe('the platform image fetcher', () => {
  it('keeps JPEG, PNG, WebP and AVIF as their bytes say, whatever the Content-Type', async () => {
    const rows = [];
    for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
      host.serve(`/${format}`, bytesAnswer(await testImage(format), 'application/octet-stream'));
      rows.push({ format, ...(await insertWaitingImage(data.db, host.url(`/${format}`))) });
    }
    startFetcher();
    for (const row of rows) {
      const stored = await vi.waitFor(async () => {
        const image = await imageRow(data.db, row.id);
        expect(image.state).toBe('ready');
        return image;
      }, EVENTUALLY);
      expect(stored.fetch_error).toBeNull();
      expect(stored.fetch_after).toBeNull();
      expect(stored.file_name).toMatch(new RegExp(`^${row.publicId}-[0-9a-f]{8}\\.`));
      const metadata = await sharp(join(data.paths.media, stored.file_name)).metadata();
      expect(metadata.width).toBe(64);
    }
    expect(outcomes).toEqual(['ready', 'ready', 'ready', 'ready']);
  });

  it('refuses bytes that are no image it takes, and logs the origin only', async () => {
    host.serve('/secret/path/not-an-image.jpg', bytesAnswer(Buffer.from('<html>nope</html>')));
    host.serve(
      '/secret/path/drawing.svg',
      bytesAnswer(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')),
    );
    const html = await insertWaitingImage(data.db, host.url('/secret/path/not-an-image.jpg'));
    const svg = await insertWaitingImage(data.db, host.url('/secret/path/drawing.svg'));
    startFetcher();
    for (const { id } of [html, svg]) {
      await vi.waitFor(async () => {
        expect((await imageRow(data.db, id)).state).toBe('failed');
      }, EVENTUALLY);
      expect((await imageRow(data.db, id)).fetch_error).toBe('not a JPEG, PNG, WebP or AVIF image');
    }
    expect(host.requests('/secret/path/not-an-image.jpg')).toBe(1);
    expect(outcomes).toEqual(['failed', 'failed']);
    const lines = JSON.stringify(logged);
    expect(lines).toContain(host.origin);
    expect(lines).not.toContain('/secret/path');
    expect(await readdir(data.paths.media).catch(() => [])).toEqual([]);
  });

  it(
    'takes an image only once it decodes whole: a broken one is retried, then refused',
    {
      timeout: 15_000,
    },
    async () => {
      const rows = [];
      for (const format of ['jpeg', 'png'] as const) {
        const bytes = await truncatedImage(format);
        // The header is fine: the format is told, the size read; only the pixels break off.
        expect((await sharp(bytes).metadata()).width).toBe(256);
        host.serve(`/broken.${format}`, bytesAnswer(bytes, `image/${format}`));
        rows.push(await insertWaitingImage(data.db, host.url(`/broken.${format}`)));
      }
      startFetcher({ retry: { firstDelayMs: 20, maxDelayMs: 40, maxAttempts: 2 } });
      for (const { id } of rows) {
        await vi.waitFor(
          async () => {
            expect((await imageRow(data.db, id)).state).toBe('failed');
          },
          { timeout: 5_000 },
        );
        const row = await imageRow(data.db, id);
        expect(row.fetch_attempts).toBe(2);
        expect(row.fetch_error).toMatch(/^could not be decoded: /);
      }
      expect(host.requests('/broken.jpeg')).toBe(2);
      expect(outcomes.sort()).toEqual(['failed', 'failed', 'retry', 'retry']);
      expect(await readdir(data.paths.media).catch(() => [])).toEqual([]);
    },
  );

  it('stops reading past 20 MB, with or without a Content-Length', async () => {
    const total = 64 * 1024 * 1024;
    let sent = 0;
    let finished = false;
    host.serve('/huge-chunked', (_request, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(256 * 1024, 0xff);
      const write = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', write);
            return;
          }
        }
        finished = true;
        response.end();
      };
      write();
    });
    host.serve('/huge-declared', (_request, response) => {
      response.writeHead(200, { 'content-length': 21 * 1024 * 1024 });
      response.write(Buffer.alloc(1024));
    });
    const chunked = await insertWaitingImage(data.db, host.url('/huge-chunked'));
    const declared = await insertWaitingImage(data.db, host.url('/huge-declared'));
    startFetcher();
    for (const { id } of [chunked, declared]) {
      await vi.waitFor(async () => {
        expect((await imageRow(data.db, id)).state).toBe('failed');
      }, EVENTUALLY);
      expect((await imageRow(data.db, id)).fetch_error).toBe('larger than 20971520 bytes');
    }
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(total);
  });

  it('follows redirects within the media origins, never off them, and not forever', async () => {
    const elsewhere = await startMediaHost();
    try {
      const image = await testImage('png');
      host.serve('/moved', (_request, response) => {
        response.writeHead(302, { location: '/here.png' }).end();
      });
      host.serve('/here.png', bytesAnswer(image, 'image/png'));
      host.serve('/away', (_request, response) => {
        response.writeHead(301, { location: elsewhere.url('/there.png') }).end();
      });
      elsewhere.serve('/there.png', bytesAnswer(image, 'image/png'));
      host.serve('/loop', (_request, response) => {
        response.writeHead(307, { location: '/loop' }).end();
      });
      const moved = await insertWaitingImage(data.db, host.url('/moved'));
      const away = await insertWaitingImage(data.db, host.url('/away'));
      const loop = await insertWaitingImage(data.db, host.url('/loop'));
      startFetcher();
      await vi.waitFor(async () => {
        expect((await imageRow(data.db, moved.id)).state).toBe('ready');
      }, EVENTUALLY);
      await vi.waitFor(async () => {
        expect((await imageRow(data.db, away.id)).state).toBe('failed');
      }, EVENTUALLY);
      expect((await imageRow(data.db, away.id)).fetch_error).toBe(
        'redirected off the media origins',
      );
      expect(elsewhere.requests('/there.png')).toBe(0);
      await vi.waitFor(async () => {
        expect((await imageRow(data.db, loop.id)).state).toBe('failed');
      }, EVENTUALLY);
      expect((await imageRow(data.db, loop.id)).fetch_error).toBe('too many redirects');
      // The first request and three hops.
      expect(host.requests('/loop')).toBe(4);
    } finally {
      await elsewhere.close();
    }
  });

  it('fetches nothing off the media origins, even a row that names another host', async () => {
    const other = await insertWaitingImage(data.db, 'http://127.0.0.1:9/elsewhere.jpg');
    startFetcher();
    await vi.waitFor(async () => {
      expect((await imageRow(data.db, other.id)).state).toBe('failed');
    }, EVENTUALLY);
    expect((await imageRow(data.db, other.id)).fetch_error).toBe('not on the media origins');
  });

  it('tries again with back-off after failures, then keeps the image', async () => {
    const image = await testImage('jpeg');
    let asked = 0;
    const times: number[] = [];
    host.serve('/flaky.jpg', (_request, response) => {
      asked += 1;
      times.push(Date.now());
      if (asked <= 2) response.writeHead(503).end();
      else response.writeHead(200).end(image);
    });
    const row = await insertWaitingImage(data.db, host.url('/flaky.jpg'));
    startFetcher({ retry: { firstDelayMs: 200, maxDelayMs: 60_000, maxAttempts: 5 } });
    await vi.waitFor(async () => {
      expect((await imageRow(data.db, row.id)).state).toBe('ready');
    }, EVENTUALLY);
    const stored = await imageRow(data.db, row.id);
    expect(stored.fetch_attempts).toBe(3);
    expect(stored.fetch_error).toBeNull();
    expect(outcomes).toEqual(['retry', 'retry', 'ready']);
    const [first = 0, second = 0, third = 0] = times;
    // 200 ms, then four times as long (a fifth of jitter either way).
    expect(second - first).toBeGreaterThanOrEqual(150);
    expect(third - second).toBeGreaterThanOrEqual(600);
  });

  it('keeps no file it could not record, and tries again soon', async () => {
    host.serve('/kept.jpg', bytesAnswer(await testImage('jpeg'), 'image/jpeg'));
    const row = await insertWaitingImage(data.db, host.url('/kept.jpg'));
    startFetcher(
      { retry: { firstDelayMs: 20, maxDelayMs: 40, maxAttempts: 5 } },
      [host.origin],
      failingFirstReady(data.db),
    );
    await vi.waitFor(async () => {
      expect((await imageRow(data.db, row.id)).state).toBe('ready');
    }, EVENTUALLY);
    const stored = await imageRow(data.db, row.id);
    expect(stored.fetch_attempts).toBe(2);
    expect(outcomes).toEqual(['retry', 'ready']);
    expect(host.requests('/kept.jpg')).toBe(2);
    // One original: the file of the attempt that was not recorded is gone.
    expect(await readdir(data.paths.media)).toEqual([stored.file_name]);
    expect(JSON.stringify(logged)).toContain('could not be recorded (EIO)');
  });

  it('gives up after the last attempt: failed, with the reason kept', async () => {
    host.serve('/gone.jpg', (_request, response) => {
      response.writeHead(404).end();
    });
    const row = await insertWaitingImage(data.db, host.url('/gone.jpg'));
    startFetcher({ retry: { firstDelayMs: 20, maxDelayMs: 40, maxAttempts: 3 } });
    await vi.waitFor(async () => {
      expect((await imageRow(data.db, row.id)).state).toBe('failed');
    }, EVENTUALLY);
    expect(await imageRow(data.db, row.id)).toMatchObject({
      fetch_attempts: 3,
      fetch_error: 'answered 404',
      fetch_after: null,
    });
    expect(host.requests('/gone.jpg')).toBe(3);
    expect(outcomes).toEqual(['retry', 'retry', 'failed']);
  });

  it('waits from a few seconds up to an hour between attempts', () => {
    const policy = { firstDelayMs: 5_000, maxDelayMs: 3_600_000, maxAttempts: 10 };
    const delays = [1, 2, 3, 4, 5, 6, 9].map((attempt) => retryDelayMs(policy, attempt));
    const [first = 0] = delays;
    expect(first).toBeGreaterThanOrEqual(4_000);
    expect(first).toBeLessThanOrEqual(6_000);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(3_600_000 * 1.2);
    expect(delays.at(-1)).toBeGreaterThanOrEqual(3_600_000 * 0.8);
  });

  it('starts at once when woken, without waiting for its poll', async () => {
    host.serve('/woken.webp', bytesAnswer(await testImage('webp'), 'image/webp'));
    const fetcher = startFetcher({ pollMs: 60_000 });
    // Its first look found nothing; the row comes after it, as a delivery's would.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = await insertWaitingImage(data.db, host.url('/woken.webp'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(host.requests('/woken.webp')).toBe(0);
    fetcher.wake();
    // Far less than the 60 s poll, however slow the machine: the wake started it, not the poll.
    await vi.waitFor(
      async () => {
        expect((await imageRow(data.db, row.id)).state).toBe('ready');
      },
      { ...EVENTUALLY, interval: 20 },
    );
  });

  it('takes a few at a time per server', async () => {
    let active = 0;
    let most = 0;
    // Each answer is held until the test lets it go: what overlaps does not hang on speed.
    const held: (() => void)[] = [];
    const image = await testImage('webp');
    for (let index = 0; index < 8; index++) {
      host.serve(`/slow-${index}.webp`, async (_request, response) => {
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => held.push(resolve));
        active -= 1;
        response.writeHead(200).end(image);
      });
      await insertWaitingImage(data.db, host.url(`/slow-${index}.webp`));
    }
    startFetcher();
    await vi.waitFor(() => {
      expect(active).toBe(3);
    }, EVENTUALLY);
    // It polls every 50 ms: a fourth would have been asked for by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(most).toBe(3);
    await vi.waitFor(() => {
      for (const release of held.splice(0)) release();
      expect(outcomes).toHaveLength(8);
    }, EVENTUALLY);
    expect(most).toBe(3);
  });

  it('lets no dripping host keep the next image waiting past its slot', async () => {
    // In order: what ended first. Three hosts drip a byte a second; a normal image comes after.
    const events: string[] = [];
    const drippers = [];
    for (let index = 0; index < 3; index++) {
      const path = `/drip-${index}.jpg`;
      host.serve(
        path,
        drippingAnswer(() => events.push('a dripper hung up')),
      );
      drippers.push(await insertWaitingImage(data.db, host.url(path)));
    }
    host.serve('/normal.png', bytesAnswer(await testImage('png'), 'image/png'));
    const normal = await insertWaitingImage(data.db, host.url('/normal.png'));
    // The shipped limits: three slots, 2 s each, three places aside, 16 KiB/s over 5 s.
    startFetcher();
    await vi.waitFor(
      async () => {
        expect((await imageRow(data.db, normal.id)).state).toBe('ready');
      },
      // Far below the 30 s time limit a dripper could hold a slot for before.
      { timeout: 15_000, interval: 50 },
    );
    events.push('the normal image arrived');
    // The drippers went on aside and are abandoned for their rate, to be tried again later.
    await vi.waitFor(
      () => {
        expect(outcomes.filter((outcome) => outcome === 'retry')).toHaveLength(3);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(events[0]).toBe('the normal image arrived');
    expect(outcomes).toEqual(['ready', 'retry', 'retry', 'retry']);
    for (const { id } of drippers) {
      const row = await imageRow(data.db, id);
      expect(row).toMatchObject({ state: 'waiting', fetch_attempts: 1 });
      expect(row.fetch_error).toMatch(/^too slow: \d bytes in 5 s/);
    }
  }, 40_000);

  it('resumes a fetch whose server died once its lease runs out', async () => {
    const answer = bytesAnswer(await testImage('png'), 'image/png');
    let askedAt = 0;
    host.serve('/resumed.png', (request, response) => {
      askedAt ||= Date.now();
      return answer(request, response);
    });
    const row = await insertWaitingImage(data.db, host.url('/resumed.png'));
    // As a server that took it and died left it: its lease runs 1.5 s more.
    const leaseEnds = Date.now() + 1_500;
    await data.db
      .updateTable('images')
      .set({ fetch_attempts: 1, fetch_after: new Date(leaseEnds).toISOString() })
      .where('id', '=', row.id)
      .execute();
    startFetcher();
    await vi.waitFor(async () => {
      expect((await imageRow(data.db, row.id)).state).toBe('ready');
    }, EVENTUALLY);
    // Asked once, and not before the lease ran out, however slow the machine (issue 42).
    expect(askedAt).toBeGreaterThanOrEqual(leaseEnds);
    expect((await imageRow(data.db, row.id)).fetch_attempts).toBe(2);
    expect(host.requests('/resumed.png')).toBe(1);
  });

  it('gives its rows back when it stops, so the next start takes them at once', async () => {
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const image = await testImage('jpeg');
    let answered = 0;
    host.serve('/later.jpg', async (_request, response) => {
      if (answered++ === 0) await hanging;
      response.writeHead(200).end(image);
    });
    const row = await insertWaitingImage(data.db, host.url('/later.jpg'));
    const first = startFetcher({ leaseMs: 60_000 });
    await vi.waitFor(() => {
      expect(host.requests('/later.jpg')).toBe(1);
    }, EVENTUALLY);
    await first.stop();
    release();
    expect(await imageRow(data.db, row.id)).toMatchObject({
      state: 'waiting',
      fetch_after: null,
      fetch_attempts: 0,
    });
    startFetcher({ leaseMs: 60_000 });
    await vi.waitFor(async () => {
      expect((await imageRow(data.db, row.id)).state).toBe('ready');
    }, EVENTUALLY);
  });
});
