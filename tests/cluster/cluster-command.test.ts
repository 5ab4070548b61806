import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { send } from './http-client.ts';

const NGINX_PORT = 18692;

/** Processes whose process group is `group`, read from /proc (Linux). */
function processesInGroup(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing paren.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === group && fields[0] !== 'Z' ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

/** Whether a process exists and has not exited (a zombie has). */
function isRunning(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

it('npm run cluster: prints the origin when ready, and SIGTERM to its process group leaves nothing behind', async () => {
  const child = spawn(process.execPath, ['scripts/cluster.mjs'], {
    env: { ...process.env, PORT: String(NGINX_PORT), INSTANCES: '2', LOG_LEVEL: 'silent' },
    // A process group of its own, as a terminal gives a command.
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const group = child.pid ?? 0;
  try {
    await expect
      .poll(() => output, { timeout: 90_000, interval: 200 })
      .toContain(`cluster ready: http://127.0.0.1:${NGINX_PORT}/anime_merch_web/website`);
    const postmaster = Number(/PostgreSQL on \S+ \(pid (\d+)\)/.exec(output)?.[1]);
    expect(postmaster).toBeGreaterThan(0);
    const origin = `http://127.0.0.1:${NGINX_PORT}`;
    expect((await send(`${origin}/anime_merch_web/website`)).status).toBe(200);
    // What the servers mark public (a resized image: a year, immutable) nginx keeps.
    const image = /\/anime_merch_web\/media\/[^"'\s]+?\.webp/.exec(
      (await send(`${origin}/anime_merch_web/website`)).body,
    )?.[0];
    if (image) {
      await send(`${origin}${image}`);
      expect((await send(`${origin}${image}`)).headers?.get('x-cache-status')).toBe('HIT');
    }
    expect(processesInGroup(group).length).toBeGreaterThan(4);

    process.kill(-group, 'SIGTERM');
    await expect.poll(() => processesInGroup(group), { timeout: 30_000 }).toEqual([]);
    // PostgreSQL runs in a session of its own (pg_ctl): the command stopped it too. (Exited: gone,
    // or a zombie until init reaps it.)
    expect(isRunning(postmaster)).toBe(false);
    expect(output).toContain('Stopped.');
  } finally {
    if (processesInGroup(group).length > 0) process.kill(-group, 'SIGKILL');
  }
}, 150_000);
