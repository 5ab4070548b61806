import { afterEach, describe, expect, it, vi } from 'vitest';
import { provideBridgeStandIn } from './bridge-stand-in';
import { connectBridge } from './connect-bridge';

interface AppGlobals {
  webkit?: unknown;
}

afterEach(() => {
  provideBridgeStandIn(undefined);
  delete (window as AppGlobals).webkit;
});

describe('connectBridge', () => {
  it('lets the stand-in the app provided play the app in an ordinary browser', async () => {
    const standIn = vi.fn(() => Promise.resolve());
    provideBridgeStandIn(standIn);
    await connectBridge();
    expect(standIn).toHaveBeenCalledOnce();
  });

  it('has no app without a stand-in (production)', async () => {
    const bridge = await connectBridge();
    expect(bridge.transport()).toBe('none');
  });

  it('leaves the real app alone even when a stand-in was provided', async () => {
    const standIn = vi.fn(() => Promise.resolve());
    provideBridgeStandIn(standIn);
    (window as AppGlobals).webkit = { messageHandlers: { goodsCircle: { postMessage: vi.fn() } } };
    const bridge = await connectBridge();
    expect(standIn).not.toHaveBeenCalled();
    expect(bridge.transport()).toBe('ios');
  });
});
