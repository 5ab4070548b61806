import { useEffect, useState } from 'react';
import { useMatches } from 'react-router';
import { WECHAT_META_NAME } from '@guquan/contract/wechat-page';
import { useLanguage } from '../../../lib/i18n/language-context';
import { titleForMatches } from '../../../lib/routing/document-title';
import type { SharedItem } from '../share-types';
import { shareCardOf } from './share-card';
import { startWeChatJsSdk, type WeChatSession } from './wechat-js-sdk';

/** Whether this server signs wx.config (it has the WeChat settings): the page's marker says so. */
function hasWeChatSettings(doc: Document): boolean {
  return doc.querySelector(`meta[name="${WECHAT_META_NAME}"]`) !== null;
}

/**
 * WeChat's JS-SDK for a share page, as a chunk of its own that only a page inside WeChat loads,
 * once hydrated (app-prompt.tsx renders it only then: the server's markup and the first render
 * never depend on it). On a server with the WeChat settings it signs the page once per document
 * (the address WeChat entered the page with), hands WeChat the card of the item on screen, and
 * reports the Open Platform AppID once the open tags are usable (`onLaunch`). Renders nothing.
 */
export function WeChatBridge({
  shared,
  onLaunch,
}: {
  shared: SharedItem | null;
  onLaunch: (openAppId: string | null) => void;
}) {
  const [session, setSession] = useState<WeChatSession | null>(null);
  const [tagsUsable, setTagsUsable] = useState(true);
  const language = useLanguage();
  const title = titleForMatches(useMatches(), language);

  useEffect(() => {
    if (!hasWeChatSettings(document)) return;
    let live = true;
    const pageUrl = window.location.href.split('#', 1)[0] ?? '';
    const onTagsError = () => {
      // The open tag cannot be used here (old WeChat, not allowed): the guide stays the way.
      setTagsUsable(false);
    };
    document.addEventListener('WeixinOpenTagsError', onTagsError);
    startWeChatJsSdk(document, pageUrl).then(
      (started) => {
        if (live) setSession(started);
      },
      () => {
        // WeChat, our server or the script failed: the page works on with its guide.
      },
    );
    return () => {
      live = false;
      document.removeEventListener('WeixinOpenTagsError', onTagsError);
    };
  }, []);

  const openAppId = session && tagsUsable ? session.openAppId : null;
  useEffect(() => {
    onLaunch(openAppId);
  }, [onLaunch, openAppId]);

  useEffect(() => {
    if (!session || !shared) return;
    session.setShareCard(
      shareCardOf(shared.kind, shared.item, {
        language,
        title,
        origin: window.location.origin,
        id: shared.id,
      }),
    );
  }, [session, shared, language, title]);

  return null;
}
