import { IOS_HANDLER_NAME, RECEIVER_GLOBAL } from '@guquan/contract/bridge';
import { createDemoApi } from './demo-api';
import { mountSimulatorPanel } from './mount-simulator-panel';
import { createPlatformWatch } from './platform-watch';
import { createSimulatedApp, type SimulatedApp } from './simulated-app';
import { createSimulatorStore } from './simulator-state';
import { createTransactionKeeper } from './transaction-keeper';

/**
 * The bridge simulator: plays the 谷圈 app in an ordinary browser on a demo server. Only
 * app/bridge-simulator.ts loads it (dynamically, when the server marks its pages as demo), so it is a
 * chunk of its own that production pages never load.
 *
 * It installs what the iOS app installs, window.webkit.messageHandlers.goodsCircle, so pages use
 * the real message path, and answers through window.__goodsCircleBridge.receive as the app does.
 */
interface AppGlobals {
  webkit?: { messageHandlers?: Record<string, { postMessage: (message: unknown) => void }> };
  [RECEIVER_GLOBAL]?: { receive: (message: unknown) => void };
}

const installed = new WeakMap<Window, SimulatedApp>();

export function installSimulator(win: Window): SimulatedApp {
  const existing = installed.get(win);
  if (existing) return existing;

  const store = createSimulatorStore(win.sessionStorage);
  const api = createDemoApi(win.fetch.bind(win));
  const app = createSimulatedApp({
    store,
    keeper: createTransactionKeeper(win.localStorage),
    api,
    deliver: (message) => {
      (win as AppGlobals)[RECEIVER_GLOBAL]?.receive(message);
    },
  });

  const globals = win as AppGlobals;
  globals.webkit ??= {};
  globals.webkit.messageHandlers ??= {};
  globals.webkit.messageHandlers[IOS_HANDLER_NAME] = {
    postMessage: (message) => {
      // WebKit hands the app a structured clone, never the page's own object (and throws
      // DataCloneError for what cannot be cloned): do the same so pages meet the same rules.
      app.receive(structuredClone(message));
    },
  };

  mountSimulatorPanel(win.document, store, app, createPlatformWatch(store, api));
  installed.set(win, app);
  return app;
}
