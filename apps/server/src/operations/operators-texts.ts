import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import type { Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';

/** The operators' page in both languages. */
export interface OperatorsTexts {
  title: string;
  intro: (from: string, to: string) => string;
  privacy: string;
  funnel: string;
  perDay: string;
  byChannel: string;
  byKind: string;
  topItems: string;
  topItemsNone: string;
  day: string;
  channel: string;
  kind: string;
  item: string;
  step: string;
  count: string;
  ofViews: string;
  /** Opens tapped per view. */
  openRate: string;
  untitled: string;
  links: string;
  metrics: string;
  readiness: string;
  json: string;
  /** The scrollable box around a wide table, named apart from its section. */
  scrollableTable: string;
  otherLanguage: string;
  /** The outbox's section: what the site owes to others and has not delivered. */
  outbox: {
    heading: string;
    channels: Readonly<Record<'text' | 'platform_events', string>>;
    channel: string;
    waiting: string;
    oldest: string;
    errors: string;
    noErrors: string;
    kind: string;
    attempts: string;
    error: string;
    next: string;
    givenUp: string;
  };
  events: Readonly<Record<FunnelEvent, string>>;
  channels: Readonly<Record<ShareChannel, string>>;
  kinds: Readonly<Record<ShareKind, string>>;
}

export const OPERATORS_TEXTS: Readonly<Record<Language, OperatorsTexts>> = {
  'zh-CN': {
    title: '分享漏斗 · 运营',
    intro: (from, to) => `${from} 至 ${to}（北京时间），共 30 天。`,
    privacy:
      '只按天、分享类型、内容、渠道和事件计数；不保存 IP 地址、User-Agent、Cookie 或任何标识，不计爬虫。',
    funnel: '漏斗',
    perDay: '每日',
    byChannel: '按渠道',
    byKind: '按分享类型',
    topItems: '浏览最多的 20 个内容',
    topItemsNone: '这段时间还没有浏览。',
    outbox: {
      heading: '待送出（outbox）',
      channels: { text: '给用户的短信', platform_events: '给平台的事件' },
      channel: '通道',
      waiting: '待送出',
      oldest: '最早一条已等',
      errors: '最近的错误',
      noErrors: '没有错误。',
      kind: '种类',
      attempts: '尝试次数',
      error: '错误',
      next: '下次尝试',
      givenUp: '已放弃',
    },
    day: '日期',
    channel: '渠道',
    kind: '类型',
    item: '内容',
    step: '步骤',
    count: '次数',
    ofViews: '占浏览',
    openRate: '打开率',
    untitled: '（非公开或已删除）',
    links: '其他',
    metrics: 'Prometheus 指标',
    readiness: '就绪检查',
    json: 'JSON',
    scrollableTable: '表格（可横向滚动）',
    otherLanguage: 'English',
    events: {
      viewed: '浏览',
      open_tapped: '点击打开 App',
      store_fallback: '转到应用商店',
      guide_shown: '显示浏览器引导',
      link_copied: '复制链接',
      poster_opened: '打开海报',
      link_fallback: '链接域名回退',
      handoff_minted: '生成口令',
      handoff_claimed: '口令被领取',
    },
    channels: {
      wechat: '微信',
      qq: 'QQ',
      weibo: '微博',
      other_in_app: '其他 App',
      safari: 'Safari',
      chrome: 'Chrome',
      other: '其他浏览器',
    },
    kinds: { goods: '谷子', cabinet: '痛柜', note: '笔记' },
  },
  en: {
    title: 'Share funnel · Operators',
    intro: (from, to) => `${from} to ${to} (China time), 30 days.`,
    privacy:
      'Counted per day, kind of share, item, channel and event only: no IP address, User-Agent, cookie or identifier is stored, and bots are not counted.',
    funnel: 'Funnel',
    perDay: 'Per day',
    byChannel: 'By channel',
    byKind: 'By kind of share',
    topItems: 'The 20 most viewed items',
    topItemsNone: 'No views in this period yet.',
    outbox: {
      heading: 'Owed to others (the outbox)',
      channels: { text: 'Texts to users', platform_events: 'Events to the platform' },
      channel: 'Channel',
      waiting: 'Waiting',
      oldest: 'Oldest has waited',
      errors: 'Last errors',
      noErrors: 'No errors.',
      kind: 'Kind',
      attempts: 'Attempts',
      error: 'Error',
      next: 'Next attempt',
      givenUp: 'Given up',
    },
    day: 'Day',
    channel: 'Channel',
    kind: 'Kind',
    item: 'Item',
    step: 'Step',
    count: 'Count',
    ofViews: 'Of views',
    openRate: 'Open rate',
    untitled: '(not public, or removed)',
    links: 'More',
    metrics: 'Prometheus metrics',
    readiness: 'Readiness',
    json: 'JSON',
    scrollableTable: 'Table (scrolls sideways)',
    otherLanguage: '中文',
    events: {
      viewed: 'Viewed',
      open_tapped: 'Open in app tapped',
      store_fallback: 'Store fallback',
      guide_shown: 'Browser guide shown',
      link_copied: 'Link copied',
      poster_opened: 'Poster opened',
      link_fallback: 'Link-domain fallback',
      handoff_minted: 'Handoff minted',
      handoff_claimed: 'Handoff claimed',
    },
    channels: {
      wechat: 'WeChat',
      qq: 'QQ',
      weibo: 'Weibo',
      other_in_app: 'Other apps',
      safari: 'Safari',
      chrome: 'Chrome',
      other: 'Other browsers',
    },
    kinds: { goods: 'Goods', cabinet: 'Cabinet', note: 'Note' },
  },
};
