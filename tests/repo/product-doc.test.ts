import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { routeTable } from '../../apps/web/src/config/route-table.ts';

/**
 * Issue 39, item 8: docs/product.md leads to what it names. Its table of pages sums the agreements
 * up in one row, and points to "the exact list": the files it names there must hold every route
 * the site has, each agreement and version included (it once named two files that listed none).
 */
const ROOT = join(import.meta.dirname, '../..');

it("docs/product.md's exact list of pages names a file that holds every route", () => {
  const product = readFileSync(join(ROOT, 'docs/product.md'), 'utf8');
  const sentence = /The exact list[\s\S]*?\.\n/.exec(product)?.[0] ?? '';
  const files = [...sentence.matchAll(/`([\w./-]+\.\w+)`/g)].map((match) => match[1] ?? '');
  expect(files.length).toBeGreaterThan(0);
  const listed = files.map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');
  const paths = routeTable.map((route) => route.path).filter((path) => path !== '*');
  expect(paths.length).toBeGreaterThanOrEqual(17);
  const agreements = paths.filter((path) => path.startsWith('/agreement/'));
  expect(agreements.length).toBeGreaterThanOrEqual(9);
  // The share pages' paths the table takes from the contract (share-paths.ts); every other is
  // written in the named file itself.
  const written = paths.filter((path) => !path.startsWith('/AppShare/'));
  for (const path of written)
    expect(listed, `${path} in ${files.join(', ')}`).toContain(`'${path}'`);
});
