import type { FailureTextsShape } from './text-shapes';

/**
 * What a share page that cannot show its item says, in Chinese: a heading (`{this}` is the item,
 * share-texts' `this`), why in a sentence a visitor reads without knowing HTTP, and where to go.
 * Loaded with the failure states only, in the page's language (share-failure-texts.ts).
 */
export const chineseFailureTexts = {
  heading: {
    not_found: '{this}不存在',
    removed: '{this}已被删除',
    private: '{this}仅作者自己可见',
    invalid_id: '分享链接不完整',
    network: '加载失败',
  },
  why: {
    private: '发布它的同好把它设为了仅自己可见。如果这是你发布的，打开谷圈 App 就能看到。',
    removed: '它已被发布者或平台删除，这个链接不会再打开它了。下面还有很多同好分享的谷子。',
    not_found:
      '没有找到它：链接可能只复制了一部分，或者内容已经不在了。可以请分享给你的同好再发一次。',
    invalid_id:
      '这个链接少了一段或多了一段，打不开分享的内容。请分享给你的同好在谷圈 App 里重新点「分享」。',
    network: '网络似乎不太稳定，请检查网络后重试。',
  },
  download: '下载谷圈 App',
  /** The HTTP status, in small print, for whoever reports the problem. */
  code: '错误代码 {code}',
} as const satisfies FailureTextsShape;
