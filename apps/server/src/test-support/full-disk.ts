import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FullDisk {
  /** A directory on a file system with no space left: writes fail with ENOSPC. */
  dir: string;
  /** Unmounts the file system and removes the directory. */
  remove: () => Promise<void>;
}

/**
 * A real full disk, so a test meets the kernel's own ENOSPC at whatever write the code makes
 * (a file created, a chunk written, a directory made), not a stand-in's idea of it: a 1 MB tmpfs
 * mounted on a fresh directory and filled up. Mounting needs root (CI and this machine run the
 * tests as root); without it the test fails and says why rather than pretending.
 */
export async function makeFullDisk(): Promise<FullDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'guquan-full-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0755', 'guquan-full-disk', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      `A full-disk test mounts a tiny tmpfs, which needs root (running as uid ${process.getuid?.()}): ${String(error)}`,
    );
  }
  // A test process that dies leaves no mount behind.
  const unmountOnExit = () => {
    try {
      execFileSync('umount', [dir]);
    } catch {
      // unmounted already
    }
  };
  process.once('exit', unmountOnExit);
  const remove = async () => {
    process.removeListener('exit', unmountOnExit);
    await run('umount', [dir]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // Fill it: 4 kB at a time until the kernel refuses.
    const filler = await open(join(dir, 'filler'), 'w');
    const block = Buffer.alloc(4096, 1);
    try {
      for (;;) await filler.write(block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      await filler.close();
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}
