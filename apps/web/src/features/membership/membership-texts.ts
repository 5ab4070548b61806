import type { Language } from '@guquan/contract/language';
import type { PlanPeriod, TransactionErrorCode } from '@guquan/contract/membership';
import { pluralText } from '../../lib/i18n/plural';

/** The membership centre's texts (App Store rule 3.1.2: title, length, price, renewal terms). */
const texts = {
  'zh-CN': {
    heading: '会员中心',
    loading: '正在读取会员信息…',
    statusActive: '会员生效中',
    statusExpired: '会员已过期',
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
    buy: (price: string) => `开通会员 ${price}`,
    perMonth: (price: string) => `折合 ${price}/月`,
    bestValue: '最划算',
    awaitingApproval: (title: string) =>
      `「${title}」的购买正在等待批准（如“询问购买”），批准后会员会自动生效。在此之前不能再次购买。`,
    restore: '恢复购买',
    cancelHeading: '如何更改或取消订阅',
    cancelSteps:
      '会员可以在本页点「管理订阅」，打开 App Store 的订阅管理；也可以打开 iPhone「设置」→ 点击你的名字（Apple 账户）→「订阅」→ 选择「谷圈会员」。在那里可以更改套餐或取消订阅。请在当前周期结束前至少 24 小时取消。',
    purchasing: '正在向 App Store 发起购买…',
    verifying: '正在验证购买，请勿离开此页面…',
    success: (date: string) => `开通成功！会员有效期至 ${date}。`,
    cancelled: '已取消购买，未扣款。',
    pending: '购买正在等待批准（如“询问购买”），批准后会员会自动生效。',
    failed:
      'App Store 没能完成这次购买，你没有被扣款。可以再试一次；如果一直不成功，请在 iPhone「设置」→ Apple 账户 →「付款与配送」中检查付款方式。',
    unconfirmed:
      '已付款，但暂时无法连接服务器验证。购买已妥善保存，下次打开此页面时会自动完成，不会重复扣款。',
    rejected: (reason: string, code: string) =>
      `我们没能确认这笔购买：${reason}如已扣款，请通过 Apple 的「报告问题」申请退款，或联系客服（代码 ${code}）。`,
    rejectedReasons: {
      invalid_transaction: '它没有通过 App Store 的校验。',
      wrong_bundle: '它是在另一个 App 中购买的。',
      wrong_environment: '它来自另一个 App Store 环境。',
      wrong_account: '它属于另一个谷圈账号。',
      revoked: 'Apple 已退款或撤销了它。',
      unknown_product: '它不是谷圈的会员套餐。',
      already_subscribed: '你的会员已经生效，再次订阅不会延长会员期。',
    } satisfies Record<TransactionErrorCode, string>,
    rejectedOther: '服务器暂时无法校验。',
    signedOut: '登录已过期，请重新登录。',
    restoring: '正在恢复购买…',
    restored: (count: number) =>
      count > 0 ? `已恢复 ${count} 笔购买。` : '没有找到可恢复的订阅。',
    restoreFailed:
      '没能恢复购买：App Store 没有给出购买记录。请确认已登录购买时的 Apple 账户，稍后再试。',
    onlyIos: '会员购买仅在谷圈 iOS App 中提供。',
    onlyIosBrowser: '请在 iPhone 上打开谷圈 App，在「我的 → 会员中心」开通会员。',
    onlyIosAndroid: '当前设备不支持在此开通会员。已在 iOS 开通的会员在所有设备上均可使用。',
    memberHeading: '你的会员',
    currentPlan: (title: string, price: string) => `${title} · ${price}`,
    renewsOn: (date: string) => `下次续费：${date}`,
    endsOn: (date: string) => `已关闭自动续费，会员到 ${date} 结束，不再扣费`,
    changesOn: (date: string, title: string) => `${date}续费时改为「${title}」`,
    manage: '管理订阅',
    manageHint: '在 App Store 的订阅管理中更改套餐、取消或重新开启自动续费。',
    manageFailed:
      '没能打开 App Store 的订阅管理。请稍后再试，或在 iPhone「设置」→ Apple 账户 →「订阅」中管理。',
    managing: '正在打开 App Store 的订阅管理…',
    changeHeading: '更改套餐',
    changeIntro: '你只有一个订阅，更改套餐不会重复购买。',
    changeTo: (title: string, price: string) => `改为${title} ${price}`,
    keepCurrent: (title: string) => `保持${title}`,
    effect: {
      upgrade: '升级，立即生效：按新套餐扣费，当前套餐未用完的部分由 Apple 按比例退款。',
      downgrade: (date: string) => `降级，${date}续费时生效，在此之前保持当前套餐。`,
      crossgradeNow: '立即生效：按新套餐扣费，当前套餐未用完的部分由 Apple 按比例退款。',
      crossgradeRenewal: (date: string) => `${date}续费时生效，在此之前保持当前套餐。`,
      keep: '取消待生效的更改，续费时仍为当前套餐。',
    },
    changing: '正在向 App Store 更改套餐…',
    changedNow: (title: string, date: string) => `已改为「${title}」，会员有效期至 ${date}。`,
    changeScheduled: (title: string, date: string) =>
      `已安排：${date}续费时改为「${title}」，在此之前保持当前套餐。`,
    changeKept: '已保持当前套餐，续费时不再更改。',
    approved: (date: string) => `购买已获批准，会员生效中，有效期至 ${date}。`,
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
    buy: (price: string) => `Subscribe for ${price}`,
    perMonth: (price: string) => `${price} a month`,
    bestValue: 'Best value',
    awaitingApproval: (title: string) =>
      `Your purchase of the ${title} is waiting for approval (Ask to Buy). Your membership starts once it is approved; until then you cannot buy again.`,
    restore: 'Restore purchases',
    cancelHeading: 'How to change or cancel',
    cancelSteps:
      'Members tap Manage subscription on this page to open the App Store’s subscription management; or open the iPhone Settings → tap your name (Apple Account) → Subscriptions → choose the Goods Circle membership. There you can change the plan or cancel. Cancel at least 24 hours before the current period ends.',
    purchasing: 'Asking the App Store…',
    verifying: 'Verifying your purchase. Please stay on this page…',
    success: (date: string) => `Done! Your membership is valid until ${date}.`,
    cancelled: 'The purchase was cancelled. You have not been charged.',
    pending:
      'The purchase is waiting for approval (Ask to Buy). Your membership starts once it is approved.',
    failed:
      'The App Store could not complete the purchase, and you have not been charged. Try again; if it keeps failing, check your payment method in iPhone Settings → Apple Account → Payment & Shipping.',
    unconfirmed:
      'You have paid, but our server cannot be reached to verify it right now. The purchase is kept safe and completes the next time you open this page; you will not be charged twice.',
    rejected: (reason: string, code: string) =>
      `We could not confirm this purchase: ${reason} If you were charged, ask Apple for a refund under Report a Problem, or contact support (code ${code}).`,
    rejectedReasons: {
      invalid_transaction: 'the App Store could not verify it.',
      wrong_bundle: 'it was bought in another app.',
      wrong_environment: 'it comes from another App Store environment.',
      wrong_account: 'it belongs to another Goods Circle account.',
      revoked: 'Apple has refunded or revoked it.',
      unknown_product: 'it is not a Goods Circle membership plan.',
      already_subscribed:
        'your membership is already active, and a second subscription would not extend it.',
    },
    rejectedOther: 'our server cannot verify it right now.',
    signedOut: 'Your session has expired. Please log in again.',
    restoring: 'Restoring purchases…',
    restored: (count: number) =>
      count > 0
        ? pluralText('en', count, {
            one: 'Restored {n} purchase.',
            other: 'Restored {n} purchases.',
          })
        : 'No subscription to restore was found.',
    restoreFailed:
      'Restoring did not complete: the App Store gave no purchases back. Check that you are signed in with the Apple Account you bought with, and try again later.',
    onlyIos: 'Membership can be bought in the Goods Circle iOS app.',
    onlyIosBrowser: 'Open the Goods Circle app on an iPhone and go to Me → Membership centre.',
    onlyIosAndroid:
      'Membership cannot be bought on this device. A membership bought on iOS works on every device.',
    memberHeading: 'Your membership',
    currentPlan: (title: string, price: string) => `${title} · ${price}`,
    renewsOn: (date: string) => `Renews on ${date}`,
    endsOn: (date: string) =>
      `Auto-renewal is off: your membership ends on ${date} and you will not be charged again`,
    changesOn: (date: string, title: string) => `Changes to ${title} when it renews on ${date}`,
    manage: 'Manage subscription',
    manageHint:
      'Change the plan, cancel, or turn auto-renewal back on in the App Store’s subscription management.',
    manageFailed:
      'The App Store’s subscription management did not open. Try again later, or go to iPhone Settings → Apple Account → Subscriptions.',
    managing: 'Opening the App Store’s subscription management…',
    changeHeading: 'Change plan',
    changeIntro: 'You have one subscription: changing the plan never buys a second one.',
    changeTo: (title: string, price: string) => `Change to ${title} ${price}`,
    keepCurrent: (title: string) => `Keep ${title}`,
    effect: {
      upgrade:
        'Upgrade, starts now: you pay the new plan, and Apple refunds the unused part of the current one.',
      downgrade: (date: string) =>
        `Downgrade, starts when it renews on ${date}; until then you keep the current plan.`,
      crossgradeNow:
        'Starts now: you pay the new plan, and Apple refunds the unused part of the current one.',
      crossgradeRenewal: (date: string) =>
        `Starts when it renews on ${date}; until then you keep the current plan.`,
      keep: 'Undoes the change waiting for the renewal: it renews on the current plan.',
    },
    changing: 'Changing the plan with the App Store…',
    changedNow: (title: string, date: string) => `Your plan is now ${title}, valid until ${date}.`,
    changeScheduled: (title: string, date: string) =>
      `Done: it changes to ${title} when it renews on ${date}; until then you keep the current plan.`,
    changeKept: 'You keep the current plan: nothing changes at the renewal.',
    approved: (date: string) =>
      `Your purchase was approved: your membership is active until ${date}.`,
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
