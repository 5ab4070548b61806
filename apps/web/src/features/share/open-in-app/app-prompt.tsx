import { createContext, useContext, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { OpenInBrowserGuide } from '../../../components/open-in-browser-guide/open-in-browser-guide';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { fill, useShareMessages } from '../share-messages';
import { shareTarget } from './app-link';
import { useOpenInApp } from './use-open-in-app';

interface AppPrompt {
  /** Opens the shared item (and the image being viewed) in the app, or shows the way there. */
  openApp: () => void;
  /** The image the visitor is looking at, so the app opens on the same one. */
  setImage: (index: number) => void;
}

const AppPromptContext = createContext<AppPrompt>({
  openApp: () => undefined,
  setImage: () => undefined,
});

export function useAppPrompt(): AppPrompt {
  return useContext(AppPromptContext);
}

/**
 * What every part of a share page uses to open the app: the top bar, the main button and the
 * state views, all on the page's target (shareTarget).
 */
export function AppPromptProvider({ kind, children }: { kind: ShareKind; children: ReactNode }) {
  const { search } = useLocation();
  const [image, setImage] = useState(0);
  const target = shareTarget(kind, search, image);
  const { openApp, guideOpen, closeGuide } = useOpenInApp(target);
  const { inAppBrowser } = useClientInfo();
  const text = useShareMessages();
  return (
    <AppPromptContext value={{ openApp, setImage }}>
      {children}
      {inAppBrowser === 'none' ? null : (
        <OpenInBrowserGuide
          open={guideOpen}
          onClose={closeGuide}
          texts={{
            ...text.guide,
            hint: fill(text.guide.hint, { app: text.inAppNames[inAppBrowser] }),
          }}
        />
      )}
    </AppPromptContext>
  );
}
