import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README and the documents in docs/ lead only to what a clone of the repository holds: a link
 * (or a path written as code) to a file outside it, such as `../shared/PRODUCT.md`, is a dead end
 * for whoever reads the repository on its own. What the site does is in docs/product.md.
 */
const ROOT = join(import.meta.dirname, '../..');

/** README.md and every Markdown file under docs/ (tracked or new, not ignored). */
function documents(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'README.md', 'docs'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return listed
    .split('\n')
    .filter((file) => file.endsWith('.md'))
    .filter((file) => existsSync(join(ROOT, file)));
}

export interface LinkProblem {
  at: string;
  target: string;
  problem: string;
}

/** Inline links and images `[text](target)`, reference definitions `[name]: target`. */
const LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;
/** A relative path in a code span that climbs out of the document's folder: `../x/y.md`. */
const CODE_PATH = /`((?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*)`/g;

/** The text with its fenced code blocks blanked out, line breaks kept (so lines still count). */
function blankFences(source: string): string {
  return source.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) =>
    block.replace(/[^\n]/g, ' '),
  );
}

/** The text with fenced code blocks and code spans blanked out. */
function blankCode(source: string): string {
  return blankFences(source).replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

/**
 * What is wrong with the links of one document (its path relative to the repository's root):
 * a relative target outside the repository, or one that does not exist in it.
 */
export function linkProblems(file: string, source: string, root: string): LinkProblem[] {
  const problems: LinkProblem[] = [];
  const at = (index: number) => `${file}:${source.slice(0, index).split('\n').length}`;
  const check = (target: string, index: number, mustExist: boolean) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return;
    const path = decodeURIComponent(target.split('#')[0] ?? '');
    if (!path) return;
    const absolute = path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path);
    const inside = relative(root, absolute);
    if (inside === '..' || inside.startsWith(`..${sep}`)) {
      problems.push({ at: at(index), target, problem: 'leads outside the repository' });
    } else if (mustExist && !existsSync(absolute)) {
      problems.push({ at: at(index), target, problem: 'names nothing in the repository' });
    }
  };
  // Code blocks and code spans hold no links (a pattern such as `](?:…)` is none).
  const prose = blankCode(source);
  for (const match of prose.matchAll(LINK)) {
    const target = match[1] ?? match[2];
    if (target) check(target, match.index, true);
  }
  for (const match of blankFences(source).matchAll(CODE_PATH)) {
    if (match[1]) check(match[1], match.index, false);
  }
  return problems;
}

describe('links in the README and docs/', () => {
  it('finds a link out of the repository, a path out of it in code, and a missing file', () => {
    const source = [
      'What it must do: [`../shared/SPEC.md`](../shared/SPEC.md).',
      'Decided in `../shared/PRODUCT.md`.',
      '[gone](docs/nothing-here.md), [web](https://example.com), [top](#top)',
      '[ok](docs/product.md#pages) and [ok too](./README.md)',
    ].join('\n');
    expect(linkProblems('README.md', source, ROOT)).toEqual([
      { at: 'README.md:1', target: '../shared/SPEC.md', problem: 'leads outside the repository' },
      {
        at: 'README.md:3',
        target: 'docs/nothing-here.md',
        problem: 'names nothing in the repository',
      },
      // The link's text names the same path, in code.
      { at: 'README.md:1', target: '../shared/SPEC.md', problem: 'leads outside the repository' },
      {
        at: 'README.md:2',
        target: '../shared/PRODUCT.md',
        problem: 'leads outside the repository',
      },
    ]);
    // From docs/, one level up is still the repository.
    expect(linkProblems('docs/x.md', '[the README](../README.md)', ROOT)).toEqual([]);
  });

  it('lead only to files the repository holds', () => {
    const files = documents();
    expect(files).toContain('README.md');
    expect(files).toContain('docs/product.md');
    const problems = files.flatMap((file) =>
      linkProblems(file, readFileSync(join(ROOT, file), 'utf8'), ROOT),
    );
    expect(problems).toEqual([]);
  });

  it('the README says where to read what the site does', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('(docs/product.md)');
  });
});
