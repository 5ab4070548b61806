import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPictureStore } from './picture-store.ts';
import { sleep } from '../timing/sleep.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'guquan-pictures-'));
});
afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const ID = 'goodsAAAAAAAAAA1';
const name = (version: string) => `goods/${ID}/card.en.${version}.jpg`;

describe('pictures on disk', () => {
  it('draws once however many ask together, keeps the file beside the resized images, nothing half-written', async () => {
    const store = createPictureStore(dir);
    const draw = vi.fn(async () => {
      await sleep(10);
      return Buffer.from('jpeg');
    });
    expect(await store.find(name('a'))).toBeUndefined();
    const made = await Promise.all([1, 2, 3].map(() => store.make(name('a'), draw)));
    expect(draw).toHaveBeenCalledTimes(1);
    expect(made.map(String)).toEqual(['jpeg', 'jpeg', 'jpeg']);
    const path = join(dir, 'pictures', 'goods', 'go', ID, 'card.en.a.jpg');
    expect(await readFile(path, 'utf8')).toBe('jpeg');
    expect(String(await store.find(name('a')))).toBe('jpeg');
    // Another server (a store of its own) finds it on the shared disk.
    expect(String(await createPictureStore(dir).find(name('a')))).toBe('jpeg');
    expect(await readdir(join(dir, 'pictures', 'goods', 'go', ID))).toEqual(['card.en.a.jpg']);
  });

  it('a new version replaces the older ones of the same picture, and only those', async () => {
    const store = createPictureStore(dir);
    await store.make(name('a'), () => Promise.resolve(Buffer.from('a')));
    await store.make(`goods/${ID}/card.zh-CN.a.jpg`, () => Promise.resolve(Buffer.from('zh')));
    await store.make(`goods/${ID}/poster.en.a.jpg`, () => Promise.resolve(Buffer.from('p')));
    await store.make(name('b'), () => Promise.resolve(Buffer.from('b')));
    expect((await readdir(join(dir, 'pictures', 'goods', 'go', ID))).sort()).toEqual([
      'card.en.b.jpg',
      'card.zh-CN.a.jpg',
      'poster.en.a.jpg',
    ]);
  });

  it('keeps the most recent pictures in memory within its bound', async () => {
    const store = createPictureStore(dir, () => undefined, 10);
    await store.make(name('a'), () => Promise.resolve(Buffer.from('aaaaaa')));
    await store.make(`goods/${ID}/poster.en.a.jpg`, () => Promise.resolve(Buffer.from('pppppp')));
    await rm(join(dir, 'pictures'), { recursive: true });
    // The poster (6 bytes) pushed the card out of 10 bytes: the card is gone with the disk.
    expect(await store.find(name('a'))).toBeUndefined();
    expect(String(await store.find(`goods/${ID}/poster.en.a.jpg`))).toBe('pppppp');
  });

  it('a failed drawing keeps nothing and the next request draws again', async () => {
    const store = createPictureStore(dir);
    await expect(store.make(name('a'), () => Promise.reject(new Error('no')))).rejects.toThrow(
      'no',
    );
    expect(store.drawing(name('a'))).toBe(false);
    expect(await store.find(name('a'))).toBeUndefined();
  });

  it('a disk that refuses the file: the picture is sent from memory, reported once until writes work again', async () => {
    // A file where the pictures' folder should be: nothing can be written under it.
    await writeFile(join(dir, 'pictures'), 'in the way');
    const failures: unknown[] = [];
    const store = createPictureStore(dir, (error) => failures.push(error));
    expect(String(await store.make(name('a'), () => Promise.resolve(Buffer.from('a'))))).toBe('a');
    expect(String(await store.make(name('b'), () => Promise.resolve(Buffer.from('b'))))).toBe('b');
    // Kept in memory all the same.
    expect(String(await store.find(name('b')))).toBe('b');
    expect(failures).toHaveLength(1);
    await rm(join(dir, 'pictures'));
    await mkdir(join(dir, 'pictures'));
    await store.make(name('c'), () => Promise.resolve(Buffer.from('c')));
    expect(await readdir(join(dir, 'pictures', 'goods', 'go', ID))).toEqual(['card.en.c.jpg']);
    await writeFile(join(dir, 'pictures', 'cabinet'), 'in the way again');
    await store.make(`cabinet/${'x'.repeat(16)}/card.en.a.jpg`, () =>
      Promise.resolve(Buffer.from('d')),
    );
    expect(failures).toHaveLength(2);
  });
});
