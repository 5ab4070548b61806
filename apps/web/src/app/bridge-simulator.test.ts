import { afterEach, describe, expect, it, vi } from 'vitest';
import { bridgeStandIn, provideBridgeStandIn } from '../lib/bridge/bridge-stand-in';
import { connectBridge } from '../lib/bridge/connect-bridge';
import { isDemoMode, offerBridgeSimulator } from './bridge-simulator';

const installSimulator = vi.hoisted(() => vi.fn<(win: Window) => void>());
vi.mock('../features/bridge-simulator/install-simulator', () => ({ installSimulator }));

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

  it('does not take another mode value for demo', () => {
    markMode('production');
    expect(isDemoMode(document)).toBe(false);
  });
});
