import { mountShareSimulatorPanel } from './mount-simulator-panel';
import { createSimulatorStore } from './simulator-state';

/**
 * The simulator's panel on a share page of a demo server: app/bridge-simulator.ts loads this chunk
 * once the page has loaded, never in production. A share page asks nothing of the app, so no
 * bridge is installed: the panel plays the first launch after an install. Once per window, and
 * not beside the in-app pages' panel.
 */
export function installShareSimulator(win: Window): void {
  if (win.document.querySelector('[data-bridge-simulator]')) return;
  mountShareSimulatorPanel(win.document, createSimulatorStore(win.sessionStorage));
}
