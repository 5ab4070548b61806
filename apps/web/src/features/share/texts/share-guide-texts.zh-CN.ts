import type { InAppBrowser } from '@guquan/contract/client-info';

/**
 * The share pages' "open in the browser" guide in Chinese, with the names of the in-app browsers
 * its hint fills in: loaded with the guide, in the page's language only (share-guide.zh-CN.tsx), not
 * with the share pages. These give the texts their shape (the English ones must match it).
 */
export const chineseShareGuideTexts = {
  guide: {
    title: '请在浏览器中打开',
    steps: ['点击右上角的 ··· 按钮', '在菜单中选择「在浏览器打开」'],
    hint: '{app}内无法直接打开谷圈 App，在浏览器中打开本页后即可打开或下载。',
    copyIntro: '也可以复制本页链接，粘贴到浏览器地址栏中打开。',
    linkLabel: '本页链接',
    copy: '复制链接',
    copied: '链接已复制，请粘贴到浏览器中打开',
    copyFailed: '无法自动复制，请长按上方链接手动复制',
    close: '我知道了',
  },
  inAppNames: {
    wechat: '微信',
    qq: 'QQ',
    qqbrowser: 'QQ 浏览器',
    qzone: 'QQ 空间',
    weibo: '微博',
    alipay: '支付宝',
    dingtalk: '钉钉',
    douyin: '抖音',
  } satisfies Record<Exclude<InAppBrowser, 'none'>, string>,
} as const;
