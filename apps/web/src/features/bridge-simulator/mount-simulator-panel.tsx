import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { PlatformWatch } from './platform-watch';
import { ShareSimulatorPanel } from './share-simulator-panel';
import type { SimulatedApp } from './simulated-app';
import { SimulatorPanel } from './simulator-panel';
import type { SimulatorStore } from './simulator-state';

/** The panel lives in its own React root at the end of <body>, apart from the page's own root. */
function mount(doc: Document, kind: 'in-app' | 'share', panel: ReactNode): void {
  const container = doc.createElement('div');
  container.dataset.bridgeSimulator = kind;
  doc.body.append(container);
  createRoot(container).render(panel);
}

export function mountSimulatorPanel(
  doc: Document,
  store: SimulatorStore,
  app: SimulatedApp,
  platform: PlatformWatch,
): void {
  // The share pages' panel gives way to the full one (a share page that led to an in-app page).
  doc.querySelector('[data-bridge-simulator="share"]')?.remove();
  mount(doc, 'in-app', <SimulatorPanel store={store} app={app} platform={platform} />);
}

export function mountShareSimulatorPanel(doc: Document, store: SimulatorStore): void {
  mount(doc, 'share', <ShareSimulatorPanel store={store} />);
}
