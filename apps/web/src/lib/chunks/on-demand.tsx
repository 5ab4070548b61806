import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code only a tap needs (a dialog, a sheet, a viewer): it stays out of the
 * page's start-up JavaScript and loads on the first render, or earlier through `preload` (on the
 * press, or when the visitor hovers). Where its chunk cannot be had (offline, a new deployment
 * removed it), `unavailable` runs once with the props (e.g. to close what was being opened) and
 * nothing is drawn, for the rest of the page's life: a tap that cannot be answered must not break
 * the page (a reload fetches the new deployment's chunks).
 */
export interface OnDemand<P extends object> {
  Component: (props: P) => ReactNode;
  preload: () => void;
}

export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  unavailable?: (props: P) => void,
): OnDemand<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const loadOnce = (): Promise<ComponentType<P>> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // a later preload tries again
      throw error;
    });
    return loading;
  };

  function Unavailable(props: P): ReactNode {
    useEffect(() => {
      unavailable?.(props);
      // Once, when the load failed: not again when the props change.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);
    return null;
  }

  const Lazy = lazy<ComponentType<P>>(() =>
    loadOnce().then(
      (component) => ({ default: component }),
      () => ({ default: Unavailable }),
    ),
  );

  return {
    Component: (props: P) => (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    ),
    preload: () => {
      void loadOnce().catch(() => undefined);
    },
  };
}
