import type { GoodsStatus } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * The share pages' texts in Chinese: the page's language only is loaded (share-texts.ts), and these
 * give the texts their shape (the English ones must match it). `{n}`, `{total}`, `{app}` are filled
 * in; texts with a count are PluralTexts (lib/i18n/plural.ts).
 */
export const chineseShareTexts = {
  appName: '谷圈',
  previewTitle: '{name} - 谷圈',
  appBarText: '打开谷圈 App，看更多同好的谷子',
  appBarOpen: '打开',
  appBarDismiss: '关闭提示',
  appMissingBarText: '还没有安装？下载后回到这里',
  /** The app is missing and the page shows no item (removed, private…): no "come back here". */
  appMissingNoItemBarText: '还没有安装？下载谷圈 App',
  appBarGet: '下载',
  getApp: '下载谷圈 App',
  copyNote: '下载时会复制分享口令，安装后打开谷圈即可回到这里',
  alreadyInstalled: '已安装？在 App 中打开',
  openInApp: {
    goods: 'App 内查看这件谷子',
    cabinet: 'App 内逛逛这个痛柜',
    // The whole note is on the page: the app adds commenting and saving, not more text.
    note: '去 App 评论、收藏这篇笔记',
  } satisfies Record<ShareKind, string>,
  openApp: '打开谷圈 App',
  poster: '分享海报',
  toWebsite: '前往谷圈官网',
  retry: '重试',
  loading: '正在加载…',
  status: { display: '展示', selling: '出', wanted: '收' } satisfies Record<GoodsStatus, string>,
  statusLabel: '状态',
  work: '作品',
  character: '角色',
  category: '品类',
  price: '价格',
  noPrice: '未标价',
  likes: { other: '喜欢' },
  wants: { other: '想要' },
  collects: { other: '收藏' },
  comments: { other: '评论' },
  counts: '互动数据',
  owner: '谷主',
  author: '作者',
  commenter: '评论者',
  tags: '标签',
  gallery: '图片',
  slide: '第 {n} 张，共 {total} 张',
  viewLarge: '查看大图',
  imageAlt: '{name}的第 {n} 张图片',
  viewer: '大图查看',
  viewerClose: '关闭大图',
  viewerPrevious: '上一张',
  viewerNext: '下一张',
  cover: '{name}的封面',
  itemCount: { other: '共 {n} 件谷子' },
  cabinetSummary: { other: '{owner} 的痛柜，共 {n} 件谷子' },
  itemsHeading: '柜中谷子',
  itemsMore: { other: '还有 {n} 件谷子，打开 App 查看' },
  noItems: '柜子里还没有公开的谷子',
  topComments: '热门评论',
  allComments: { other: '在 App 内查看全部 {n} 条评论' },
  noComments: '还没有评论，来 App 里抢沙发吧',
  moreInApp: '更多精彩内容在谷圈 App',
  publishedOn: '发布于 {date}',
  commentLikes: { other: '{n} 人赞过' },
  this: { goods: '这件谷子', cabinet: '这个痛柜', note: '这篇笔记' } satisfies Record<
    ShareKind,
    string
  >,
} as const;
