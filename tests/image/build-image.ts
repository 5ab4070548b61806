import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { podmanEnv, ROOT } from './podman.ts';

/**
 * Before the image's tests: `npm run image` once (layers and the base reused from podman's
 * storage when nothing changed), so that every file tests the same image.
 */
export function setup(): void {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/image.mjs')], {
    env: podmanEnv,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`npm run image failed (exit ${String(built.status)})`);
}
