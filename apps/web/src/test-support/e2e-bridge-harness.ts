import { offerBridgeSimulator } from '../app/bridge-simulator';
import { connectBridge } from '../lib/bridge/connect-bridge';
import type { Bridge } from '../lib/bridge/native-bridge';

/**
 * Test-only entry: tests/e2e/bridge-simulator.spec.ts bundles it (esbuild) and loads it into a
 * served page, to start the bridge there as the app's entry and an in-app page do (offer the
 * simulator, then connect). The app never imports it, so it is in no build.
 */
declare global {
  interface Window {
    e2eBridge?: Bridge;
  }
}

export async function connect(): Promise<string> {
  offerBridgeSimulator(window);
  const bridge = await connectBridge();
  window.e2eBridge = bridge;
  return bridge.transport();
}
