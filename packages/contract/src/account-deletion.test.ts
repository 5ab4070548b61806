import { describe, expect, it } from 'vitest';
import { maskPhone } from './account-deletion.ts';

describe('maskPhone', () => {
  it('shows a mainland number from the platform (E.164) as people write it', () => {
    expect(maskPhone('+8613800000001')).toBe('138****0001');
  });

  it('shows any other number by its first three characters and last four', () => {
    expect(maskPhone('+447911123456')).toBe('+44****3456');
    expect(maskPhone('+85212345678')).toBe('+85****5678');
    expect(maskPhone('13800000001')).toBe('138****0001');
    expect(maskPhone('+1234')).toBe('****');
  });
});
