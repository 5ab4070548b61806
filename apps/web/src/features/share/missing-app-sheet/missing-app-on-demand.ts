import { onDemand } from '../../../lib/chunks/on-demand';
import { appTapCode } from '../open-in-app/app-taps-on-demand';
import type { MissingAppLayerProps } from './missing-app-layer';

/**
 * The missing-app sheet and the store toast, loaded on demand (a tap, or a return from the link
 * domain): never part of the share pages' start-up JavaScript. Before a toast, `load` lets the
 * store wait until the toast can be drawn; where the code cannot be had, nothing is drawn and the
 * store opens all the same. The page's tap code comes with it: the sheet's stores are taps.
 */
export const { Component: MissingAppLayer, load: loadMissingAppLayer } =
  onDemand<MissingAppLayerProps>(() =>
    Promise.all([import('./missing-app-layer'), appTapCode.load()]).then(
      ([module]) => module.MissingAppLayer,
    ),
  );
