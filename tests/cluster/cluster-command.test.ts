import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { WECHAT_JS_SDK_ORIGIN } from '@guquan/contract/wechat-page';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { freePort } from '../support/postgres-server.ts';
import { send, sleep, type Outcome } from './http-client.ts';

const WECHAT_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';

/** How long a readiness probe waits for an answer (as `curl -m 10` would). */
const PROBE_PATIENCE_MS = 10_000;

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

/** Stops a process group as a terminal's Ctrl-C would, then kills what is left. */
async function stopGroup(group: number): Promise<void> {
  if (processesInGroup(group).length === 0) return;
  process.kill(-group, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (processesInGroup(group).length > 0 && Date.now() < deadline) await sleep(200);
  if (processesInGroup(group).length > 0) process.kill(-group, 'SIGKILL');
}

it('npm run cluster: answers probes 503 at once while it starts, prints the origin when ready, and SIGTERM to its process group leaves nothing behind', async () => {
  const NGINX_PORT = await freePort();
  const child = spawn(process.execPath, ['scripts/cluster.mjs'], {
    env: {
      ...process.env,
      PORT: String(NGINX_PORT),
      INSTANCES: '2',
      LOG_LEVEL: 'silent',
      // With WeChat's settings (its API is never reached here: nothing asks for a signature).
      WECHAT_APP_ID: 'wx0123456789abcdef',
      WECHAT_APP_SECRET: 'clusterTestSecret0123456789',
      WECHAT_OPEN_APP_ID: 'wxfedcba9876543210',
      WECHAT_API_BASE: 'http://127.0.0.1:9',
    },
    // A process group of its own, as a terminal gives a command.
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const group = child.pid ?? 0;
  const origin = `http://127.0.0.1:${NGINX_PORT}`;
  let postmaster = 0;
  try {
    // A script polling for readiness while it starts (as `curl -m 3` in a loop, or a load
    // balancer's health check): each probe is answered at once (503, or refused before the port is
    // held), and none holds up the start, which used to wait for them forever.
    const ready = `cluster ready: ${origin}/anime_merch_web/website`;
    const probes: { outcome: Outcome; ms: number }[] = [];
    const startedAt = performance.now();
    while (!output.includes(ready)) {
      expect(child.exitCode, output).toBeNull();
      const started = performance.now();
      const outcome = await send(`${origin}/anime_merch_web/website`, {
        signal: AbortSignal.timeout(PROBE_PATIENCE_MS),
      });
      probes.push({ outcome, ms: performance.now() - started });
      postmaster ||= Number(/PostgreSQL on \S+ \(pid (\d+)\)/.exec(output)?.[1] ?? 0);
      expect(performance.now() - startedAt, 'started within 5 min').toBeLessThan(300_000);
      await sleep(100);
    }
    const during = probes.filter(({ outcome }) => outcome.status !== 200);
    expect(during.filter(({ outcome }) => outcome.status === 503).length).toBeGreaterThan(5);
    for (const { outcome, ms } of during) {
      expect([503, 'network-error']).toContain(outcome.status);
      // Answered, not held until the probe gave up (a few ms here; far less than this on a
      // machine at a quarter of its speed).
      expect(ms).toBeLessThan(PROBE_PATIENCE_MS / 2);
      if (outcome.status === 503) {
        expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 'service_unavailable' } });
        expect(outcome.headers?.get('retry-after')).toBe('5');
      }
    }
    expect(postmaster).toBeGreaterThan(0);
    expect((await send(`${origin}/anime_merch_web/website`)).status).toBe(200);
    // What the servers mark public (a resized image: a few seconds in a shared cache) nginx keeps.
    const image = /\/anime_merch_web\/media\/[^"'\s]+?\.webp/.exec(
      (await send(`${origin}/anime_merch_web/website`)).body,
    )?.[0];
    if (image) {
      await send(`${origin}${image}`);
      expect((await send(`${origin}${image}`)).headers?.get('x-cache-status')).toMatch(
        /^(HIT|UPDATING|STALE)$/,
      );
    }
    // robots.txt is at the site's root, outside the base path: nginx passes it on too.
    const robots = await send(`${origin}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers?.get('content-type')).toMatch(/^text\/plain/);
    // The app's link domain: another host name of the same nginx (its own server_name). Both
    // association files come through as the servers answer them: JSON, never a redirect.
    const link = `http://localhost:${NGINX_PORT}`;
    for (const file of ['apple-app-site-association', 'assetlinks.json']) {
      const answer = await send(`${link}/.well-known/${file}`, { redirect: 'manual' });
      expect(answer.status).toBe(200);
      expect(answer.headers?.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toBeTruthy();
      // The site's own host has none: a link to the site must never open the app.
      expect((await send(`${origin}/.well-known/${file}`, { redirect: 'manual' })).status).toBe(
        404,
      );
    }
    const aasa = JSON.parse(
      (await send(`${link}/.well-known/apple-app-site-association`)).body,
    ) as { applinks: { details: { appIDs: string[] }[] } };
    expect(aasa.applinks.details[0]?.appIDs).toEqual(['DEMOTEAM00.com.guquan.app']);
    // A link the app did not open: the item's share page on the site, saying the app is missing.
    const fallback = await send(`${link}/goods/${DEMO_IDS.goods.gallery}?image=1`, {
      redirect: 'manual',
      headers: { 'accept-language': 'en' },
    });
    expect(fallback.status).toBe(302);
    expect(fallback.headers?.get('location')).toBe(
      `${origin}/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=en&app=missing&image=1`,
    );
    // A share page by its URL is kept for everyone, but a WeChat visitor never gets that copy:
    // theirs allows WeChat's JS-SDK and comes from a server.
    const share = `${origin}/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=zh-CN`;
    await send(share);
    const kept = await send(share);
    expect(kept.headers?.get('x-cache-status')).toMatch(/^(HIT|UPDATING|STALE)$/);
    expect(kept.headers?.get('content-security-policy')).not.toContain(WECHAT_JS_SDK_ORIGIN);
    const inWeChat = await send(share, { headers: { 'user-agent': WECHAT_USER_AGENT } });
    expect(inWeChat.status).toBe(200);
    expect(inWeChat.headers?.get('x-cache-status')).toBe('BYPASS');
    expect(inWeChat.headers?.get('content-security-policy')).toContain(WECHAT_JS_SDK_ORIGIN);
    expect(inWeChat.headers?.get('cache-control')).toMatch(/^private/);
    expect(processesInGroup(group).length).toBeGreaterThan(4);

    process.kill(-group, 'SIGTERM');
    await expect.poll(() => processesInGroup(group), { timeout: 30_000 }).toEqual([]);
    // PostgreSQL runs in a session of its own (pg_ctl): the command stopped it too. (Exited: gone,
    // or a zombie until init reaps it.)
    expect(isRunning(postmaster)).toBe(false);
    // Its last words may still be in the pipe when its processes are gone (issue 42).
    await expect.poll(() => output).toContain('Stopped.');
  } finally {
    // SIGTERM first, so the command stops PostgreSQL, which runs in a session of its own
    // (pg_ctl) that a SIGKILL to the group would leave running; then whatever is left.
    await stopGroup(group);
    if (postmaster > 0 && isRunning(postmaster)) process.kill(postmaster, 'SIGQUIT');
  }
}, 420_000);
