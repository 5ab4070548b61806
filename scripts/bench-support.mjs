// What the benchmarks (and end-to-end tests with settings of their own) share: the demo data's
// ids and a production build served on loopback.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { transform } from 'esbuild';

/** The demo data's fixed ids (a TypeScript module, which Node 20 cannot import by itself). */
export async function loadDemoIds() {
  const source = await readFile(
    new URL('../apps/server/src/demo/seed/demo-ids.ts', import.meta.url),
  );
  const { code } = await transform(source.toString(), { loader: 'ts', format: 'esm' });
  const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  return module.DEMO_IDS;
}

/**
 * Starts `apps/server/dist/server.js` of the checkout at `root` on a data directory of its own
 * (seeded with the demo data on start), with `env` added to the environment, and resolves once
 * /health answers. The benchmarks and the end-to-end tests that need a server with settings of
 * their own use it. `nodeArgs` go to Node before the script (e.g. `--cpu-prof`).
 */
export async function startBuiltServer({
  root = '.',
  port,
  dataDir,
  env = {},
  output = 'inherit',
  timeoutMs = 60_000,
  nodeArgs = [],
}) {
  const server = spawn(process.execPath, [...nodeArgs, join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      // The link domain on the same port under another name: no second port to find free.
      LINK_ORIGIN: `http://localhost:${port}`,
      // No operators' listener unless asked for: its demo default port may be taken.
      OPS_PORT: 'off',
      ...env,
    },
    stdio: ['ignore', output, output],
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/anime_merch_web/api/v1/health`);
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error('The server did not start: run `npm run build` first.');
}

/**
 * CPU time a process has used so far (user + system, all threads), in ms (Linux: utime and stime
 * of /proc/<pid>/stat, in USER_HZ ticks of 1/100 s); NaN once the process is gone.
 */
export async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
