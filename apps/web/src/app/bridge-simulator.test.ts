import { afterEach, describe, expect, it, vi } from 'vitest';
import { bridgeStandIn, provideBridgeStandIn } from '../lib/bridge/bridge-stand-in';
import { connectBridge } from '../lib/bridge/connect-bridge';
import { isDemoMode, offerBridgeSimulator } from './bridge-simulator';
import { EVENTUALLY } from '../test-support/eventually';

const installSimulator = vi.hoisted(() => vi.fn<(win: Window) => void>());
vi.mock('../features/bridge-simulator/install-simulator', () => ({ installSimulator }));
const installShareSimulator = vi.hoisted(() => vi.fn<(win: Window) => void>());
vi.mock('../features/bridge-simulator/install-share-simulator', () => ({
  installShareSimulator,
}));

function markMode(mode: string): void {
  const meta = document.createElement('meta');
  meta.name = 'guquan-mode';
  meta.content = mode;
  document.head.append(meta);
}

afterEach(() => {
  document.head.replaceChildren();
  provideBridgeStandIn(undefined);
  installSimulator.mockClear();
  installShareSimulator.mockClear();
  window.history.replaceState(null, '', '/');
});

describe('offerBridgeSimulator', () => {
  it('on a demo server, installs the simulator when a page first asks for the bridge', async () => {
    markMode('demo');
    expect(isDemoMode(document)).toBe(true);
    offerBridgeSimulator(window);
    expect(installSimulator).not.toHaveBeenCalled();
    await connectBridge();
    expect(installSimulator).toHaveBeenCalledWith(window);
  });

  it('never offers it without the demo marker (production)', async () => {
    expect(isDemoMode(document)).toBe(false);
    offerBridgeSimulator(window);
    expect(bridgeStandIn()).toBeUndefined();
    const bridge = await connectBridge();
    expect(installSimulator).not.toHaveBeenCalled();
    expect(bridge.transport()).toBe('none');
  });

  it('on a demo server’s share page, brings the share pages’ panel once the page has loaded', async () => {
    markMode('demo');
    window.history.replaceState(null, '', '/anime_merch_web/AppShare/goodsShare?id=x');
    offerBridgeSimulator(window);
    // jsdom's document has loaded already: the panel's chunk is asked for at once.
    await vi.waitFor(() => {
      expect(installShareSimulator).toHaveBeenCalledWith(window);
    }, EVENTUALLY);
    expect(installSimulator).not.toHaveBeenCalled();
  });

  it('brings no share panel to other pages, nor in production', async () => {
    markMode('demo');
    window.history.replaceState(null, '', '/anime_merch_web/website');
    offerBridgeSimulator(window);
    document.head.replaceChildren();
    window.history.replaceState(null, '', '/anime_merch_web/AppShare/goodsShare?id=x');
    offerBridgeSimulator(window);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(installShareSimulator).not.toHaveBeenCalled();
  });

  it('does not take another mode value for demo', () => {
    markMode('production');
    expect(isDemoMode(document)).toBe(false);
  });
});
