import type { DesignFile, DesignUse } from '@guquan/contract/design';
import type { Language } from '@guquan/contract/language';
import { useLanguage } from '../../lib/i18n/language-context';
import { pluralText } from '../../lib/i18n/plural';

/** "1 point", "2 points". */
function points(n: number): string {
  return pluralText('en', n, { one: '{n} point', other: '{n} points' });
}

/** "8.4 MB", "640 KB": a file's size, in decimal units as phones show them. */
function fileSize(bytes: number): string {
  return bytes >= 1_000_000
    ? `${(bytes / 1_000_000).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1_000))} KB`;
}

/** The redeem page's texts in both languages. Points are earned in the app, never bought. */
const zhCN = {
  loading: '正在加载设计图',
  previewLabel: '设计图预览（带水印）',
  noPreview: '预览已下架',
  designer: '设计师',
  price: '兑换价格',
  yourPoints: '我的积分',
  points: (n: number) => `${n} 积分`,
  redeem: '立即兑换',
  redeeming: '兑换中…',
  confirmTitle: '确认兑换',
  confirmBody: (title: string, price: number, rest: number) =>
    `将使用 ${price} 积分兑换「${title}」，兑换后剩余 ${rest} 积分。积分兑换后不退回。`,
  confirm: '确认兑换',
  cancel: '再想想',
  redeemedHeading: '兑换成功',
  redeemedBody: (balance: number) => `设计图已放入你的收藏，剩余 ${balance} 积分。`,
  pendingHeading: '正在确认兑换',
  pendingBody: '积分正在扣除，确认后设计图会放入你的收藏。无需重复兑换，不会重复扣分。',
  alreadyHeading: '你已兑换过这张设计图',
  alreadyBody: '它在你的收藏里，随时可以查看和使用。',
  openInApp: '查看设计图',
  ownHeading: '这是你的设计图',
  ownBody: '设计师不需要兑换自己的设计图，也不会为它花积分。',
  insufficientHeading: '积分不足',
  insufficientBody: (missing: number) =>
    `还差 ${missing} 积分。积分通过每日签到、发布笔记等方式获得，不能购买。`,
  earnPoints: '看看怎样赚积分',
  unavailableHeading: '设计图已下架',
  unavailableBody:
    '这张设计图已停止兑换，不会扣除你的积分；已经兑换的人仍可继续使用。去 App 里看看其他设计图吧。',
  otherDesigns: '看看其他设计图',
  getsHeading: '兑换后你将获得',
  getsFile: (file: DesignFile | null) =>
    file
      ? `不带水印的原图：${file.format.toUpperCase()} 文件，${file.width} × ${file.height} 像素，${fileSize(file.bytes)}。在 App 的收藏中查看和保存。`
      : '不带水印的原图，在 App 的收藏中查看和保存。',
  getsUse: (use: DesignUse | null) =>
    use === null
      ? '使用范围：以设计师在 App 中的说明为准。'
      : {
          personal: '仅限个人使用：可以自己打印、做壁纸、自制谷子，不得出售、转发或再次发布。',
          non_commercial:
            '个人及非商用：可以自己打印、自制谷子，也可以在同好间免费赠送（无料）；不得出售或再次发布原图。',
          commercial: '可商用：可以制作谷子出售，请注明设计师；不得转卖或再次发布原图文件本身。',
        }[use],
  invalidHeading: '链接不完整',
  invalidBody: '没有找到要兑换的设计图，请回到谷圈 App 重新打开。',
  notFoundHeading: '设计图不存在',
  notFoundBody: '这张设计图可能已被删除，请回到谷圈 App 看看其他设计图。',
  loggedOutHeading: '请先登录',
  loggedOutBody: '登录谷圈账号后即可查看积分并兑换设计图。',
  logIn: '登录',
  noAppHeading: '请在谷圈 App 中打开',
  noAppBody: '兑换设计图需要使用谷圈 App 的账号和积分，请在 App 内打开此页面。',
  failedHeading: '网络异常',
  failedBody: '没能加载设计图，请检查网络后重试。',
  retry: '重试',
  redeemFailed: '没有收到兑换结果。请重试：同一次兑换不会重复扣除积分。',
  tooManyRequests: '操作太频繁，请稍后再试。',
  openFailed: 'App 没能打开这个页面，请稍后再试。',
};

export type RedeemTexts = typeof zhCN;

const en: RedeemTexts = {
  loading: 'Loading the design',
  previewLabel: 'Design preview (watermarked)',
  noPreview: 'Preview withdrawn',
  designer: 'Designer',
  price: 'Price',
  yourPoints: 'Your points',
  points,
  redeem: 'Redeem',
  redeeming: 'Redeeming…',
  confirmTitle: 'Confirm redemption',
  confirmBody: (title: string, price: number, rest: number) =>
    `Redeem “${title}” for ${points(price)}? You will have ${points(rest)} left. Points are not refunded.`,
  confirm: 'Redeem',
  cancel: 'Cancel',
  redeemedHeading: 'Redeemed',
  redeemedBody: (balance: number) =>
    `The design is in your collection. You have ${points(balance)} left.`,
  pendingHeading: 'Confirming your redemption',
  pendingBody:
    'Your points are being spent; the design goes to your collection once confirmed. No need to redeem again: you are never charged twice.',
  alreadyHeading: 'You have redeemed this design',
  alreadyBody: 'It is in your collection: view and use it at any time.',
  openInApp: 'View the design',
  ownHeading: 'This is your own design',
  ownBody: 'Designers do not redeem their own designs, nor spend points on them.',
  insufficientHeading: 'Not enough points',
  insufficientBody: (missing: number) =>
    `You need ${pluralText('en', missing, { one: '{n} more point', other: '{n} more points' })}. Points are earned with daily check-ins, posting notes and more; they cannot be bought.`,
  earnPoints: 'How to earn points',
  unavailableHeading: 'No longer available',
  unavailableBody:
    'This design can no longer be redeemed, and no points are taken; those who redeemed it keep using it. Have a look at other designs in the app.',
  otherDesigns: 'See other designs',
  getsHeading: 'What you get',
  getsFile: (file: DesignFile | null) =>
    file
      ? `The drawing without the watermark: a ${file.format.toUpperCase()} file, ${file.width} × ${file.height} pixels, ${fileSize(file.bytes)}. View and save it in your collection in the app.`
      : 'The drawing without the watermark. View and save it in your collection in the app.',
  getsUse: (use: DesignUse | null) =>
    use === null
      ? 'Use allowed: as the designer says in the app.'
      : {
          personal:
            'Personal use only: print it, make a wallpaper or goods for yourself; never sell, share or post it.',
          non_commercial:
            'Personal and non-commercial use: print it, make goods, give them away for free; never sell them or post the drawing.',
          commercial:
            'Commercial use allowed: make goods to sell, crediting the designer; never resell or post the file itself.',
        }[use],
  invalidHeading: 'This link is incomplete',
  invalidBody: 'We could not tell which design to show. Open it again from the Goods Circle app.',
  notFoundHeading: 'Design not found',
  notFoundBody:
    'This design may have been deleted. Have a look at other designs in the Goods Circle app.',
  loggedOutHeading: 'Log in first',
  loggedOutBody: 'Log in to your Goods Circle account to see your points and redeem designs.',
  logIn: 'Log in',
  noAppHeading: 'Open this page in the Goods Circle app',
  noAppBody: 'Designs are redeemed with the points of your Goods Circle account, in the app.',
  failedHeading: 'Connection problem',
  failedBody: 'The design could not be loaded. Check your connection and try again.',
  retry: 'Try again',
  redeemFailed: 'We did not get an answer. Try again: the same redemption is never charged twice.',
  tooManyRequests: 'Too many attempts. Please wait a moment and try again.',
  openFailed: 'The app could not open that screen. Please try again.',
};

const texts: Readonly<Record<Language, RedeemTexts>> = { 'zh-CN': zhCN, en };

export function redeemTexts(language: Language): RedeemTexts {
  return texts[language];
}

export function useRedeemTexts(): RedeemTexts {
  return redeemTexts(useLanguage());
}
