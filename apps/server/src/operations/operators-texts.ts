import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import type { Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { QueryProblem } from './funnel-page-query.ts';

/** The operators' page in both languages. */
export interface OperatorsTexts {
  title: string;
  intro: (from: string, to: string, days: number) => string;
  /** The line under the intro when one channel is shown. */
  channelOnly: (channel: string) => string;
  compared: (from: string, to: string) => string;
  privacy: string;
  /** The form that picks the range, the channel and the scale (a GET form, no script). */
  form: {
    legend: string;
    from: string;
    to: string;
    channel: string;
    allChannels: string;
    scale: string;
    log: string;
    linear: string;
    show: string;
    quick: string;
    lastDays: (days: number) => string;
  };
  errorHeading: string;
  errors: Readonly<Record<QueryProblem, string>>;
  /** The funnel's steps and the other events: what each column says. */
  steps: {
    count: string;
    fromPrevious: string;
    firstStep: string;
    ofViews: string;
    previous: (days: number) => string;
    viewsBefore: (days: number) => string;
    installsBefore: (days: number) => string;
    was: (value: string) => string;
    change: string;
    /** A change from nothing: no percentage means anything. */
    changeNew: string;
    sideEvents: string;
    sameScale: string;
    installs: string;
    logScale: string;
    linearScale: string;
    otherScale: string;
    previousPartial: string;
  };
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
    intro: (from, to, days) => `${from} 至 ${to}（北京时间），共 ${days} 天。`,
    channelOnly: (channel) => `只看渠道：${channel}。`,
    compared: (from, to) => `对比上一段同样长的时间：${from} 至 ${to}。`,
    form: {
      legend: '时间与渠道',
      from: '开始日期',
      to: '结束日期',
      channel: '渠道',
      allChannels: '全部渠道',
      scale: '条形比例',
      log: '对数',
      linear: '线性',
      show: '查看',
      quick: '快速选择：',
      lastDays: (days) => `最近 ${days} 天`,
    },
    errorHeading: '无法显示这段时间',
    errors: {
      from: '开始日期不是有效的日期，请用 YYYY-MM-DD，例如 2026-11-01。',
      to: '结束日期不是有效的日期，请用 YYYY-MM-DD，例如 2026-11-30。',
      reversed: '开始日期在结束日期之后：请对调两个日期。',
      too_long: '一次最多 180 天（连同对比的上一段时间，仍在保留的 400 天之内）。',
      channel: '没有这个渠道：请从列表中选择。',
      scale: '比例只能是对数或线性。',
    },
    steps: {
      count: '次数',
      fromPrevious: '占上一步',
      firstStep: '第一步',
      ofViews: '占浏览',
      previous: (days) => `前 ${days} 天`,
      viewsBefore: (days) => `前 ${days} 天浏览`,
      installsBefore: (days) => `前 ${days} 天安装`,
      was: (value) => `之前 ${value}`,
      change: '变化',
      changeNew: '新出现',
      sideEvents: '分享页上的其他事件',
      sameScale: '与漏斗用同一个比例尺。',
      installs: '安装 = 口令被领取：从商店装好 App 后，App 读到了分享页复制的口令。',
      logScale:
        '条形为对数比例：每条刻度线是前一条的 10 倍，小的步骤因此看得见；比较请看数字，不要比长短。',
      linearScale: '条形为线性比例，从 0 开始：长短可以直接比较。',
      otherScale: '改用另一种比例',
      previousPartial: '上一段时间有一部分早于保留的 400 天，那部分的数字不完整。',
    },
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
      open_tapped: '点击“打开 App”',
      store_fallback: '前往应用商店',
      guide_shown: '显示浏览器引导',
      link_copied: '复制链接',
      poster_opened: '打开海报',
      link_fallback: '链接域名回退（未装 App）',
      handoff_minted: '生成口令（已复制）',
      handoff_claimed: '安装（口令被领取）',
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
    intro: (from, to, days) => `${from} to ${to} (China time), ${days} days.`,
    channelOnly: (channel) => `Channel: ${channel} only.`,
    compared: (from, to) => `Compared with the period just before, as long: ${from} to ${to}.`,
    form: {
      legend: 'Period and channel',
      from: 'From',
      to: 'To',
      channel: 'Channel',
      allChannels: 'All channels',
      scale: 'Bar scale',
      log: 'Logarithmic',
      linear: 'Linear',
      show: 'Show',
      quick: 'Quick ranges:',
      lastDays: (days) => `Last ${days} days`,
    },
    errorHeading: 'This period cannot be shown',
    errors: {
      from: '“From” is not a day: write it as YYYY-MM-DD, for example 2026-11-01.',
      to: '“To” is not a day: write it as YYYY-MM-DD, for example 2026-11-30.',
      reversed: '“From” is after “To”: swap the two days.',
      too_long:
        'At most 180 days at once (so that the period before it, compared, is still within the 400 days kept).',
      channel: 'There is no such channel: pick one from the list.',
      scale: 'The scale is either logarithmic or linear.',
    },
    steps: {
      count: 'Count',
      fromPrevious: 'From the step before',
      firstStep: 'First step',
      ofViews: 'Of views',
      previous: (days) => `Previous ${days} days`,
      viewsBefore: (days) => `Views, previous ${days} days`,
      installsBefore: (days) => `Installs, previous ${days} days`,
      was: (value) => `was ${value}`,
      change: 'Change',
      changeNew: 'new',
      sideEvents: 'Other events on the share pages',
      sameScale: 'Drawn on the same scale as the funnel.',
      installs:
        'An install is a share code claimed: the app, installed from the store, found the code the page copied.',
      logScale:
        'Bars on a logarithmic scale: each mark is ten times the one before, so the small steps stay visible. Compare the numbers, not the lengths.',
      linearScale: 'Bars on a linear scale from 0: lengths compare directly.',
      otherScale: 'Use the other scale',
      previousPartial:
        'Part of the previous period is older than the 400 days kept: its numbers there are missing.',
    },
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
      open_tapped: 'Tapped “Open in app”',
      store_fallback: 'Went to the app store',
      guide_shown: 'Browser guide shown',
      link_copied: 'Link copied',
      poster_opened: 'Poster opened',
      link_fallback: 'Link-domain fallback (no app)',
      handoff_minted: 'Share code minted (copied)',
      handoff_claimed: 'Installed (code claimed)',
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
