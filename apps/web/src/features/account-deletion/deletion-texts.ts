import type { DeletionBlockerKind, RetainedKind } from '@guquan/contract/account-deletion';
import type { Language } from '@guquan/contract/language';
import { pluralText, type PluralTexts } from '../../lib/i18n/plural';

/** The texts of the account deletion page; what it says matches the privacy policy, 8.2 and 11.5. */
export interface DeletionTexts {
  /** The page's heading (the document title keeps the route's). */
  heading: string;
  intro: string;
  deletedHeading: string;
  deletedItems: (counts: {
    goods: number;
    cabinets: number;
    notes: number;
    comments: number;
  }) => string[];
  deletedProfile: string;
  keptHeading: string;
  kept: Record<RetainedKind, (months: number) => string>;
  lostHeading: string;
  lostPoints: (points: number | null) => string;
  lostDesigns: (designs: number | null) => string;
  lostMembership: (until: string | null) => string;
  lostNothing: string;
  subscriptionWarning: string;
  blockedHeading: string;
  blockedIntro: (count: number) => string;
  blocker: Record<
    DeletionBlockerKind,
    { label: (title: string) => string; resolve: string; action: string }
  >;
  since: (date: string) => string;
  openFailed: string;
  cancelledByLogin: (date: string) => string;
  verifyHeading: string;
  sendTo: (phone: string) => string;
  sendCode: string;
  resendIn: (seconds: number) => string;
  codeSent: (phone: string) => string;
  codeLabel: string;
  noPhone: string;
  understand: (days: number) => string;
  submit: string;
  dialogHeading: string;
  dialogBody: (date: string) => string;
  dialogConfirm: string;
  dialogBack: string;
  coolOffHeading: string;
  coolOffBody: (date: string) => string;
  coolOffLogin: string;
  cancelRequest: string;
  cancelled: string;
  loading: string;
  noAppHeading: string;
  noAppBody: string;
  loggedOutHeading: string;
  loggedOutBody: string;
  login: string;
  networkHeading: string;
  networkBody: string;
  appSilentHeading: string;
  appSilentBody: string;
  retry: string;
  errors: Record<string, string>;
  rateLimited: (seconds: number) => string;
  wrongCode: (left: number) => string;
  requestFailed: string;
}

const YEARS: Readonly<Record<Language, PluralTexts>> = {
  'zh-CN': { other: '{n} 年' },
  en: { one: '{n} year', other: '{n} years' },
};
const MONTHS: Readonly<Record<Language, PluralTexts>> = {
  'zh-CN': { other: '{n} 个月' },
  en: { one: '{n} month', other: '{n} months' },
};

function duration(months: number, language: Language): string {
  return months % 12 === 0
    ? pluralText(language, months / 12, YEARS[language])
    : pluralText(language, months, MONTHS[language]);
}

/** An English count with its noun: "1 note", "2 notes". */
function count(n: number, one: string, other: string): string {
  return pluralText('en', n, { one: `{n} ${one}`, other: `{n} ${other}` });
}

const zh: DeletionTexts = {
  heading: '注销账号',
  intro: '注销后账号无法恢复。请在提交前读完以下说明。',
  deletedHeading: '将被删除的内容',
  deletedItems: (c) =>
    [
      c.goods > 0 ? `你发布的 ${c.goods} 件谷子及其图片` : '',
      c.cabinets > 0 ? `你的 ${c.cabinets} 个痛柜` : '',
      c.notes > 0 ? `你的 ${c.notes} 篇笔记及其评论` : '',
      c.comments > 0 ? `你发表的 ${c.comments} 条评论` : '',
    ].filter(Boolean),
  deletedProfile:
    '账号资料（昵称、头像、绑定的手机号码）、登录状态、点赞与收藏记录。你发给他人的私信仍留在对方的会话中，发送者显示为“已注销用户”。',
  keptHeading: '依法保留的信息',
  kept: {
    goods_and_transactions: (m) =>
      `商品和交易信息（含会员订阅记录）：自交易完成或信息发布之日起保存 ${duration(m, 'zh-CN')}（《电子商务法》第三十一条），不再公开展示`,
    network_logs: (m) =>
      `网络日志和 IP 地址：保存 ${duration(m, 'zh-CN')}（《网络安全法》第二十一条）`,
    deletion_request: (m) => `注销申请记录：注销完成后保存 ${duration(m, 'zh-CN')}`,
    reports_and_appeals: (m) =>
      `举报与申诉记录：处理完成后保存 ${duration(m, 'zh-CN')}；存在未结纠纷的，保存至纠纷解决`,
  },
  lostHeading: '你将失去',
  lostPoints: (p) => (p === null ? '尚未使用的积分（作废）' : `尚未使用的 ${p} 积分（作废）`),
  lostDesigns: (d) => (d === null ? '已兑换的设计图（作废）' : `已兑换的 ${d} 张设计图（作废）`),
  lostMembership: (u) => (u === null ? '剩余的会员时长' : `会员剩余时长（原到期日 ${u}）`),
  lostNothing: '你没有积分、兑换的设计图或会员时长，不会因注销失去这些。',
  subscriptionWarning:
    '会员为 Apple 自动续期订阅，注销账号不会取消订阅。请先在 iPhone 的“设置 > Apple 账户 > 订阅”中取消，否则 Apple 会继续扣费。',
  blockedHeading: '注销前需要先处理',
  blockedIntro: (n) =>
    `还有 ${n} 件事没有处理完。为保护和你交易过的人，也保护你自己，处理完成后才能注销。`,
  blocker: {
    exposure_in_review: {
      label: (title) => `你发布的曝光「${title}」还在审核中`,
      resolve: '审核一般在 3 个工作日内完成，完成后就可以注销；也可以现在撤回这篇曝光。',
      action: '去「我的曝光」撤回',
    },
    appeal_open: {
      label: (title) => `你的申诉「${title}」还没有处理完`,
      resolve: '申诉处理完成后就可以注销；也可以现在撤回申诉。',
      action: '查看申诉进度',
    },
    under_investigation: {
      label: () => '平台正在核实一起和你账号有关的纠纷',
      resolve: '核实结束后就可以注销。有疑问可以联系客服。',
      action: '联系客服',
    },
  },
  since: (date) => `自 ${date}`,
  openFailed: 'App 没能打开这个页面。请回到 App，在「我的」中找到它。',
  cancelledByLogin: (date) =>
    `你在 ${date} 重新登录了谷圈，之前的注销申请已自动撤销，账号一切正常。如仍要注销，可以重新申请。`,
  verifyHeading: '验证身份',
  sendTo: (phone) => `我们会向绑定的手机号 ${phone} 发送验证码。`,
  sendCode: '获取验证码',
  resendIn: (s) => `${s} 秒后可重新获取`,
  codeSent: (phone) => `验证码已发送至 ${phone}，5 分钟内有效。`,
  codeLabel: '短信验证码',
  noPhone: '账号未绑定手机号码，请先在 App 的“设置 > 账号与安全”中绑定。',
  understand: (days) =>
    `我已阅读以上说明，理解注销后账号无法恢复，并知道提交后有 ${days} 天冷静期，冷静期内登录即撤销注销。`,
  submit: '申请注销',
  dialogHeading: '确定注销账号？',
  dialogBody: (date) => `提交后，你的账号将于 ${date} 注销，此前可以随时撤销。`,
  dialogConfirm: '确定注销',
  dialogBack: '再想想',
  coolOffHeading: '注销申请已提交',
  coolOffBody: (date) => `你的账号将于 ${date} 注销。在此之前，你可以撤销申请。`,
  coolOffLogin: '冷静期内重新登录谷圈 App，也会撤销注销申请。',
  cancelRequest: '撤销注销',
  cancelled: '已撤销注销申请，你的账号恢复正常。',
  loading: '正在加载',
  noAppHeading: '请在谷圈 App 中打开',
  noAppBody: '注销账号需要在 App 中验证身份。请打开谷圈 App，进入“设置 > 账号与安全 > 注销账号”。',
  loggedOutHeading: '请先登录',
  loggedOutBody: '登录后才能注销账号。',
  login: '登录',
  networkHeading: '加载失败',
  networkBody: '网络不稳定，请检查网络后重试。',
  appSilentHeading: '谷圈 App 没有响应',
  appSilentBody: '页面没有收到 App 的回应。请重试；如果还是不行，请关闭此页面后重新打开。',
  retry: '重试',
  errors: {
    code_missing: '请先获取验证码。',
    code_expired: '验证码已过期，请重新获取。',
    code_used: '验证码已使用，请重新获取。',
    code_attempts_exceeded: '错误次数过多，请重新获取验证码。',
    sms_failed: '短信发送失败，请稍后重试。',
    no_bound_phone: '账号未绑定手机号码，请先在 App 中绑定。',
    deletion_blocked: '有未处理完的事项，暂时无法注销。',
  },
  rateLimited: (s) =>
    s >= 3600
      ? `今天获取验证码的次数已达上限，请 ${Math.ceil(s / 3600)} 小时后再试。`
      : `获取太频繁，请 ${s} 秒后再试。`,
  wrongCode: (left) => `验证码不正确，还可以再试 ${left} 次。`,
  requestFailed: '操作没有完成，请检查网络后重试。',
};

const en: DeletionTexts = {
  heading: 'Delete account',
  intro: 'A deleted account cannot be restored. Please read all of this before you go on.',
  deletedHeading: 'What is deleted',
  deletedItems: (c) =>
    [
      c.goods > 0
        ? pluralText('en', c.goods, {
            one: 'Your {n} item of goods and its pictures',
            other: 'Your {n} goods and their pictures',
          })
        : '',
      c.cabinets > 0 ? `Your ${count(c.cabinets, 'cabinet', 'cabinets')}` : '',
      c.notes > 0
        ? pluralText('en', c.notes, {
            one: 'Your {n} note and its comments',
            other: 'Your {n} notes and their comments',
          })
        : '',
      c.comments > 0 ? `Your ${count(c.comments, 'comment', 'comments')}` : '',
    ].filter(Boolean),
  deletedProfile:
    'Your profile (nickname, avatar, bound phone number), your log-ins, likes and collections. Messages you sent stay in the other person’s chat, shown as from “deleted user”.',
  keptHeading: 'What the law makes us keep',
  kept: {
    goods_and_transactions: (m) =>
      `Goods and trade information, including membership records: ${duration(m, 'en')} from the trade or publication (E-Commerce Law, art. 31), no longer shown to anyone`,
    network_logs: (m) =>
      `Network logs and IP addresses: ${duration(m, 'en')} (Cybersecurity Law, art. 21)`,
    deletion_request: (m) =>
      `The record of this deletion: ${duration(m, 'en')} after it is completed`,
    reports_and_appeals: (m) =>
      `Reports and appeals: ${duration(m, 'en')} after they are handled; open disputes until resolved`,
  },
  lostHeading: 'What you lose',
  lostPoints: (p) =>
    p === null ? 'Your unused points' : `Your ${count(p, 'unused point', 'unused points')}`,
  lostDesigns: (d) =>
    d === null
      ? 'The design drawings you redeemed'
      : `The ${count(d, 'design drawing', 'design drawings')} you redeemed`,
  lostMembership: (u) =>
    u === null ? 'Any membership time left' : `The membership time you have left (until ${u})`,
  lostNothing:
    'You have no points, redeemed designs or membership time, so you lose none of these.',
  subscriptionWarning:
    'Membership is an Apple auto-renewing subscription: deleting your account does not cancel it. Cancel it first in iPhone Settings > Apple Account > Subscriptions, or Apple keeps charging you.',
  blockedHeading: 'Before you can delete your account',
  blockedIntro: (n) =>
    pluralText('en', n, {
      one: 'To protect the people you traded with, and you, {n} open matter must be settled first.',
      other:
        'To protect the people you traded with, and you, {n} open matters must be settled first.',
    }),
  blocker: {
    exposure_in_review: {
      label: (title) => `Your exposure post “${title}” is still being reviewed`,
      resolve:
        'Reviews usually finish within 3 working days, and then you can delete your account; or withdraw the post now.',
      action: 'Withdraw it in My exposures',
    },
    appeal_open: {
      label: (title) => `Your appeal “${title}” has not been handled yet`,
      resolve: 'Once it is handled you can delete your account; or withdraw the appeal now.',
      action: 'See my appeals',
    },
    under_investigation: {
      label: () => 'We are looking into a dispute that involves your account',
      resolve: 'You can delete your account once we are done. Questions? Contact support.',
      action: 'Contact support',
    },
  },
  since: (date) => `since ${date}`,
  openFailed: 'The app could not open that screen. Go back to the app and find it under Me.',
  cancelledByLogin: (date) =>
    `You logged in to Goods Circle again on ${date}, which cancelled your deletion request: your account is back to normal. To delete it after all, request it again.`,
  verifyHeading: 'Verify it is you',
  sendTo: (phone) => `We will text a code to your bound phone ${phone}.`,
  sendCode: 'Get code',
  resendIn: (s) => `New code in ${s} s`,
  codeSent: (phone) => `Code sent to ${phone}. It is valid for 5 minutes.`,
  codeLabel: 'SMS code',
  noPhone:
    'No phone number is bound to your account. Bind one in the app under Settings > Account and security.',
  understand: (days) =>
    `I have read the above, understand that a deleted account cannot be restored, and know there is a ${days}-day cool-off during which logging in cancels the deletion.`,
  submit: 'Delete account',
  dialogHeading: 'Delete your account?',
  dialogBody: (date) => `Your account will be deleted on ${date}. You can cancel until then.`,
  dialogConfirm: 'Delete',
  dialogBack: 'Go back',
  coolOffHeading: 'Deletion requested',
  coolOffBody: (date) => `Your account will be deleted on ${date}. You can cancel until then.`,
  coolOffLogin:
    'Logging in to the Goods Circle app again during the cool-off also cancels the deletion.',
  cancelRequest: 'Cancel deletion',
  cancelled: 'The deletion is cancelled. Your account is back to normal.',
  loading: 'Loading',
  noAppHeading: 'Open this page in the Goods Circle app',
  noAppBody:
    'Deleting your account needs the app to verify it is you. Open the Goods Circle app and go to Settings > Account and security > Delete account.',
  loggedOutHeading: 'Please log in',
  loggedOutBody: 'Log in to delete your account.',
  login: 'Log in',
  networkHeading: 'Could not load',
  networkBody: 'The network seems unstable. Check your connection and try again.',
  appSilentHeading: 'The Goods Circle app did not answer',
  appSilentBody:
    'This page got no answer from the app. Try again; if that does not help, close this page and open it again.',
  retry: 'Try again',
  errors: {
    code_missing: 'Get a code first.',
    code_expired: 'The code has expired. Get a new one.',
    code_used: 'The code has been used. Get a new one.',
    code_attempts_exceeded: 'Too many wrong tries. Get a new code.',
    sms_failed: 'The text could not be sent. Try again later.',
    no_bound_phone: 'No phone number is bound. Bind one in the app first.',
    deletion_blocked: 'Some matters are still open, so the account cannot be deleted yet.',
  },
  rateLimited: (s) =>
    s >= 3600
      ? `You have asked for too many codes today. Try again in ${Math.ceil(s / 3600)} h.`
      : `Too many codes. Try again in ${s} s.`,
  wrongCode: (left) => `The code is wrong. ${count(left, 'try', 'tries')} left.`,
  requestFailed: 'That did not go through. Check your connection and try again.',
};

const texts: Readonly<Record<Language, DeletionTexts>> = { 'zh-CN': zh, en };

export function deletionTexts(language: Language): DeletionTexts {
  return texts[language];
}

/** An exact date and time in the reader's language and time zone. */
