import type { SmsSender } from '../account-deletion/sms-sender.ts';

/** Demo mode's SMS stand-in: it never sends a text, it keeps the last code per phone. */
export interface DemoSmsSender extends SmsSender {
  /** The last code "sent" to a phone, if any. */
  latestCode(phone: string): { code: string; sentAt: string } | undefined;
}

export function demoSmsSender(now: () => Date = () => new Date()): DemoSmsSender {
  const latest = new Map<string, { code: string; sentAt: string }>();
  return {
    send(message) {
      if (message.kind === 'verification_code') {
        latest.set(message.phone, { code: message.code, sentAt: now().toISOString() });
      }
      return Promise.resolve();
    },
    latestCode: (phone) => latest.get(phone),
  };
}
