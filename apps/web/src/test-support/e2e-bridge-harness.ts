import { connectBridge } from './connect-bridge';
import type { Bridge } from './native-bridge';

/**
 * Test-only entry: tests/e2e/bridge-simulator.spec.ts bundles it (esbuild) and loads it into a
 * served page, to call connectBridge as in-app pages do before those pages exist. The app never
 * imports it, so it is in no build.
 */
declare global {
  interface Window {
    e2eBridge?: Bridge;
  }
}

export async function connect(): Promise<string> {
  const bridge = await connectBridge();
  window.e2eBridge = bridge;
  return bridge.transport();
}
