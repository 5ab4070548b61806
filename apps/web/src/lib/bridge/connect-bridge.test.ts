import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectBridge, isDemoMode } from './connect-bridge';

const installSimulator = vi.hoisted(() => vi.fn<(win: Window) => void>());
vi.mock('../../features/bridge-simulator/install-simulator', () => ({ installSimulator }));

interface AppGlobals {
  webkit?: unknown;
}

function markDemo(): void {
  const meta = document.createElement('meta');
  meta.name = 'guquan-mode';
  meta.content = 'demo';
  document.head.append(meta);
}

afterEach(() => {
  document.head.replaceChildren();
  delete (window as AppGlobals).webkit;
  installSimulator.mockClear();
});

describe('connectBridge', () => {
  it('installs the simulator in an ordinary browser on a demo server', async () => {
    markDemo();
    expect(isDemoMode(document)).toBe(true);
    await connectBridge();
    expect(installSimulator).toHaveBeenCalledWith(window);
  });

  it('never installs it without the demo marker (production)', async () => {
    expect(isDemoMode(document)).toBe(false);
    const bridge = await connectBridge();
    expect(installSimulator).not.toHaveBeenCalled();
    expect(bridge.transport()).toBe('none');
  });

  it('leaves the real app alone even on a demo server', async () => {
    markDemo();
    (window as AppGlobals).webkit = { messageHandlers: { goodsCircle: { postMessage: vi.fn() } } };
    const bridge = await connectBridge();
    expect(installSimulator).not.toHaveBeenCalled();
    expect(bridge.transport()).toBe('ios');
  });

  it('does not take another mode value for demo', () => {
    const meta = document.createElement('meta');
    meta.name = 'guquan-mode';
    meta.content = 'production';
    document.head.append(meta);
    expect(isDemoMode(document)).toBe(false);
  });
});
