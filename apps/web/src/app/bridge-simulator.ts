import { sharePageKind } from '@guquan/contract/share-paths';
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
  offerShareSimulator(win);
}

/**
 * A share page asks nothing of the app, yet leads to its first launch after an install: on a demo
 * server its simulator panel (that part alone, a chunk of its own) comes once the page has loaded,
 * after everything the page itself starts with.
 */
function offerShareSimulator(win: Window): void {
  if (!sharePageKind(win.location.pathname)) return;
  const load = () => {
    import('../features/bridge-simulator/install-share-simulator').then(
      ({ installShareSimulator }) => {
        installShareSimulator(win);
      },
      () => undefined,
    );
  };
  if (win.document.readyState === 'complete') load();
  else win.addEventListener('load', load, { once: true });
}
