import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every item the site keeps in a visitor's browser (sessionStorage, localStorage) is named in the
 * privacy policy's chapter six, with what it holds, why and for how long: a new key in
 * `apps/web/src` fails here until the policy names it. Keys are string literals starting with
 * `guquan` (`guquan.share.returnSpot`; for a key made per item, its fixed start up to the first
 * `${`); a file that writes to a storage must name such a key. The bridge simulator is left out: it
 * runs on demo servers only (app/bridge-simulator.ts), never on the site the policy covers.
 */
const ROOT = join(import.meta.dirname, '../..');
const POLICY = 'content/legal/privacy/2026-11-28.md';
const DEMO_ONLY = 'apps/web/src/features/bridge-simulator/';

/** The fixed part of every storage key a source names: quoted, or a template up to `${`. */
export function storageKeysIn(source: string): string[] {
  const quoted = [...source.matchAll(/(['"])(guquan[.:][^'"\s]*)\1/g)].map((match) => match[2]);
  const templated = [...source.matchAll(/`(guquan[.:][^`$\s]*)(?:\$\{|`)/g)].map(
    (match) => match[1],
  );
  return [...quoted, ...templated].filter((key): key is string => key !== undefined);
}

/** Whether the source writes to a Web Storage (`sessionStorage.setItem(…)`, `storage.setItem(…)`). */
export function writesToStorage(source: string): boolean {
  return /\.setItem\(/.test(source);
}

/** Chapter six of the policy, "Cookie 及同类技术", up to the next chapter. */
function chapterSix(policy: string): string {
  const start = policy.indexOf('## 六、');
  const end = policy.indexOf('## 七、');
  expect(start, 'the policy has a chapter six').toBeGreaterThan(0);
  return policy.slice(start, end);
}

function webSources(): string[] {
  return execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'apps/web/src'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => !file.startsWith(DEMO_ONLY) && !file.includes('/test-support/'));
}

describe('the browser storage the privacy policy names', () => {
  it('finds the keys a source names, quoted or as the fixed start of a template', () => {
    expect(
      storageKeysIn(
        'const A = \'guquan.share.returnSpot\'; const B = "guquan:page-load-reload-at";\n' +
          'const c = `guquan:redeem:${user}:${design}`; const d = `guquan.x`; const e = "guquan";',
      ),
    ).toEqual([
      'guquan.share.returnSpot',
      'guquan:page-load-reload-at',
      'guquan:redeem:',
      'guquan.x',
    ]);
    expect(writesToStorage('sessionStorage.setItem(KEY, "1")')).toBe(true);
    expect(writesToStorage('sessionStorage.getItem(KEY)')).toBe(false);
  });

  it('names in chapter six every key the site keeps in the browser', () => {
    const policy = chapterSix(readFileSync(join(ROOT, POLICY), 'utf8'));
    const files = webSources();
    expect(files.length).toBeGreaterThan(50);
    const keys = new Map<string, string>();
    const unnamed: string[] = [];
    for (const file of files) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const found = storageKeysIn(source);
      for (const key of found) keys.set(key, file);
      if (writesToStorage(source) && found.length === 0) unnamed.push(file);
    }
    expect(unnamed, 'files writing to storage under a key not starting with guquan').toEqual([]);
    // The keys of today, at least: the scan finds them.
    expect([...keys.keys()]).toEqual(
      expect.arrayContaining([
        'guquan.share.viewed:',
        'guquan.share.returnSpot',
        'guquan.share.appBarDismissed',
        'guquan.membership.awaiting-approval',
        'guquan.membership.choice',
        'guquan:redeem:',
        'guquan:page-load-reload-at',
      ]),
    );
    const missing = [...keys].filter(([key]) => !policy.includes(`\`${key}`));
    expect(
      missing.map(([key, file]) => `${key} (${file})`),
      `keys ${POLICY} does not name in chapter six`,
    ).toEqual([]);
  });
});
