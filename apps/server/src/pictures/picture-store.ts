import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A picture ready to send: its file, or (when the disk refused it) its bytes. */
export type MadePicture = { path: string } | { bytes: Buffer };

export interface PictureStore {
  /** The file of a picture made before, if it is on disk. */
  find(name: string): Promise<string | undefined>;
  /** Whether this server is drawing it right now (joining that costs nothing). */
  drawing(name: string): boolean;
  /**
   * The picture, drawn by `draw` unless this server is already drawing it (then the one drawing
   * serves both), kept on disk for next time.
   */
  make(name: string, draw: () => Promise<Buffer>): Promise<MadePicture>;
}

/**
 * Pictures on disk beside the resized images (MEDIA_CACHE_DIR/pictures, shared by the servers and
 * safe to delete). `name` is the picture's address below PICTURES_PATH, made of checked parts
 * only. A file appears complete or not at all (written aside, then renamed), so a server never
 * sends half a picture another is writing; once a new version of a picture is written, the older
 * versions of it in its folder go. When the disk refuses the file (full, read-only), the picture
 * is still sent from memory, and that is logged once until a write succeeds again.
 */
export function createPictureStore(
  cacheDir: string,
  onWriteFailure: (error: unknown) => void = () => undefined,
): PictureStore {
  const root = join(cacheDir, 'pictures');
  const inFlight = new Map<string, Promise<MadePicture>>();
  let writeFailing = false;

  function pathOf(name: string): string {
    // Item folders are spread over a folder per two-letter prefix, as the resized images are.
    const parts = name.split('/');
    const [kind, id] = parts;
    if (parts.length === 3 && kind && id)
      return join(root, kind, id.slice(0, 2), id, parts[2] ?? '');
    return join(root, ...parts);
  }

  /** The same picture's other versions: `card.en.<version>.jpg` beside `card.en.<new>.jpg`. */
  async function removeOlderVersions(path: string): Promise<void> {
    const file = basename(path);
    const stem = file.slice(0, file.lastIndexOf('.', file.length - 5) + 1);
    const siblings = await readdir(dirname(path)).catch(() => []);
    await Promise.all(
      siblings
        .filter((other) => other !== file && other.startsWith(stem) && other.endsWith('.jpg'))
        .map((other) => rm(join(dirname(path), other), { force: true })),
    );
  }

  async function keep(path: string, bytes: Buffer): Promise<MadePicture> {
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      if (!writeFailing) onWriteFailure(error);
      writeFailing = true;
      return { bytes };
    }
    writeFailing = false;
    await removeOlderVersions(path).catch(() => undefined);
    return { path };
  }

  return {
    async find(name) {
      const path = pathOf(name);
      return stat(path).then(
        (found) => (found.isFile() ? path : undefined),
        () => undefined,
      );
    },
    drawing(name) {
      return inFlight.has(name);
    },
    make(name, draw) {
      let pending = inFlight.get(name);
      if (!pending) {
        pending = draw()
          .then((bytes) => keep(pathOf(name), bytes))
          .finally(() => inFlight.delete(name));
        inFlight.set(name, pending);
      }
      return pending;
    },
  };
}
