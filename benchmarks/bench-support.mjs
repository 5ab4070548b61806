// What the benchmarks share: the demo data's ids, the CPU time of a process, and the test
// helpers they run on (a built server, the cluster), which are TypeScript in tests/support/.
import { readFile } from 'node:fs/promises';
import '../scripts/load-typescript.mjs';

export const { startBuiltServer } = await import('../tests/support/built-server.ts');
export const { HEALTH_PATH, startCluster } = await import('../tests/support/cluster.ts');
export const { freePort, startPostgres } = await import('../tests/support/postgres-server.ts');

/** The demo data's fixed ids. */
export async function loadDemoIds() {
  const { DEMO_IDS } = await import('../apps/server/src/demo/seed/demo-ids.ts');
  return DEMO_IDS;
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
