import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeAside } from '../media/write-aside.ts';

export interface PictureStore {
  /** The bytes of a picture made before: from memory, else from disk; undefined if neither. */
  find(name: string): Promise<Buffer | undefined>;
  /** Whether this server is drawing it right now (joining that costs nothing). */
  drawing(name: string): boolean;
  /**
   * The picture, drawn by `draw` unless this server is already drawing it (then the one drawing
   * serves both), kept on disk and in memory for next time.
   */
  make(name: string, draw: () => Promise<Buffer>): Promise<Buffer>;
}

/** The most recently sent pictures' bytes kept in memory (a card is ~40 kB, a poster ~80 kB). */
const DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024;

/** A least-recently-used map of pictures' bytes, bounded by their total size. */
function recentPictures(maxBytes: number) {
  const entries = new Map<string, Buffer>();
  let bytes = 0;
  return {
    get(name: string): Buffer | undefined {
      const found = entries.get(name);
      if (found) {
        // Read again: the most recent now (a Map keeps insertion order).
        entries.delete(name);
        entries.set(name, found);
      }
      return found;
    },
    set(name: string, picture: Buffer): void {
      const old = entries.get(name);
      if (old) bytes -= old.length;
      entries.delete(name);
      if (picture.length > maxBytes) return;
      entries.set(name, picture);
      bytes += picture.length;
      for (const [oldest, kept] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= kept.length;
      }
    },
  };
}

/**
 * Pictures on disk beside the resized images (MEDIA_CACHE_DIR/pictures, shared by the servers and
 * safe to delete), the most recently sent also in memory (`memoryBytes`). `name` is the picture's address below PICTURES_PATH, made of checked parts
 * only. A file appears complete or not at all (written aside, then renamed), so a server never
 * sends half a picture another is writing; once a new version of a picture is written, the older
 * versions of it in its folder go. When the disk refuses the file (full, read-only), the picture
 * is still sent from memory, and that is logged once until a write succeeds again.
 */
export function createPictureStore(
  cacheDir: string,
  onWriteFailure: (error: unknown) => void = () => undefined,
  memoryBytes = DEFAULT_MEMORY_BYTES,
): PictureStore {
  const root = join(cacheDir, 'pictures');
  const inFlight = new Map<string, Promise<Buffer>>();
  const recent = recentPictures(memoryBytes);
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

  async function keep(path: string, bytes: Buffer): Promise<void> {
    try {
      await writeAside(path, bytes);
    } catch (error) {
      if (!writeFailing) onWriteFailure(error);
      writeFailing = true;
      return;
    }
    writeFailing = false;
    await removeOlderVersions(path).catch(() => undefined);
  }

  return {
    async find(name) {
      const remembered = recent.get(name);
      if (remembered) return remembered;
      const read = await readFile(pathOf(name)).catch(() => undefined);
      if (read) recent.set(name, read);
      return read;
    },
    drawing(name) {
      return inFlight.has(name);
    },
    make(name, draw) {
      let pending = inFlight.get(name);
      if (!pending) {
        pending = draw()
          .then(async (bytes) => {
            // Sent from memory whatever the disk says (full, read-only): logged, not failed.
            await keep(pathOf(name), bytes);
            recent.set(name, bytes);
            return bytes;
          })
          .finally(() => inFlight.delete(name));
        inFlight.set(name, pending);
      }
      return pending;
    },
  };
}
