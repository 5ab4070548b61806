import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/**
 * False while rendering on the server and hydrating, true afterwards: what only the browser knows
 * (the address's extras, a history entry's state) can then change the page without a mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
