import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetViewsForTests, takeFirstView, VIEWED_KEY_PREFIX } from './view-memory';

const ID = 'XT9gwR1a_mH_vtRA';

afterEach(() => {
  vi.restoreAllMocks();
  forgetViewsForTests();
});

describe('takeFirstView', () => {
  it('counts the first view of an item in a tab, not the next ones', () => {
    expect(takeFirstView('goods', ID)).toBe(true);
    expect(takeFirstView('goods', ID)).toBe(false);
    // Another item, or the same id of another kind, is another view.
    expect(takeFirstView('note', ID)).toBe(true);
    expect(takeFirstView('goods', 'another_public_id')).toBe(true);
  });

  it('remembers it in the tab’s sessionStorage only, so a reload does not count again', () => {
    expect(takeFirstView('cabinet', ID)).toBe(true);
    expect(sessionStorage.getItem(`${VIEWED_KEY_PREFIX}cabinet:${ID}`)).toBe('1');
    expect(localStorage.length).toBe(0);
    // A new document in the same tab (a reload, the return from the link domain or a store):
    // the page's memory is gone, the tab's is not.
    const stored = sessionStorage.getItem(`${VIEWED_KEY_PREFIX}cabinet:${ID}`);
    forgetViewsForTests();
    if (stored) sessionStorage.setItem(`${VIEWED_KEY_PREFIX}cabinet:${ID}`, stored);
    expect(takeFirstView('cabinet', ID)).toBe(false);
  });

  it('still counts once per page when storage is refused', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(takeFirstView('goods', ID)).toBe(true);
    expect(takeFirstView('goods', ID)).toBe(false);
  });
});

describe('takeFirstView with no public id', () => {
  it('counts nothing and keeps nothing', () => {
    expect(takeFirstView('goods', null)).toBe(false);
    expect(takeFirstView('goods', 'not an id!')).toBe(false);
    expect(sessionStorage.length).toBe(0);
  });
});
