import { provideBridgeStandIn } from '../lib/bridge/bridge-stand-in';

/** True when the server runs in demo mode (it marks its pages); never in production. */
export function isDemoMode(doc: Document): boolean {
  return doc.querySelector('meta[name="guquan-mode"][content="demo"]') !== null;
}

/**
 * On a demo server, the bridge simulator plays the app in an ordinary browser: it is loaded (a
 * chunk of its own) and installed when a page first asks for the bridge outside the app. Pages
 * of a production server carry no demo marker, so they never load it.
 */
export function offerBridgeSimulator(win: Window): void {
  if (!isDemoMode(win.document)) return;
  provideBridgeStandIn(async () => {
    const { installSimulator } = await import('../features/bridge-simulator/install-simulator');
    installSimulator(win);
  });
}
