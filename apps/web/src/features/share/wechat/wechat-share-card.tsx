import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import type { ShareItems } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { useLanguage } from '../../../lib/i18n/language-context';
import { titleForMatches } from '../../../lib/routing/document-title';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { shareCardOf } from './share-card';

/** Hands WeChat the card of the item on screen (inside WeChat only; it renders nothing). */
export function WeChatShareCard<K extends ShareKind>({
  kind,
  id,
  item,
}: {
  kind: K;
  id: string;
  item: ShareItems[K];
}) {
  const { setShareCard } = useAppPrompt();
  const language = useLanguage();
  const title = titleForMatches(useMatches(), language);
  // The router's path lacks the base path: the card takes the browser's, once it has moved.
  const { pathname: routerPath } = useLocation();
  useEffect(() => {
    const { origin, pathname } = window.location;
    setShareCard(shareCardOf(kind, item, { language, title, origin, pathname, id }));
  }, [setShareCard, kind, item, language, title, routerPath, id]);
  return null;
}
