import { describe, expect, it } from 'vitest';
import { clientHasPage, preferredEncoding } from './page-response.ts';

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0, gzip;q=0', undefined],
    ['identity', undefined],
    ['BR', 'br'],
  ])('%s gives %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('clientHasPage', () => {
  it('compares entity tags weakly and reads lists and *', () => {
    expect(clientHasPage('W/"abc"', 'W/"abc"')).toBe(true);
    expect(clientHasPage('"abc"', 'W/"abc"')).toBe(true);
    expect(clientHasPage('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(clientHasPage('*', 'W/"abc"')).toBe(true);
    expect(clientHasPage('W/"abd"', 'W/"abc"')).toBe(false);
    expect(clientHasPage(undefined, 'W/"abc"')).toBe(false);
  });
});
