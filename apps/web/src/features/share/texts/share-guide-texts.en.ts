import type { ShareGuideTexts } from './text-shapes';

/** The share pages' "open in the browser" guide in English (loaded with the guide). */
const texts = {
  guide: {
    title: 'Open this page in your browser',
    steps: ['Tap the ··· button in the top right corner', 'Choose "Open in Browser" from the menu'],
    hint: 'The Goods Circle app cannot be opened from inside {app}. Open this page in your browser to open or download it.',
    copyIntro: 'Or copy the link to this page and paste it into the address bar of your browser.',
    linkLabel: 'Link to this page',
    copy: 'Copy link',
    copied: 'Link copied: paste it into your browser to open it',
    copyFailed:
      'The link could not be copied automatically: press and hold the link above to copy it',
    close: 'Got it',
  },
  inAppNames: {
    wechat: 'WeChat',
    qq: 'QQ',
    qqbrowser: 'QQ Browser',
    qzone: 'Qzone',
    weibo: 'Weibo',
    alipay: 'Alipay',
    dingtalk: 'DingTalk',
    douyin: 'Douyin',
  },
} as const;

// Typed against the Chinese texts: a text missing or misshapen fails the type check.
export const englishShareGuideTexts: ShareGuideTexts = texts;
