import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code only a tap needs (a dialog, a sheet, a viewer): it stays out of the
 * page's start-up JavaScript and loads on the first render, or earlier through `preload` (on the
 * press, or when the visitor hovers). Where its chunk cannot be had (offline, a new deployment
 * removed it), `unavailable` runs once with the props (e.g. to close what was being opened) and
 * nothing is drawn, for the rest of the page's life: a tap that cannot be answered must not break
 * the page (a reload fetches the new deployment's chunks).
 *
 * Once its code is here, it draws at once (no empty frame). So it also serves a part the server
 * draws but the page's start-up code need not carry (a state that is rare, the end of a page): the
 * server awaits `load` before it renders, and the browser hydrates the server's HTML of the part
 * once the chunk has come (React keeps that HTML on screen until then).
 */
export interface OnDemand<P extends object> {
  Component: (props: P) => ReactNode;
  preload: () => void;
  /** Resolves once the code is here, rejects where it cannot be had (e.g. the server, before rendering). */
  load: () => Promise<void>;
}

export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  unavailable?: (props: P) => void,
): OnDemand<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const loadOnce = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined; // a later preload tries again
        throw error;
      },
    );
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

  /** The loaded component where it already is when this mounts, else the lazy one (kept after). */
  function Loaded(props: P): ReactNode {
    const [Drawn] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Drawn {...props} />;
  }

  return {
    // Always the same boundary, so the server's HTML and the hydrating tree match.
    Component: (props: P) => (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    ),
    preload: () => {
      void loadOnce().catch(() => undefined);
    },
    load: async () => {
      await loadOnce();
    },
  };
}
