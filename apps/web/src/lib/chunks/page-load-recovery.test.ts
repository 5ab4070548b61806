import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import {
  loadWithRecovery,
  PageLoadError,
  RELOAD_GUARD_MS,
  RELOAD_MARK_KEY,
  resetRecoveryState,
  type RecoveryEnvironment,
} from './page-load-recovery';

function environment(now = 1_000_000): RecoveryEnvironment & {
  reload: Mock<() => void>;
  store: Map<string, string>;
  clock: { now: number };
} {
  const store = new Map<string, string>();
  const clock = { now };
  return {
    store,
    clock,
    storage: {
      getItem: (key) => store.get(key) ?? null,
      setItem: (key, value) => {
        store.set(key, value);
      },
      removeItem: (key) => {
        store.delete(key);
      },
    },
    reload: vi.fn<() => void>(),
    now: () => clock.now,
  };
}

const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
const pending = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((resolve) => {
      setTimeout(() => {
        resolve('pending');
      }, 20);
    }),
  ]);

describe('loadWithRecovery', () => {
  beforeEach(() => {
    resetRecoveryState();
  });

  it('returns the module and clears an earlier reload mark', async () => {
    const env = environment();
    env.store.set(RELOAD_MARK_KEY, '1');
    await expect(loadWithRecovery(() => Promise.resolve('page'), env)).resolves.toBe('page');
    expect(env.store.has(RELOAD_MARK_KEY)).toBe(false);
    expect(env.reload).not.toHaveBeenCalled();
  });

  it('reloads once on the first failure and keeps the page waiting for the reload', async () => {
    const env = environment();
    const result = loadWithRecovery(failing, env);
    expect(await pending(result)).toBe('pending');
    expect(env.reload).toHaveBeenCalledTimes(1);
    expect(env.store.get(RELOAD_MARK_KEY)).toBe(String(env.clock.now));
  });

  it('fails with a PageLoadError instead of reloading again soon after a reload', async () => {
    const env = environment();
    env.store.set(RELOAD_MARK_KEY, String(env.clock.now - 1000));
    await expect(loadWithRecovery(failing, env)).rejects.toBeInstanceOf(PageLoadError);
    expect(env.reload).not.toHaveBeenCalled();
  });

  it('reloads again once the guard period has passed', async () => {
    const env = environment();
    env.store.set(RELOAD_MARK_KEY, String(env.clock.now - RELOAD_GUARD_MS - 1));
    void loadWithRecovery(failing, env);
    await Promise.resolve();
    await Promise.resolve();
    expect(env.reload).toHaveBeenCalledTimes(1);
  });

  it('never reloads when it cannot remember having reloaded (no storage)', async () => {
    const env = { ...environment(), storage: undefined };
    await expect(loadWithRecovery(failing, env)).rejects.toBeInstanceOf(PageLoadError);
    expect(env.reload).not.toHaveBeenCalled();
  });

  it('never reloads when storage refuses writes', async () => {
    const env = environment();
    env.storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    await expect(loadWithRecovery(failing, env)).rejects.toBeInstanceOf(PageLoadError);
    expect(env.reload).not.toHaveBeenCalled();
  });
});
