import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppTarget } from './app-link';

const reportShareEventSoon = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/funnel/report-soon', () => ({ reportShareEventSoon }));
// The setup file (prepare-share-pages.ts) loaded the store with the real report already: this
// file's own copy sees the mock.
vi.resetModules();
const store = await import('./prompt-store');
const { EMPTY_PROMPT } = store;

// The store is the page's, one per document: each test starts from and leaves it empty (reset),
// so none sees another's state.
beforeEach(() => {
  store.reset();
  reportShareEventSoon.mockClear();
});
afterEach(() => {
  store.reset();
});

const GOODS: AppTarget = { kind: 'goods', id: 'goodsAAAAAAAAAA1', image: 0 };
const CABINET: AppTarget = { kind: 'cabinet', id: 'cabinetAAAAAAAA1' };

describe('the prompt store', () => {
  it('starts empty: no sheet, no toast, no guide', () => {
    expect(store.getSnapshot()).toBe(EMPTY_PROMPT);
    expect(EMPTY_PROMPT).toEqual({ missingApp: { sheet: null, toast: null }, guideOpen: false });
  });

  it('shows the sheet about a target, returned or not, and closes it', () => {
    store.showSheet(GOODS);
    expect(store.getSnapshot().missingApp).toEqual({
      sheet: { target: GOODS, returned: false },
      toast: null,
    });
    store.showSheet(CABINET, true);
    expect(store.getSnapshot().missingApp.sheet).toEqual({ target: CABINET, returned: true });
    store.closeSheet();
    expect(store.getSnapshot().missingApp).toEqual({ sheet: null, toast: null });
  });

  it('the sheet replaces a toast; the toast comes and goes through setMissingApp', () => {
    store.setMissingApp(() => ({ sheet: null, toast: { copied: true } }));
    expect(store.getSnapshot().missingApp.toast).toEqual({ copied: true });
    store.showSheet(GOODS);
    expect(store.getSnapshot().missingApp.toast).toBeNull();
    store.setMissingApp(() => ({ sheet: null, toast: { copied: false } }));
    store.setMissingApp((state) => ({ ...state, toast: null }));
    expect(store.getSnapshot().missingApp).toEqual({ sheet: null, toast: null });
  });

  it('gives a new snapshot per change, the same one while nothing changes, and never changes one', () => {
    const listener = vi.fn();
    store.subscribe(listener);
    const before = store.getSnapshot();
    store.closeSheet();
    store.closeGuide();
    store.setMissingApp((state) => ({ ...state, toast: null }));
    store.reset();
    expect(store.getSnapshot()).toBe(before);
    expect(listener).not.toHaveBeenCalled();

    store.openGuide();
    const open = store.getSnapshot();
    expect(open).not.toBe(before);
    expect(before).toBe(EMPTY_PROMPT);
    expect(EMPTY_PROMPT.guideOpen).toBe(false);
    store.openGuide();
    expect(store.getSnapshot()).toBe(open);
    expect(listener).toHaveBeenCalledTimes(1);

    store.showSheet(GOODS);
    // The guide's part is the same; the sheet's is new.
    expect(store.getSnapshot().guideOpen).toBe(true);
    expect(open.missingApp.sheet).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('counts each showing of the guide about a target, once; opening it otherwise counts nothing', () => {
    store.showGuide(GOODS);
    expect(store.getSnapshot().guideOpen).toBe(true);
    expect(reportShareEventSoon).toHaveBeenCalledTimes(1);
    expect(reportShareEventSoon).toHaveBeenCalledWith('guide_shown', 'goods', 'goodsAAAAAAAAAA1');
    store.closeGuide();
    expect(store.getSnapshot().guideOpen).toBe(false);
    store.showGuide(null);
    expect(store.getSnapshot().guideOpen).toBe(true);
    store.closeGuide();
    store.openGuide();
    expect(store.getSnapshot().guideOpen).toBe(true);
    expect(reportShareEventSoon).toHaveBeenCalledTimes(1);
  });

  it('tells its listeners of each change until they unsubscribe; reset empties it', () => {
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.showSheet(GOODS);
    store.openGuide();
    expect(listener).toHaveBeenCalledTimes(2);
    store.reset();
    expect(store.getSnapshot()).toBe(EMPTY_PROMPT);
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    store.showSheet(GOODS);
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
