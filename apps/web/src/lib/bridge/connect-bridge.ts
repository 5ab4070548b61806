import { getBridge, type Bridge } from './native-bridge';

/** True when the server runs in demo mode (it marks its pages); never in production. */
export function isDemoMode(doc: Document): boolean {
  return doc.querySelector('meta[name="guquan-mode"][content="demo"]') !== null;
}

/**
 * The bridge, ready to use: inside the app as it is; in an ordinary browser on a demo server, the
 * bridge simulator (its own chunk, loaded only then) first takes the app's place.
 */
export async function connectBridge(): Promise<Bridge> {
  const bridge = getBridge();
  if (bridge.transport() === 'none' && isDemoMode(document)) {
    const { installSimulator } = await import('../../features/bridge-simulator/install-simulator');
    installSimulator(window);
  }
  return bridge;
}
