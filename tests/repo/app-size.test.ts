import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `app.ts` is the ordered list of the server's registrations, read top to bottom by whoever adds
 * a feature (docs/architecture.md): at most 200 lines of code, so what it opens before the list
 * lives in `app-startup.ts` and each feature's wiring in its own plugin (issue 40, item 5).
 */
const MOST_LINES_OF_CODE = 200;

/** Lines that are neither blank nor only a comment (`//`, or a block comment's lines). */
export function linesOfCode(source: string): number {
  let inBlock = false;
  let count = 0;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (inBlock) {
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      inBlock = !line.includes('*/');
      continue;
    }
    count += 1;
  }
  return count;
}

describe('the server’s app.ts', () => {
  it('counts code lines, not blank lines or comments', () => {
    expect(linesOfCode('/**\n * a\n */\nconst a = 1;\n\n// b\nconst c = 2; // d\n')).toBe(2);
  });

  it(`holds at most ${MOST_LINES_OF_CODE} lines of code`, () => {
    const source = readFileSync(join(import.meta.dirname, '../../apps/server/src/app.ts'), 'utf8');
    expect(linesOfCode(source)).toBeLessThanOrEqual(MOST_LINES_OF_CODE);
  });
});
