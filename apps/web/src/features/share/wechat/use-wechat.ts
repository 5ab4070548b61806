import { useCallback, useEffect, useRef, useState } from 'react';
import { WECHAT_META_NAME } from '@guquan/contract/wechat-page';
import { useClientInfo } from '../../../lib/client/client-info-context';
import type { ShareCard, WeChatSession } from './wechat-js-sdk';

/** Whether this server signs wx.config (it has the WeChat settings): the page's marker says so. */
export function hasWeChatSettings(doc: Document): boolean {
  return doc.querySelector(`meta[name="${WECHAT_META_NAME}"]`) !== null;
}

export interface WeChat {
  /** The Open Platform AppID once WeChat is ready and its open tags usable; else null. */
  openAppId: string | null;
  /** The card WeChat shows when the visitor shares this page (applied once WeChat is ready). */
  setShareCard: (card: ShareCard) => void;
}

/**
 * WeChat's JS-SDK for a share page: only inside WeChat, on a server with the WeChat settings, and
 * after hydration (the server's markup and the first render never depend on it). Its code is a
 * chunk of its own, loaded only then. Once per document: the address it was signed for is the
 * one WeChat entered the page with.
 */
export function useWeChat(): WeChat {
  const { inAppBrowser } = useClientInfo();
  const [session, setSession] = useState<WeChatSession | null>(null);
  const [tagsUsable, setTagsUsable] = useState(true);
  const card = useRef<ShareCard | null>(null);

  useEffect(() => {
    if (inAppBrowser !== 'wechat' || !hasWeChatSettings(document)) return;
    let live = true;
    const pageUrl = window.location.href.split('#', 1)[0] ?? '';
    const onTagsError = () => {
      // The open tag cannot be used here (old WeChat, not allowed): the guide stays the way.
      setTagsUsable(false);
    };
    document.addEventListener('WeixinOpenTagsError', onTagsError);
    import('./wechat-js-sdk')
      .then(({ startWeChatJsSdk }) => startWeChatJsSdk(document, pageUrl))
      .then(
        (started) => {
          if (!live) return;
          if (card.current) started.setShareCard(card.current);
          setSession(started);
        },
        () => {
          // WeChat, our server or the script failed: the page works on with its guide.
        },
      );
    return () => {
      live = false;
      document.removeEventListener('WeixinOpenTagsError', onTagsError);
    };
  }, [inAppBrowser]);

  const setShareCard = useCallback(
    (next: ShareCard) => {
      card.current = next;
      session?.setShareCard(next);
    },
    [session],
  );
  return { openAppId: session && tagsUsable ? session.openAppId : null, setShareCard };
}
