import type { Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * The missing-app sheet's and the store toast's texts, in both languages (loaded with the sheet,
 * not with the share pages). `{item}` is the kind's noun ("这件谷子"), `{store}` a store's name.
 */
const texts = {
  'zh-CN': {
    title: '没有找到谷圈 App',
    /** The item is on the page: the app opens on it after the install (the share code). */
    promise: '下载安装后打开谷圈，{item}会在那里等你。',
    /** A removed, private or missing item: no promise of coming back to it. */
    noPromise: '下载安装谷圈，看看同好们的更多谷子。',
    item: { goods: '这件谷子', cabinet: '这个痛柜', note: '这篇笔记' } satisfies Record<
      ShareKind,
      string
    >,
    copyNote: '点击下载时会复制分享口令，谷圈首次打开时读取它。',
    getIos: '去 App Store 下载',
    getOther: '前往下载页',
    getAndroid: '在{store}下载',
    storesLabel: '选择下载方式',
    alreadyInstalled: '已安装？在 App 中打开',
    close: '以后再说',
    toastCopied: '已复制分享口令，马上前往下载…',
    toastNotCopied: '马上前往下载…',
  },
  en: {
    title: 'The Goods Circle app is not installed',
    promise: 'Install it, open it, and {item} will be waiting for you there.',
    noPromise: 'Install Goods Circle to see more goods from fans like you.',
    item: { goods: 'this item', cabinet: 'this cabinet', note: 'this note' },
    copyNote: 'Getting the app copies a share code, which the app reads once on its first launch.',
    getIos: 'Get it on the App Store',
    getOther: 'Go to the download page',
    getAndroid: 'Get it from {store}',
    storesLabel: 'Where to get it',
    alreadyInstalled: 'Already installed? Open it in the app',
    close: 'Not now',
    toastCopied: 'Share code copied. Taking you to the store…',
    toastNotCopied: 'Taking you to the store…',
  },
} satisfies Record<Language, unknown>;

export type MissingAppTexts = (typeof texts)['zh-CN'];

export function missingAppTexts(language: Language): MissingAppTexts {
  return texts[language];
}
