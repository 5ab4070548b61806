import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { needsBrowserForStores } from '../../../lib/client/app-opening';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { reportShareEventSoon } from '../../../lib/funnel/report-soon';
import { ShareOpenInBrowserGuide } from '../browser-guide/share-guide-on-demand';
import { onDemand } from '../../../lib/chunks/on-demand';
import type { SharedItem } from '../share-types';
import type { WeChatBridge as WeChatBridgeCode } from '../wechat/wechat-bridge';
import {
  APP_MISSING_PARAM,
  APP_MISSING_VALUE,
  IMAGE_PARAM,
  parseImageIndex,
} from '@guquan/contract/app-link-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { useLinkOrigin } from '../../../lib/app-links/link-origin';
import { useHydrated } from '../../../lib/dom/use-hydrated';
import { keepLanguage } from '../page/share-links';
import {
  schemeLink,
  shareTarget,
  universalLink,
  WEBSITE_DOWNLOAD_PATH,
  type AppTarget,
} from './app-link';
import { MissingAppLayer } from '../missing-app-sheet/missing-app-on-demand';
import { useOpenInApp, type AppTap, type OpenInApp } from './use-open-in-app';

interface AppPrompt {
  /** Opens the shared item (and the image being viewed) in the app, or shows the way there. */
  openApp: AppTap;
  /** The page's target: the item (and image) "open" opens. */
  target: AppTarget;
  /** Heads for the store (copying the share text on the way), or shows the way there. */
  getApp: AppTap;
  /**
   * Opens the app at any target (a like, the owner, a tag… once the app's link paths name them),
   * or shows the missing-app sheet where the app is known to be missing: see use-open-in-app.ts.
   */
  openInApp: OpenInApp;
  /** The item's Universal Link: where "open" links in the server's HTML, before the code runs. */
  openHref: string;
  /** The website's download section: where "get the app" links before the code runs. */
  getHref: string;
  /** The custom scheme's link, for a visitor who has the app although the link did not open it. */
  schemeHref: string;
  /** The link domain sent the visitor here: the app did not open, so "Get the app" comes first. */
  appMissing: boolean;
  /** The image the visitor is looking at, so the app opens on the same one. */
  setImage: (index: number) => void;
  /** The item's title, for the share text a store-bound tap copies. */
  setTitle: (title: string) => void;
  /** Inside WeChat, once its open tag is usable: what the tag opens, and what follows a failure. */
  wechatLaunch: { openAppId: string; extinfo: string; onFailure: () => void } | null;
  /** The item on screen: inside WeChat, the card WeChat shows when the page is shared. */
  setShared: (shared: SharedItem) => void;
}

const { Component: WeChatBridge } = onDemand<ComponentProps<typeof WeChatBridgeCode>>(() =>
  import('../wechat/wechat-bridge').then((module) => module.WeChatBridge),
);

const AppPromptContext = createContext<AppPrompt>({
  openApp: () => undefined,
  target: null,
  getApp: () => undefined,
  openInApp: () => undefined,
  openHref: '',
  getHref: '',
  schemeHref: '',
  appMissing: false,
  setImage: () => undefined,
  setTitle: () => undefined,
  wechatLaunch: null,
  setShared: () => undefined,
});

export function useAppPrompt(): AppPrompt {
  return useContext(AppPromptContext);
}

/**
 * What every part of a share page uses to open or get the app: the top bar, the main button and
 * the state views, all on the page's target (shareTarget).
 */
export function AppPromptProvider({ kind, children }: { kind: ShareKind; children: ReactNode }) {
  const { search } = useLocation();
  const hydrated = useHydrated();
  const [chosenImage, setImage] = useState<number | null>(null);
  const [title, setTitle] = useState('');
  // Until the visitor swipes, the image the address names (after hydration, as the gallery does).
  const startImage = hydrated
    ? parseImageIndex(new URLSearchParams(search).get(IMAGE_PARAM))
    : undefined;
  const image = chosenImage ?? startImage;
  const target = shareTarget(kind, search, image ?? 0);
  const query = new URLSearchParams(search);
  const toldMissing = query.get(APP_MISSING_PARAM) === APP_MISSING_VALUE;
  // The link domain's word holds for the item it was about after the sheet took it out of the
  // address (missing-app-layer.tsx): the page goes on offering to get the app, not to open it.
  const [missingFor] = useState(() => (toldMissing ? query.get('id') : undefined));
  const appMissing = toldMissing || (missingFor !== undefined && missingFor === query.get('id'));
  const {
    openApp,
    getApp,
    openInApp,
    hopToStore,
    showSheet,
    closeSheet,
    missingApp,
    guideOpen,
    showGuide,
    closeGuide,
  } = useOpenInApp({ target, title, appMissing, image });
  // Sent back by the link domain (the app is missing): where the visitor was, and the sheet.
  const returned = useRef(false);
  useEffect(() => {
    if (!hydrated || !appMissing || returned.current) return;
    returned.current = true;
    showSheet(target, true);
  }, [hydrated, appMissing, target, showSheet]);
  const [openAppId, setOpenAppId] = useState<string | null>(null);
  const [shared, setShared] = useState<SharedItem | null>(null);
  const wechatLaunch = openAppId
    ? { openAppId, extinfo: schemeLink(target), onFailure: showGuide }
    : null;
  const client = useClientInfo();
  const linkOrigin = useLinkOrigin();
  const { inAppBrowser } = client;
  return (
    <AppPromptContext
      value={{
        openApp,
        target,
        getApp,
        openInApp,
        openHref: universalLink(linkOrigin, target),
        getHref: `${BASE_PATH}${keepLanguage(WEBSITE_DOWNLOAD_PATH, search)}`,
        schemeHref: schemeLink(target),
        appMissing,
        setImage,
        setTitle,
        wechatLaunch,
        setShared,
      }}
    >
      {children}
      {/* WeChat's JS-SDK: inside WeChat only, once hydrated, its code loaded then. */}
      {hydrated && inAppBrowser === 'wechat' ? (
        <WeChatBridge shared={shared} onLaunch={setOpenAppId} />
      ) : null}
      {missingApp.sheet || missingApp.toast ? (
        <MissingAppLayer
          sheet={missingApp.sheet}
          toast={missingApp.toast}
          promise={title !== ''}
          onStore={hopToStore}
          onClose={closeSheet}
        />
      ) : null}
      {needsBrowserForStores(client) ? (
        <ShareOpenInBrowserGuide
          open={guideOpen}
          onClose={closeGuide}
          onCopied={() => {
            if (target) reportShareEventSoon('link_copied', target.kind, target.id);
          }}
          inAppBrowser={inAppBrowser}
        />
      ) : null}
    </AppPromptContext>
  );
}
