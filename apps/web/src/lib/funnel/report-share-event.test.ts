import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { funnelBeaconSchema } from '@guquan/contract/funnel';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { reportShareEvent, sendQueuedShareEvents } from './report-share-event';

const ID = 'XT9gwR1a_mH_vtRA';
let beacons: { url: string; body: string }[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  beacons = [];
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, body: string) => {
      beacons.push({ url, body });
      return true;
    },
  });
});
afterEach(() => {
  sendQueuedShareEvents();
  vi.useRealTimers();
});

describe('reportShareEvent', () => {
  it('sends events within half a second together, as text the server’s schema accepts', () => {
    reportShareEvent('viewed', 'goods', ID);
    reportShareEvent('open_tapped', 'goods', ID);
    expect(beacons).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(beacons).toHaveLength(1);
    expect(beacons[0]?.url).toBe(EVENTS_PATH);
    // A string body: sendBeacon sends it as text/plain, so no CORS preflight.
    expect(typeof beacons[0]?.body).toBe('string');
    expect(funnelBeaconSchema.parse(JSON.parse(beacons[0]?.body ?? ''))).toEqual({
      events: [
        { event: 'viewed', kind: 'goods', id: ID },
        { event: 'open_tapped', kind: 'goods', id: ID },
      ],
    });
  });

  it('sends at once when the page is hidden (the app or the store opened)', () => {
    reportShareEvent('store_fallback', 'note', ID);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(1);
  });

  it('sends at once when asked (the page is about to go to the store)', () => {
    reportShareEvent('open_tapped', 'goods', ID);
    reportShareEvent('store_fallback', 'goods', ID, { sendNow: true });
    expect(beacons).toHaveLength(1);
    expect(JSON.parse(beacons[0]?.body ?? '')).toEqual({
      events: [
        { event: 'open_tapped', kind: 'goods', id: ID },
        { event: 'store_fallback', kind: 'goods', id: ID },
      ],
    });
  });

  it('keeps beacons small and ignores a missing or malformed id', () => {
    for (let index = 0; index < 12; index += 1) reportShareEvent('viewed', 'cabinet', ID);
    reportShareEvent('viewed', 'cabinet', null);
    reportShareEvent('viewed', 'cabinet', '<script>');
    sendQueuedShareEvents();
    const sizes = beacons.map(
      ({ body }) => (JSON.parse(body) as { events: unknown[] }).events.length,
    );
    expect(sizes).toEqual([10, 2]);
  });
});
