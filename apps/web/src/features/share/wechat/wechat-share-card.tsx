import { useEffect } from 'react';
import { useMatches } from 'react-router';
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
  useEffect(() => {
    setShareCard(shareCardOf(kind, item, { language, title, origin: window.location.origin, id }));
  }, [setShareCard, kind, item, language, title, id]);
  return null;
}
