import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A commit's subject line says what changed in at most 72 characters, which `git log --oneline`,
 * GitHub and review tools show whole; the why and the figures go in the body (docs/architecture.md,
 * "Commits"). Checked for every commit after BASE, the last one before the rule: older subjects
 * ran to 1,300 characters and stay as they are.
 */
const ROOT = join(import.meta.dirname, '../..');
const BASE = '8a924f7';
const MAX_SUBJECT_CHARACTERS = 72;

/**
 * Commits already on main whose subject is longer: history is not rewritten, so such a commit is
 * named here (full or abbreviated hash) with the reason, and the check goes on for the others.
 */
const ACCEPTED_LONG_SUBJECTS: Record<string, string> = {};

interface Commit {
  hash: string;
  subject: string;
}

type History = { checked: true; commits: Commit[] } | { checked: false; reason: string };

function git(args: string[]): string {
  return execFileSync('git', args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The commits after BASE up to HEAD, or why they cannot be read here. */
function commitsAfterBase(): History {
  try {
    git(['rev-parse', '--git-dir']);
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    return { checked: false, reason: missing ? 'git is not installed' : 'not a git checkout' };
  }
  try {
    git(['cat-file', '-e', `${BASE}^{commit}`]);
  } catch {
    const shallow = git(['rev-parse', '--is-shallow-repository']).trim() === 'true';
    return {
      checked: false,
      reason: shallow
        ? `a shallow clone, whose history does not reach ${BASE}`
        : `${BASE} is not in this clone's history`,
    };
  }
  const log = git(['log', '--format=%H%x1f%s%x1e', `${BASE}..HEAD`]);
  const commits = log
    .split('\x1e')
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [hash = '', subject = ''] = record.split('\x1f');
      return { hash, subject };
    });
  return { checked: true, commits };
}

/** Characters as a reader counts them (grapheme clusters: an emoji with modifiers is one). */
const characters = (text: string): number => Array.from(new Intl.Segmenter().segment(text)).length;

/** What is wrong with these commits' subjects, one line per commit. */
function subjectProblems(commits: Commit[], accepted = ACCEPTED_LONG_SUBJECTS): string[] {
  return commits
    .filter(({ subject }) => characters(subject) > MAX_SUBJECT_CHARACTERS)
    .filter(({ hash }) => !Object.keys(accepted).some((key) => hash.startsWith(key)))
    .map(
      ({ hash, subject }) =>
        `${hash.slice(0, 10)}: ${characters(subject)} characters (at most ${MAX_SUBJECT_CHARACTERS}): ${subject}`,
    );
}

describe('commit subjects', () => {
  it(`are at most ${MAX_SUBJECT_CHARACTERS} characters in every commit after ${BASE}`, () => {
    const history = commitsAfterBase();
    if (!history.checked) {
      // Said, not skipped in silence: a clone without the history has nothing to check here.
      console.warn(`commit subjects: none checked: ${history.reason}`);
      return;
    }
    console.info(
      `commit subjects: checked ${history.commits.length} commit(s) after ${BASE}, up to HEAD`,
    );
    expect(subjectProblems(history.commits)).toEqual([]);
  });

  it('the check names a longer subject, and lets a short one and an accepted one pass', () => {
    const long = 'x'.repeat(MAX_SUBJECT_CHARACTERS + 1);
    expect(
      subjectProblems(
        [
          { hash: 'a'.repeat(40), subject: long },
          { hash: 'b'.repeat(40), subject: 'x'.repeat(MAX_SUBJECT_CHARACTERS) },
          // Characters, not bytes: 72 Chinese characters are 216 bytes in UTF-8.
          { hash: 'c'.repeat(40), subject: '谷'.repeat(MAX_SUBJECT_CHARACTERS) },
          { hash: 'd'.repeat(40), subject: long },
        ],
        { ddddddd: 'already on main' },
      ),
    ).toEqual([`aaaaaaaaaa: 73 characters (at most 72): ${long}`]);
  });
});
