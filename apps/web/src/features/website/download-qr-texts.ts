import type { Language } from '@guquan/contract/language';

/** The download section's "scan to get the app on your phone" (desktop browsers only). */
const texts = {
  'zh-CN': {
    heading: '扫码在手机上下载',
    hint: '用手机相机扫一扫：已装谷圈会直接打开，没装会带你去对应的应用商店。',
    alt: '二维码：在手机上打开或下载谷圈 App',
  },
  en: {
    heading: 'Scan to get the app on your phone',
    hint: 'Point your phone’s camera at the code: it opens Goods Circle if you have it, or takes you to your phone’s app store.',
    alt: 'QR code that opens or downloads the Goods Circle app on your phone',
  },
} satisfies Record<Language, Record<string, string>>;

export function downloadQrTexts(language: Language): (typeof texts)['zh-CN'] {
  return texts[language];
}
