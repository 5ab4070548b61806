import { createRoot } from 'react-dom/client';
import type { PlatformWatch } from './platform-watch';
import type { SimulatedApp } from './simulated-app';
import { SimulatorPanel } from './simulator-panel';
import type { SimulatorStore } from './simulator-state';

/** The panel lives in its own React root at the end of <body>, apart from the page's own root. */
export function mountSimulatorPanel(
  doc: Document,
  store: SimulatorStore,
  app: SimulatedApp,
  platform: PlatformWatch,
): void {
  const container = doc.createElement('div');
  container.dataset.bridgeSimulator = '';
  doc.body.append(container);
  createRoot(container).render(<SimulatorPanel store={store} app={app} platform={platform} />);
}
