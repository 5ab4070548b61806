import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No CSS module composes a class from another file (`composes: x from './other.module.css'`).
 * Vite's CSS modules (postcss-modules) prepend the composed file's CSS as a string, parsed
 * without PostCSS's `from` option, and every build then printed "A PostCSS plugin did not pass
 * the `from` option to `postcss.parse`". A shared class is put on the element beside the
 * module's own instead (components/shimmer.module.css).
 */
const ROOT = join(import.meta.dirname, '../..');

export function composesFromFile(source: string): string[] {
  return [...source.matchAll(/composes\s*:[^;]*\bfrom\s+(['"])[^'"]+\1/g)].map((match) =>
    match[0].replace(/\s+/g, ' '),
  );
}

describe('CSS modules', () => {
  it('recognise a composition from another file, and only that', () => {
    expect(composesFromFile(".a { composes: shimmer from '../shimmer.module.css'; }")).toEqual([
      "composes: shimmer from '../shimmer.module.css'",
    ]);
    expect(composesFromFile('.a { composes: b; } .c { composes: d from global; }')).toEqual([]);
  });

  it('compose nothing from another file (the build would warn about PostCSS `from`)', () => {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', 'apps/web/src'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .split('\n')
      .filter((file) => file.endsWith('.css'));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) =>
      composesFromFile(readFileSync(join(ROOT, file), 'utf8')).map((rule) => `${file}: ${rule}`),
    );
    expect(found).toEqual([]);
  });
});
