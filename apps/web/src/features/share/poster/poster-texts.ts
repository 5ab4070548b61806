import type { Language } from '@guquan/contract/language';

/** The poster dialog's texts (in its own chunk: loaded with it, on the first tap). */
const texts = {
  'zh-CN': {
    title: '分享海报',
    making: '正在生成海报…',
    failed: '海报暂时生成不了，请稍后再试。',
    retry: '重试',
    close: '关闭',
    longPress: '长按图片保存到手机，再分享到朋友圈、小红书或群聊',
    save: '保存图片',
    afterSave: '保存后可分享到朋友圈、小红书或群聊',
  },
  en: {
    title: 'Share poster',
    making: 'Making the poster…',
    failed: 'The poster cannot be made right now. Please try again later.',
    retry: 'Try again',
    close: 'Close',
    longPress: 'Press and hold the picture to save it, then share it to Moments or a group chat',
    save: 'Save picture',
    afterSave: 'Save it, then share it to Moments, Xiaohongshu or a group chat',
  },
} satisfies Record<Language, Record<string, string>>;

export type PosterTexts = (typeof texts)['zh-CN'];

export function posterTexts(language: Language): PosterTexts {
  return texts[language];
}
