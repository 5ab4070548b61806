import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every reference to a decision record (docs/decisions/NNNN-name.md) names one that exists, by
 * its file: a number alone went stale when the records were renumbered, and still pointed at a
 * record, the wrong one. So a reference is the record's path (in Markdown, a link to it whose text
 * may say "decision N"), and "decision N" is written only as the text of such a link.
 */
const ROOT = join(import.meta.dirname, '../..');
const DECISIONS = 'docs/decisions';

const records = readdirSync(join(ROOT, DECISIONS)).filter((name) => /^\d{4}-.+\.md$/.test(name));

/**
 * The records' numbers go 1, 2, 3… each once: a gap reads as a lost record (0016 was one, a number
 * reserved for a branch that wrote none; docs/decisions/0016-scripts-tests-and-benchmarks.md).
 */
function numberingProblems(names: string[]): string[] {
  const byNumber = new Map<number, string[]>();
  for (const name of names) {
    const number = Number(name.slice(0, 4));
    byNumber.set(number, [...(byNumber.get(number) ?? []), name]);
  }
  const highest = Math.max(0, ...byNumber.keys());
  const problems: string[] = [];
  for (let number = 1; number <= highest; number += 1) {
    const named = byNumber.get(number) ?? [];
    const padded = String(number).padStart(4, '0');
    if (named.length === 0) problems.push(`no record ${padded}: the numbers leave a gap`);
    if (named.length > 1) problems.push(`${padded} is the number of ${named.join(' and ')}`);
  }
  return problems;
}

/** The repository's own text files (tracked or new, not ignored), this test left out. */
function textFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter(Boolean)
    .filter((file) => !/\.(png|jpe?g|webp|gif|ico|pem|woff2?)$|package-lock\.json$/.test(file))
    .filter((file) => file !== 'tests/repo/decision-references.test.ts');
}

interface Reference {
  at: string;
  text: string;
  problem: string | undefined;
}

function referencesIn(file: string, source: string): Reference[] {
  const found: Reference[] = [];
  const at = (index: number) => `${file}:${source.slice(0, index).split('\n').length}`;
  const missing = (name: string) =>
    records.includes(name)
      ? undefined
      : `no record ${DECISIONS}/${name}${name.endsWith('.md') ? '' : ' (name the file: NNNN-name.md)'}`;
  // A path: docs/decisions/0012-wechat.md.
  for (const match of source.matchAll(/docs\/decisions\/(\d{4}[\w.-]*)/g)) {
    found.push({ at: at(match.index), text: match[0], problem: missing(match[1] ?? '') });
  }
  // A Markdown link to a record, relative to the file: (decisions/0012-wechat.md), (0009-….md).
  for (const match of source.matchAll(/\]\(([^)\s]*\d{4}-[\w.-]+\.md)\)/g)) {
    const target = relative(ROOT, join(ROOT, dirname(file), match[1] ?? ''));
    if (dirname(target) !== DECISIONS) continue;
    found.push({ at: at(match.index), text: match[0], problem: missing(basename(target)) });
  }
  // "decision 8", "decision record 0009": only as a link's text, with the same number.
  for (const match of source.matchAll(
    /\bdecision(?:\s+record)?[\s*/#]+(\d+)\b(\]\(([^)]*)\))?/gi,
  )) {
    const number = Number(match[1]);
    const linked = match[3]?.match(/(\d{4})-[^/]*$/);
    found.push({
      at: at(match.index),
      text: match[0],
      problem: !linked
        ? `name the record by its file (${DECISIONS}/${String(number).padStart(4, '0')}-….md), not by its number alone`
        : Number(linked[1]) !== number
          ? `the text says ${number}, the link goes to ${linked[1] ?? ''}`
          : undefined,
    });
  }
  return found;
}

describe('decision records', () => {
  it('are numbered from 0001 up, each number once, without a gap', () => {
    expect(numberingProblems(records)).toEqual([]);
  });

  it('fail on a gap and on a number used twice', () => {
    expect(numberingProblems(['0001-a.md', '0002-b.md', '0003-c.md'])).toEqual([]);
    expect(numberingProblems(['0001-a.md', '0003-c.md', '0003-d.md'])).toEqual([
      'no record 0002: the numbers leave a gap',
      '0003 is the number of 0003-c.md and 0003-d.md',
    ]);
  });
});

describe('references to decision records', () => {
  const references = textFiles().flatMap((file) =>
    referencesIn(file, readFileSync(join(ROOT, file), 'utf8')),
  );

  it('are found (the check reads the files it should)', () => {
    expect(records.length).toBeGreaterThanOrEqual(12);
    expect(references.length).toBeGreaterThan(10);
  });

  it('each name a record that exists, by its file', () => {
    expect(
      references
        .filter((reference) => reference.problem !== undefined)
        .map(({ at, text, problem }) => `${at}: "${text}": ${problem ?? ''}`),
    ).toEqual([]);
  });

  it('fail on a record that does not exist, and on a number alone', () => {
    const problems = (source: string) =>
      referencesIn('apps/example.ts', source).map((reference) => reference.problem);
    expect(problems('see docs/decisions/0099-nothing.md')).toEqual([
      `no record ${DECISIONS}/0099-nothing.md`,
    ]);
    expect(problems('see docs/decisions/0007-cacheable-pages.md')).toHaveLength(1);
    expect(problems('(decision 9)')[0]).toMatch(/by its file/);
    expect(problems('[decision 8](docs/decisions/0012-wechat.md)')).toContain(
      'the text says 8, the link goes to 0012',
    );
    expect(problems('[decision 12](docs/decisions/0012-wechat.md)')).toEqual([
      undefined,
      undefined,
    ]);
  });
});
