import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchAppLaunch } from './app-fallback';

let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function hidePage() {
  visibility = 'hidden';
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('watchAppLaunch', () => {
  it('falls back when the page is still visible after the delay', () => {
    const onFallback = vi.fn();
    watchAppLaunch(document, window, 2000, onFallback);
    vi.advanceTimersByTime(1999);
    expect(onFallback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onFallback).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the app took over (the page was hidden)', () => {
    const onFallback = vi.fn();
    watchAppLaunch(document, window, 2000, onFallback);
    vi.advanceTimersByTime(500);
    hidePage();
    visibility = 'visible'; // back from the app later: still no store
    vi.advanceTimersByTime(5000);
    expect(onFallback).not.toHaveBeenCalled();
  });

  it('does nothing when the page is left (pagehide)', () => {
    const onFallback = vi.fn();
    watchAppLaunch(document, window, 2000, onFallback);
    window.dispatchEvent(new Event('pagehide'));
    vi.advanceTimersByTime(5000);
    expect(onFallback).not.toHaveBeenCalled();
  });

  it('does nothing when hidden at the moment the delay ends', () => {
    const onFallback = vi.fn();
    watchAppLaunch(document, window, 2000, onFallback);
    visibility = 'hidden';
    vi.advanceTimersByTime(2000);
    expect(onFallback).not.toHaveBeenCalled();
  });

  it('can be cancelled', () => {
    const onFallback = vi.fn();
    const cancel = watchAppLaunch(document, window, 2000, onFallback);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(onFallback).not.toHaveBeenCalled();
  });
});
