import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAppError, installFakeApp, type FakeApp } from '../../test-support/fake-app';
import { useAppSession } from './use-app-session';

const SESSION = { token: `h.p.${'T'.repeat(43)}`, userId: 'eqv4wOwctxOn7xAR' };
const HANDSHAKE = { bridgeVersion: 1, platform: 'ios', appVersion: '3.2.0' };

let app: FakeApp | undefined;
afterEach(() => {
  app?.remove();
  app = undefined;
});

function methods(): string[] {
  return app?.calls.map((call) => call.method) ?? [];
}

describe('useAppSession', () => {
  it('says no app in an ordinary browser, asking nothing', async () => {
    const { result } = renderHook(() => useAppSession({ handshake: true }));
    expect(result.current.phase).toEqual({ kind: 'connecting' });
    await waitFor(() => {
      expect(result.current.phase).toEqual({ kind: 'no_app' });
    });
  });

  it('goes bridge → handshake → session → logged in', async () => {
    app = installFakeApp({ handshake: HANDSHAKE, getSession: SESSION });
    const { result } = renderHook(() => useAppSession({ handshake: true }));
    await waitFor(() => {
      expect(result.current.phase.kind).toBe('logged_in');
    });
    expect(result.current.phase).toMatchObject({ platform: 'ios', session: SESSION });
    expect(methods()).toEqual(['handshake', 'getSession']);
  });

  it('skips the handshake for a page that does not need it', async () => {
    app = installFakeApp({ getSession: SESSION });
    const { result } = renderHook(() => useAppSession({ handshake: false }));
    await waitFor(() => {
      expect(result.current.phase.kind).toBe('logged_in');
    });
    expect(result.current.phase).toMatchObject({ platform: undefined });
    expect(methods()).toEqual(['getSession']);
  });

  it('starts nothing while disabled', async () => {
    app = installFakeApp({ getSession: SESSION });
    const { result } = renderHook(() => useAppSession({ handshake: true, enabled: false }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(result.current.phase).toEqual({ kind: 'connecting' });
    expect(methods()).toEqual([]);
  });

  it('is logged out without a session; the log-in gives one, or leaves it as it was', async () => {
    let login: unknown = null;
    app = installFakeApp({ handshake: HANDSHAKE, getSession: null, login: () => login });
    const { result } = renderHook(() => useAppSession({ handshake: true }));
    await waitFor(() => {
      expect(result.current.phase.kind).toBe('logged_out');
    });
    let outcome: string | undefined;
    await act(async () => {
      outcome = await result.current.logIn();
    });
    expect(outcome).toBe('gave_up');
    expect(result.current.phase.kind).toBe('logged_out');

    login = SESSION;
    await act(async () => {
      outcome = await result.current.logIn();
    });
    expect(outcome).toBe('logged_in');
    expect(result.current.phase).toMatchObject({ kind: 'logged_in', session: SESSION });

    app.calls.length = 0;
    login = new FakeAppError('failed', 'no');
    act(() => {
      result.current.sessionEnded();
    });
    expect(result.current.phase.kind).toBe('logged_out');
    await act(async () => {
      outcome = await result.current.logIn();
    });
    expect(outcome).toBe('failed');
    expect(result.current.phase.kind).toBe('logged_out');
  });

  it('follows a log-in or log-out made in the app when the page is resumed', async () => {
    let current: unknown = null;
    app = installFakeApp({ getSession: () => current });
    const { result } = renderHook(() => useAppSession({ handshake: false }));
    await waitFor(() => {
      expect(result.current.phase.kind).toBe('logged_out');
    });
    current = SESSION;
    act(() => {
      app?.push('resumed', {});
    });
    await waitFor(() => {
      expect(result.current.phase).toMatchObject({ kind: 'logged_in', session: SESSION });
    });
    // The same user with a refreshed token: nothing changes for the page.
    const before = result.current.phase;
    current = { ...SESSION, token: `h.p.${'R'.repeat(43)}` };
    await act(async () => {
      app?.push('resumed', {});
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(result.current.phase).toBe(before);
    current = null;
    act(() => {
      app?.push('resumed', {});
    });
    await waitFor(() => {
      expect(result.current.phase.kind).toBe('logged_out');
    });
  });

  it('names the step that failed, and starts over from the bridge', async () => {
    let handshake: unknown = new FakeAppError('failed', 'no');
    app = installFakeApp({
      handshake: () => handshake,
      getSession: new FakeAppError('failed', 'no'),
    });
    const { result } = renderHook(() => useAppSession({ handshake: true }));
    await waitFor(() => {
      expect(result.current.phase).toEqual({ kind: 'failed', step: 'handshake' });
    });
    handshake = HANDSHAKE;
    act(() => {
      result.current.restart();
    });
    expect(result.current.phase).toEqual({ kind: 'connecting' });
    await waitFor(() => {
      expect(result.current.phase).toMatchObject({
        kind: 'failed',
        step: 'session',
        platform: 'ios',
      });
    });
    expect(methods()).toEqual(['handshake', 'handshake', 'getSession']);
  });
});
