import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { newPublicId } from '../db/public-id.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { insertWaitingImage } from '../test-support/waiting-image-rows.ts';
import { sweepMediaDisk } from './disk-sweep.ts';

/**
 * The copies another server made of an image whose row went (an account deleted through one
 * server): every server removes its own on its sweep, and nothing that is still an image, or was
 * written a moment ago, goes with them.
 */
let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const HOUR_AGO = new Date(Date.now() - 60 * 60_000);

async function put(path: string, old: boolean): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, 'bytes');
  if (old) await utimes(path, HOUR_AGO, HOUR_AGO);
}

it("removes this server's copies of images whose rows are gone, and only those", async () => {
  t = await openTestDatabase({ seed: false });
  const mediaDir = join(t.dataDir, 'own', 'media');
  const mediaCacheDir = join(t.dataDir, 'own', 'media-cache');
  const kept = await insertWaitingImage(t.db, 'https://media.example/kept.jpg');
  const keptFile = `${kept.publicId}-0a1b2c3d.jpg`;
  await t.db
    .updateTable('images')
    .set({ state: 'ready', file_name: keptFile })
    .where('id', '=', kept.id)
    .execute();
  const gone = newPublicId();
  const fresh = newPublicId();

  await put(join(mediaDir, keptFile), true);
  await put(join(mediaDir, `${gone}-99aa88bb.jpg`), true);
  // Written a moment ago, its row not yet saying so: left alone.
  await put(join(mediaDir, `${fresh}-77cc66dd.jpg`), false);
  await put(join(mediaCacheDir, kept.publicId.slice(0, 2), `${kept.publicId}-640.webp`), true);
  await put(join(mediaCacheDir, gone.slice(0, 2), `${gone}-640.webp`), true);
  await put(join(mediaCacheDir, gone.slice(0, 2), `${gone}-1280.webp`), true);
  await put(join(mediaCacheDir, 'pictures', 'goods', 'card.jpg'), true);

  const swept = await sweepMediaDisk(t.db, { mediaDir, mediaCacheDir, graceMs: 10 * 60_000 });

  expect(swept).toEqual({ originals: 1, resized: 2 });
  expect((await readdir(mediaDir)).sort()).toEqual([keptFile, `${fresh}-77cc66dd.jpg`].sort());
  expect(await readdir(join(mediaCacheDir, kept.publicId.slice(0, 2)))).toContain(
    `${kept.publicId}-640.webp`,
  );
  const goneFolder = await readdir(join(mediaCacheDir, gone.slice(0, 2)));
  expect(goneFolder.filter((name) => name.startsWith(gone))).toEqual([]);
  expect(await readdir(join(mediaCacheDir, 'pictures', 'goods'))).toEqual(['card.jpg']);
  // Again: nothing more to do.
  expect(await sweepMediaDisk(t.db, { mediaDir, mediaCacheDir, graceMs: 10 * 60_000 })).toEqual({
    originals: 0,
    resized: 0,
  });
});

it('does nothing where the folders do not exist yet (a new server)', async () => {
  t = await openTestDatabase({ seed: false });
  expect(
    await sweepMediaDisk(t.db, {
      mediaDir: join(t.dataDir, 'none', 'media'),
      mediaCacheDir: join(t.dataDir, 'none', 'media-cache'),
      graceMs: 0,
    }),
  ).toEqual({ originals: 0, resized: 0 });
});
