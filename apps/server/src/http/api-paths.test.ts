import { describe, expect, it } from 'vitest';
import { MEMBERSHIP_PATH } from '@guquan/contract/membership';
import { apiRoute } from './api-paths.ts';

describe('apiRoute', () => {
  it('turns a contract path into a route under the API prefix, and refuses any other', () => {
    expect(apiRoute(MEMBERSHIP_PATH)).toBe('/membership');
    expect(() => apiRoute('/anime_merch_web/media')).toThrow(/not under/);
  });
});
