import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { IMAGE_PARAM, parseImageIndex } from '@guquan/contract/app-link-paths';
import type { Image } from '@guquan/contract/share';
import { useHydrated } from '../../../lib/dom/use-hydrated';
import { ImageGallery } from './image-gallery';
import { ImageViewer } from './image-viewer-on-demand';
import { useAppPrompt } from '../open-in-app/app-prompt';

/** The history state of the entry the open viewer pushed: which image it opened on. */
const VIEWER_STATE_KEY = 'shareViewer';

function viewerIndexOf(state: unknown): number | null {
  const value = (state as Record<string, unknown> | null | undefined)?.[VIEWER_STATE_KEY];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * The gallery and its full-screen viewer. Opening the viewer pushes a history entry (same URL,
 * with state) so the system Back button closes it instead of leaving the page; the share's route
 * does not reload its data for that entry (see shareShouldRevalidate). The image being viewed is
 * the one "open in app" opens.
 */
export function PhotoGallery({ images, name }: { images: readonly Image[]; name: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const { setImage } = useAppPrompt();
  const [chosen, setChosen] = useState<number | null>(null);
  const viewerIndex = hydrated ? viewerIndexOf(location.state) : null;
  // A link into the app names an image (`?image=2`, kept by the link domain's fallback): once
  // hydrated (the server renders the first), the gallery starts on it; the app prompt does too.
  const startImage = hydrated
    ? parseImageIndex(new URLSearchParams(location.search).get(IMAGE_PARAM))
    : undefined;
  const index = chosen ?? (startImage !== undefined && startImage < images.length ? startImage : 0);

  function show(next: number) {
    setChosen(next);
    setImage(next);
  }

  return (
    <>
      <ImageGallery
        images={images}
        name={name}
        index={index}
        onIndexChange={show}
        onOpen={(opened) => {
          show(opened);
          void navigate(
            { pathname: location.pathname, search: location.search, hash: location.hash },
            { state: { [VIEWER_STATE_KEY]: opened }, preventScrollReset: true },
          );
        }}
      />
      {viewerIndex !== null && viewerIndex < images.length ? (
        <ImageViewer
          images={images}
          name={name}
          startIndex={viewerIndex}
          onIndexChange={show}
          onClose={() => {
            void navigate(-1);
          }}
        />
      ) : null}
    </>
  );
}
