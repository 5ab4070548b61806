import { createHmac, timingSafeEqual } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { platformDeliverySchema } from '../../packages/contract/src/platform-events.ts';
import { platformEventsOutDeliverySchema } from '../../packages/contract/src/platform-events-out.ts';
import { currentPlatformDoc } from './platform-doc.ts';

/**
 * docs/platform.md, for the platform team: its generated part is current (the JSON Schemas are
 * the contract's), and its signed example is a real one, checked here from the page's own text
 * with node:crypto, independently of the code that wrote it.
 */
describe('docs/platform.md', () => {
  let doc: Awaited<ReturnType<typeof currentPlatformDoc>>;
  beforeAll(async () => {
    doc = await currentPlatformDoc();
  });

  it('has the JSON Schemas and the example the contract makes (node scripts/platform-doc.mjs)', () => {
    const { written, expected } = doc;
    expect(written, 'stale: run node scripts/platform-doc.mjs').toBe(expected);
  });

  it('has a signed example delivery that verifies with its example secret', () => {
    const { written } = doc;
    const part = written.slice(written.indexOf('### A signed delivery, worked through'));
    const secret = /`(whsec_[A-Za-z0-9+/=]+)`/.exec(part)?.[1];
    const header = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(part)?.[1];
    const id = header('webhook-id');
    const timestamp = header('webhook-timestamp');
    const signature = header('webhook-signature');
    const body = /exactly these bytes[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(part)?.[1];
    if (!secret || !id || !timestamp || !signature || body === undefined) {
      throw new Error('the example lacks its secret, a header or its body');
    }

    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(key.length).toBeGreaterThanOrEqual(24);
    const expectedMac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
    const sent = signature.split(' ').map((one) => Buffer.from(one.replace(/^v1,/, ''), 'base64'));
    expect(
      sent.some((mac) => mac.length === expectedMac.length && timingSafeEqual(mac, expectedMac)),
    ).toBe(true);
    // …and one changed byte of the body does not.
    const tampered = createHmac('sha256', key)
      .update(`${id}.${timestamp}.${body.replace('1280', '1281')}`)
      .digest();
    expect(sent.some((mac) => mac.equals(tampered))).toBe(false);

    expect(platformDeliverySchema.safeParse(JSON.parse(body)).success).toBe(true);
  });

  it("has a signed sample of the site's events out that verifies and is what the site sends", () => {
    const { written } = doc;
    const all = written.slice(written.indexOf('### A signed delivery, worked through'));
    const secret = /`(whsec_[A-Za-z0-9+/=]+)`/.exec(all)?.[1];
    const part = written.slice(written.indexOf('### Events out: a signed delivery'));
    const header = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(part)?.[1];
    const id = header('webhook-id');
    const timestamp = header('webhook-timestamp');
    const signature = header('webhook-signature');
    const body = /^(\{"events":.*)$/m.exec(part)?.[1];
    if (!secret || !id || !timestamp || !signature || body === undefined) {
      throw new Error('the sample lacks its secret, a header or its body');
    }
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expectedMac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
    const sent = Buffer.from(signature.replace(/^v1,/, ''), 'base64');
    expect(sent.length === expectedMac.length && timingSafeEqual(sent, expectedMac)).toBe(true);
    expect(platformEventsOutDeliverySchema.safeParse(JSON.parse(body)).success).toBe(true);
  });
});
