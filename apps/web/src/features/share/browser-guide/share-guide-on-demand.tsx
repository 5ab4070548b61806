import type { Language } from '@guquan/contract/language';
import { onDemand } from '../../../lib/chunks/on-demand';
import { useLanguage } from '../../../lib/i18n/language-context';
import type { ShareGuideProps } from './share-guide';
import type { ShareGuideTexts } from './share-guide-texts';

/**
 * The guide and its texts in one language, fetched together (side by side, not one after the
 * other) when it first opens. Where either cannot be had, the guide closes again.
 */
function guideIn(loadTexts: () => Promise<ShareGuideTexts>) {
  return onDemand<ShareGuideProps>(
    async () => {
      const [{ ShareGuide }, texts] = await Promise.all([import('./share-guide'), loadTexts()]);
      return function ShareGuideInLanguage(props: ShareGuideProps) {
        return <ShareGuide {...props} texts={texts} />;
      };
    },
    (props) => {
      props.onClose();
    },
  );
}

const GUIDES: Readonly<Record<Language, ReturnType<typeof guideIn>>> = {
  'zh-CN': guideIn(() =>
    import('./share-guide-texts.zh-CN').then((module) => module.chineseShareGuideTexts),
  ),
  en: guideIn(() =>
    import('./share-guide-texts.en').then((module) => module.englishShareGuideTexts),
  ),
};

/**
 * The share pages' "open in the browser" guide, loaded with its texts in the page's language when
 * it first opens: only a tap inside WeChat, QQ or Weibo needs either, so the share pages start
 * with neither.
 */
export function ShareOpenInBrowserGuide(props: ShareGuideProps) {
  const { Component } = GUIDES[useLanguage()];
  return props.open ? <Component {...props} /> : null;
}
