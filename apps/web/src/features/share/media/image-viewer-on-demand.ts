import { onDemand } from '../../../lib/chunks/on-demand';
import type { ImageViewerProps } from './image-viewer';

/**
 * The full-screen viewer, loaded on the first tap on an image: only that tap needs it, so it stays
 * out of the share pages' start-up. Where its chunk cannot be had, the viewer closes again.
 */
export const { Component: ImageViewer, preload: preloadImageViewer } = onDemand<ImageViewerProps>(
  () => import('./image-viewer').then((module) => module.ImageViewer),
  (props) => {
    props.onClose();
  },
);
