import type { ZodError } from 'zod';

type ZodIssue = ZodError['issues'][number];

/**
 * One zod issue as a person reads it: where (the path, or `whole` when it is about the input as a
 * whole) and what, e.g. `events.0.kind: Invalid option`. Config errors, refused beacons and
 * refused queries all read this way.
 */
export function issueText(issue: ZodIssue, whole: string): string {
  return `${issue.path.join('.') || whole}: ${issue.message}`;
}

/** The first three issues of a refused input, for an error's message: `a: …; b: …; c: …`. */
export function firstIssues(error: ZodError, whole: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => issueText(issue, whole))
    .join('; ');
}
