import type { Language } from '@guquan/contract/language';
import type { PlanPeriod } from '@guquan/contract/membership';
import { pluralText } from '../../lib/i18n/plural';

/** The membership centre's texts (App Store rule 3.1.2: title, length, price, renewal terms). */
const texts = {
  'zh-CN': {
    heading: '会员中心',
    loading: '正在读取会员信息…',
    statusActive: '会员生效中',
    statusExpired: '会员已过期',
    statusNone: '你还不是会员',
    expiresOn: (date: string) => `有效期至 ${date}`,
    expiredOn: (date: string) => `已于 ${date} 到期`,
    renewOn: '到期后自动续费',
    renewOff: '已关闭自动续费，到期后不再扣费',
    benefitsHeading: '会员权益',
    benefits: [
      ['专属徽章', '昵称旁显示会员徽章与专属头像框'],
      ['更多痛柜', '可创建的痛柜从 3 个增加到 20 个'],
      ['原图浏览', '谷子与笔记图片可查看高清原图'],
      ['优先审核', '曝光笔记优先进入人工审核'],
    ],
    plansHeading: '选择套餐',
    periodName: { month: '1 个月', quarter: '3 个月', year: '12 个月' } satisfies Record<
      PlanPeriod,
      string
    >,
    perPeriod: { month: '/月', quarter: '/季', year: '/年' } satisfies Record<PlanPeriod, string>,
    renewsEvery: (period: PlanPeriod, price: string) =>
      `${{ month: '每月', quarter: '每 3 个月', year: '每年' }[period]}自动续费 ${price}，可随时取消`,
    terms:
      '确认购买后，将从你的 Apple ID 账户扣款。订阅会按相同周期和价格自动续订，除非你在当前周期结束前至少 24 小时关闭自动续费；续费将在当前周期结束前 24 小时内扣款。',
    consentBefore: '我已阅读并同意',
    agreement: '《会员服务协议》',
    and: '和',
    privacy: '《隐私政策》',
    consentNeeded: '请先阅读并同意会员服务协议和隐私政策。',
    buy: (price: string) => `确认协议并开通 ${price}`,
    restore: '恢复购买',
    cancelHeading: '如何取消订阅',
    cancelSteps:
      '打开 iPhone「设置」→ 点击你的名字（Apple ID）→「订阅」→ 选择「谷圈会员」→「取消订阅」。请在当前周期结束前至少 24 小时取消。',
    purchasing: '正在向 App Store 发起购买…',
    verifying: '正在验证购买，请勿离开此页面…',
    success: (date: string) => `开通成功！会员有效期至 ${date}。`,
    cancelled: '已取消购买，未扣款。',
    pending: '购买正在等待批准（如“询问购买”），批准后会员会自动生效。',
    failed: (message: string) => `购买未完成：${message}`,
    unconfirmed:
      '已付款，但暂时无法连接服务器验证。购买已妥善保存，下次打开此页面时会自动完成，不会重复扣款。',
    rejected: (code: string) => `服务器未能确认这笔购买（${code}）。如已扣款，请联系客服。`,
    signedOut: '登录已过期，请重新登录。',
    restoring: '正在恢复购买…',
    restored: (count: number) =>
      count > 0 ? `已恢复 ${count} 笔购买。` : '没有找到可恢复的订阅。',
    restoreFailed: (message: string) => `恢复购买未完成：${message}`,
    onlyIos: '会员购买仅在谷圈 iOS App 中提供。',
    onlyIosBrowser: '请在 iPhone 上打开谷圈 App，在「我的 → 会员中心」开通会员。',
    onlyIosAndroid: '当前设备不支持在此开通会员。已在 iOS 开通的会员在所有设备上均可使用。',
    logIn: '登录',
    logInNeeded: '登录后查看你的会员状态。',
    loadFailed: '会员信息加载失败，请检查网络后重试。',
    retry: '重试',
  },
  en: {
    heading: 'Membership centre',
    loading: 'Loading your membership…',
    statusActive: 'Your membership is active',
    statusExpired: 'Your membership has expired',
    statusNone: 'You are not a member yet',
    expiresOn: (date: string) => `Valid until ${date}`,
    expiredOn: (date: string) => `Expired on ${date}`,
    renewOn: 'Renews automatically at the end of the period',
    renewOff: 'Auto-renewal is off: you will not be charged again',
    benefitsHeading: 'Member benefits',
    benefits: [
      ['Member badge', 'A badge next to your nickname and an exclusive avatar frame'],
      ['More cabinets', 'Create up to 20 cabinets instead of 3'],
      ['Full-size pictures', 'View goods and note pictures in full resolution'],
      ['Priority review', 'Your exposure notes are reviewed first'],
    ],
    plansHeading: 'Choose a plan',
    periodName: { month: '1 month', quarter: '3 months', year: '12 months' } satisfies Record<
      PlanPeriod,
      string
    >,
    perPeriod: { month: '/month', quarter: '/quarter', year: '/year' } satisfies Record<
      PlanPeriod,
      string
    >,
    renewsEvery: (period: PlanPeriod, price: string) =>
      `Renews automatically at ${price} every ${{ month: 'month', quarter: '3 months', year: 'year' }[period]}; cancel any time`,
    terms:
      'Payment is charged to your Apple ID when you confirm the purchase. The subscription renews automatically for the same period and price unless auto-renewal is turned off at least 24 hours before the end of the current period; the renewal is charged within the 24 hours before the period ends.',
    consentBefore: 'I have read and agree to the',
    agreement: 'Membership agreement',
    and: 'and the',
    privacy: 'Privacy policy',
    consentNeeded:
      'Please read and agree to the membership agreement and the privacy policy first.',
    buy: (price: string) => `Agree and subscribe for ${price}`,
    restore: 'Restore purchases',
    cancelHeading: 'How to cancel',
    cancelSteps:
      'Open the iPhone Settings → tap your name (Apple ID) → Subscriptions → choose the 谷圈 membership → Cancel Subscription. Cancel at least 24 hours before the current period ends.',
    purchasing: 'Asking the App Store…',
    verifying: 'Verifying your purchase. Please stay on this page…',
    success: (date: string) => `Done! Your membership is valid until ${date}.`,
    cancelled: 'The purchase was cancelled. You have not been charged.',
    pending:
      'The purchase is waiting for approval (Ask to Buy). Your membership starts once it is approved.',
    failed: (message: string) => `The purchase did not complete: ${message}`,
    unconfirmed:
      'You have paid, but our server cannot be reached to verify it right now. The purchase is kept safe and completes the next time you open this page; you will not be charged twice.',
    rejected: (code: string) =>
      `Our server could not confirm this purchase (${code}). If you were charged, please contact support.`,
    signedOut: 'Your session has expired. Please log in again.',
    restoring: 'Restoring purchases…',
    restored: (count: number) =>
      count > 0
        ? pluralText('en', count, {
            one: 'Restored {n} purchase.',
            other: 'Restored {n} purchases.',
          })
        : 'No subscription to restore was found.',
    restoreFailed: (message: string) => `Restoring did not complete: ${message}`,
    onlyIos: 'Membership can be bought in the 谷圈 iOS app.',
    onlyIosBrowser: 'Open the 谷圈 app on an iPhone and go to Me → Membership centre.',
    onlyIosAndroid:
      'Membership cannot be bought on this device. A membership bought on iOS works on every device.',
    logIn: 'Log in',
    logInNeeded: 'Log in to see your membership.',
    loadFailed: 'Your membership could not be loaded. Check your connection and try again.',
    retry: 'Try again',
  },
} as const;

export type MembershipTexts = (typeof texts)[Language];

export function membershipTexts(language: Language): MembershipTexts {
  return texts[language];
}

/** A price the server knows, in fen, as the App Store would write it in China. */
export function formatFen(fen: number): string {
  return `¥${(fen / 100).toFixed(2)}`;
}
