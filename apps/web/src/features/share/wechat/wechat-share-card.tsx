import { useEffect } from 'react';
import { useMatches } from 'react-router';
import type { ShareItems } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { useLanguage } from '../../../lib/i18n/language-context';
import { titleForMatches } from '../../../lib/routing/document-title';
import { useAppPrompt } from '../open-in-app/app-prompt';

/**
 * Hands WeChat the card of the item on screen (inside WeChat only; it renders nothing). The card's
 * code (its summary and square picture, as the server's previews make them) is a chunk of its
 * own, loaded only inside WeChat: no other browser's start-up carries it.
 */
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
    let live = true;
    void import('./share-card').then(
      ({ shareCardOf }) => {
        if (!live) return;
        setShareCard(
          shareCardOf(kind, item, { language, title, origin: window.location.origin, id }),
        );
      },
      () => {
        // Without its code WeChat shares its own default card: the page works on.
      },
    );
    return () => {
      live = false;
    };
  }, [setShareCard, kind, item, language, title, id]);
  return null;
}
