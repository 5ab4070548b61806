import type { Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';

/** The share pages' "scan to open on your phone" (desktop browsers only). */
const texts = {
  'zh-CN': {
    heading: '扫码在手机上打开',
    hint: {
      goods: '用手机相机扫一扫，在谷圈 App 里看这件谷子',
      cabinet: '用手机相机扫一扫，在谷圈 App 里看这个谷柜',
      note: '用手机相机扫一扫，在谷圈 App 里看这篇笔记',
    },
    alt: '二维码：在手机上的谷圈 App 中打开本页内容',
  },
  en: {
    heading: 'Scan to open on your phone',
    hint: {
      goods: 'Point your phone’s camera at the code to see this goods in the Goods Circle app.',
      cabinet: 'Point your phone’s camera at the code to see this cabinet in the Goods Circle app.',
      note: 'Point your phone’s camera at the code to read this note in the Goods Circle app.',
    },
    alt: 'QR code that opens this page in the Goods Circle app on your phone',
  },
} satisfies Record<Language, { heading: string; hint: Record<ShareKind, string>; alt: string }>;

export function phoneQrTexts(language: Language): (typeof texts)['zh-CN'] {
  return texts[language];
}
