import { describe, expect, it } from 'vitest';
import { demoSmsSender } from './demo-sms-sender.ts';

describe('the demo SMS sender', () => {
  it('keeps the last code per phone and sends nothing', async () => {
    const sender = demoSmsSender(() => new Date('2025-12-01T00:00:00.000Z'));
    await sender.send({ kind: 'verification_code', phone: '13800000001', code: '123456' });
    await sender.send({ kind: 'account_deleted', phone: '13800000001' });
    expect(sender.latestCode('13800000001')).toEqual({
      code: '123456',
      sentAt: '2025-12-01T00:00:00.000Z',
    });
    expect(sender.latestCode('13800000002')).toBeUndefined();
  });
});
