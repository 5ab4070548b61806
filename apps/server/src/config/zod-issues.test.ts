import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstIssues, issueText } from './zod-issues.ts';

function errorOf(schema: z.ZodType, input: unknown): z.ZodError {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.error;
}

describe('zod issues as text', () => {
  const four = z.object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.null() });

  it('names the path of an issue, or the whole input', () => {
    const [inList] = errorOf(z.object({ events: z.array(z.string()) }), { events: [1] }).issues;
    expect(inList && issueText(inList, '(body)')).toBe(
      'events.0: Invalid input: expected string, received number',
    );
    const [whole] = errorOf(four, 'x').issues;
    expect(whole && issueText(whole, '(body)')).toMatch(/^\(body\): Invalid input/);
  });

  it('keeps the first three issues, one after the other', () => {
    expect(firstIssues(errorOf(four, {}), '(query)')).toMatch(/^a: .+; b: .+; c: [^;]+$/);
  });
});
