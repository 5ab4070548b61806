import { describe, expect, it } from 'vitest';
import { missingBuildFiles, requireBuild } from './build-present.ts';

describe('the server tests’ build check', () => {
  it('finds this checkout’s build, which the run needs', () => {
    expect(missingBuildFiles()).toEqual([]);
  });

  it('stops the run at once without it, saying to build and what is missing', () => {
    expect(() => {
      requireBuild(() => false);
    }).toThrow(/run `npm run build` first \(missing: .*web\/dist\/client\/index\.html.*server\.js/);
    expect(missingBuildFiles((path) => !path.endsWith('migrate.js'))).toEqual([
      expect.stringMatching(/apps\/server\/dist\/migrate\.js$/),
    ]);
  });
});
