import { createContext, useContext, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { OpenInBrowserGuide } from '../../../components/open-in-browser-guide/open-in-browser-guide';
import { needsBrowserForStores } from '../../../lib/client/app-opening';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { reportShareEvent } from '../../../lib/funnel/report-share-event';
import { fill, useShareMessages } from '../share-messages';
import type { ShareCard } from '../wechat/wechat-js-sdk';
import { useWeChat } from '../wechat/use-wechat';
import { schemeLink, shareTarget } from './app-link';
import { useOpenInApp } from './use-open-in-app';

interface AppPrompt {
  /** Opens the shared item (and the image being viewed) in the app, or shows the way there. */
  openApp: () => void;
  /** The image the visitor is looking at, so the app opens on the same one. */
  setImage: (index: number) => void;
  /** Inside WeChat, once its open tag is usable: what the tag opens, and what follows a failure. */
  wechatLaunch: { openAppId: string; extinfo: string; onFailure: () => void } | null;
  /** The card WeChat shows when the page is shared (used inside WeChat only). */
  setShareCard: (card: ShareCard) => void;
}

const AppPromptContext = createContext<AppPrompt>({
  openApp: () => undefined,
  setImage: () => undefined,
  wechatLaunch: null,
  setShareCard: () => undefined,
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
  const { openApp, guideOpen, showGuide, closeGuide } = useOpenInApp(target);
  const wechat = useWeChat();
  const wechatLaunch = wechat.openAppId
    ? { openAppId: wechat.openAppId, extinfo: schemeLink(target), onFailure: showGuide }
    : null;
  const client = useClientInfo();
  const { inAppBrowser } = client;
  const text = useShareMessages();
  return (
    <AppPromptContext
      value={{ openApp, setImage, wechatLaunch, setShareCard: wechat.setShareCard }}
    >
      {children}
      {needsBrowserForStores(client) ? (
        <OpenInBrowserGuide
          open={guideOpen}
          onClose={closeGuide}
          onCopied={() => {
            if (target) reportShareEvent('link_copied', target.kind, target.id);
          }}
          texts={{
            ...text.guide,
            hint: fill(text.guide.hint, {
              app: inAppBrowser === 'none' ? '' : text.inAppNames[inAppBrowser],
            }),
          }}
        />
      ) : null}
    </AppPromptContext>
  );
}
