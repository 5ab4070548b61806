import { configure } from '@testing-library/react';
import { LANGUAGES } from '@guquan/contract/language';
import { appTapCode } from '../features/share/open-in-app/app-taps-on-demand';
import { loadDrawnLater } from '../features/share/page/drawn-later';
import { loadShareFailureTexts } from '../features/share/texts/share-failure-texts';
import { ALL_SHARE_PARTS, loadSharePart } from '../features/share/page/share-parts';
import { loadShareTexts } from '../features/share/texts/share-texts';
import { EVENTUALLY } from './eventually';

// Testing Library's waitFor and findBy give up after 1 s: a wait for a condition, generous so a
// slow machine fails nothing (EVENTUALLY, eventually.ts).
configure({ asyncUtilTimeout: EVENTUALLY.timeout });

// jsdom has no IntersectionObserver, which every browser the site runs in has: here one that never
// reports, so a deferred image waiting to come near the screen (lib/dom/deferred-images.ts) waits.
// A test that wants reports stubs its own.
if (!('IntersectionObserver' in globalThis))
  globalThis.IntersectionObserver = class {
    readonly root = null;
    readonly rootMargin = '';
    readonly scrollMargin = '';
    readonly thresholds = [];
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  };

// The unit tests render share pages as the server does (a share route's `prepare`): the texts of
// both languages and every part of a page (share-parts.tsx) are loaded first, and the skeleton's
// code and the taps' code as a started page has them loaded (vite.config.ts, setupFiles).
await Promise.all([
  ...LANGUAGES.map(loadShareTexts),
  ...LANGUAGES.map(loadShareFailureTexts),
  ...ALL_SHARE_PARTS.map((part) => loadSharePart(part)),
  loadDrawnLater(),
  appTapCode.load(),
]);
