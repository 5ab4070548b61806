import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes `bytes` to `target` whole or not at all: to a name of its own beside it, then renamed
 * over it, so a reader (another server, nginx) never sees half a file, and two writers never
 * write one file. Throws after removing what it wrote when the disk refuses.
 */
export async function writeAside(target: string, bytes: Buffer): Promise<void> {
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(temporary, bytes);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}
