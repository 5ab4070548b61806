import type { Language } from '@guquan/contract/language';
import { SHARE_KINDS, SHARE_PAGE_PATHS, type ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';

/**
 * The one route table of the site (SPEC.md "Screens and routes", PRODUCT.md "Routes and
 * titles"). The router, the server and the tests all read it; no other list of routes exists.
 * `module` names the lazily loaded route module in `src/app/routes/<module>.tsx`; `legal` names the
 * document version a legal route shows, `share` the kind of share a share route shows (its path is
 * the contract's SHARE_PAGE_PATHS).
 */
export type Titles = Readonly<Record<Language, string>>;

export const DEFAULT_TITLES: Titles = { 'zh-CN': '谷圈APP', en: 'goods-circle APP' };

/** A version of a legal document: content/legal/<document>/<version>.md. */
export interface LegalDocumentRef {
  readonly document: string;
  readonly version: string;
}

/**
 * What a route is for, which decides how search engines treat it (config/search-indexing.ts):
 * only the website, the legal pages and shared items are for them; in-app pages never are.
 */
export type RouteKind = 'website' | 'share' | 'in-app' | 'legal' | 'not-found';

export interface RouteEntry {
  readonly id: string;
  readonly kind: RouteKind;
  /** Path under the base path, as the spec writes it; `*` is the not-found page. */
  readonly path: string;
  readonly titles?: Titles;
  readonly module: string;
  /** The legal document version a legal route shows. */
  readonly legal?: LegalDocumentRef;
  /** The kind of share a share route shows. */
  readonly share?: ShareKind;
}

/** Each kind of share's route: one per kind, so a new kind does not compile until it has one. */
const SHARE_ROUTES = {
  goods: { id: 'goods-share', titles: { 'zh-CN': '谷子分享', en: 'goods share' } },
  cabinet: { id: 'cabinet-share', titles: { 'zh-CN': '痛柜', en: 'painful cabinet' } },
  note: { id: 'notes-share', titles: { 'zh-CN': '笔记分享', en: 'note share' } },
} as const satisfies Record<ShareKind, { id: string; titles: Titles }>;

/** The share page of a kind: all share pages are one route module, told apart by `share`. */
function shareRoute<K extends ShareKind>(share: K) {
  const { id, titles } = SHARE_ROUTES[share];
  return {
    id,
    kind: 'share',
    path: SHARE_PAGE_PATHS[share],
    titles,
    module: 'share-pages',
    share,
  } as const;
}

const USER_AGREEMENT: Titles = { 'zh-CN': '用户协议', en: 'User agreement' };
const PRIVACY_POLICY: Titles = { 'zh-CN': '隐私政策', en: 'Privacy policy' };
const EXPOSURE_AGREEMENT: Titles = { 'zh-CN': '曝光协议', en: 'Exposure agreement' };

export const routeTable = [
  {
    id: 'website',
    kind: 'website',
    path: '/website',
    titles: { 'zh-CN': '谷圈官网', en: 'goods-circle official website' },
    module: 'website',
  },
  ...SHARE_KINDS.map(shareRoute),
  {
    id: 'cash-design',
    kind: 'in-app',
    path: '/APPPage/cashDesign',
    titles: { 'zh-CN': '兑换设计图', en: 'redeem design drawing' },
    module: 'redeem-design',
  },
  {
    id: 'ios-vip-buy',
    kind: 'in-app',
    path: '/APPPage/iosVipBuy',
    titles: { 'zh-CN': '会员中心', en: 'Membership centre' },
    module: 'membership',
  },
  {
    id: 'log-out',
    kind: 'in-app',
    path: '/APPPage/logOut',
    titles: { 'zh-CN': '注销账号', en: 'deregister account' },
    module: 'account-deletion',
  },
  {
    id: 'vip-agreement',
    kind: 'legal',
    path: '/agreement/vip/VipAgreement',
    titles: { 'zh-CN': '会员服务协议', en: 'Membership agreement' },
    module: 'legal-document',
    legal: { document: 'vip', version: '2025-10-15' },
  },
  {
    id: 'user-agreement',
    kind: 'legal',
    path: '/agreement/user/UserAgreement',
    titles: USER_AGREEMENT,
    module: 'legal-document',
    legal: { document: 'user', version: '2023-06-01' },
  },
  {
    id: 'user-agreement-20251015',
    kind: 'legal',
    path: '/agreement/user/UserAgreement20251015',
    titles: USER_AGREEMENT,
    module: 'legal-document',
    legal: { document: 'user', version: '2025-10-15' },
  },
  {
    id: 'privacy-policy',
    kind: 'legal',
    path: '/agreement/yiSi/YiSiAgreement',
    titles: PRIVACY_POLICY,
    module: 'legal-document',
    legal: { document: 'privacy', version: '2023-06-01' },
  },
  {
    id: 'privacy-policy-20251015',
    kind: 'legal',
    path: '/agreement/yiSi/YiSiAgreement20251015',
    titles: PRIVACY_POLICY,
    module: 'legal-document',
    legal: { document: 'privacy', version: '2025-10-15' },
  },
  {
    id: 'privacy-policy-20261124',
    kind: 'legal',
    path: '/agreement/yiSi/YiSiAgreement20261124',
    titles: PRIVACY_POLICY,
    module: 'legal-document',
    legal: { document: 'privacy', version: '2026-11-24' },
  },
  {
    id: 'privacy-policy-20261126',
    kind: 'legal',
    path: '/agreement/yiSi/YiSiAgreement20261126',
    titles: PRIVACY_POLICY,
    module: 'legal-document',
    legal: { document: 'privacy', version: '2026-11-26' },
  },
  {
    id: 'privacy-policy-20261127',
    kind: 'legal',
    path: '/agreement/yiSi/YiSiAgreement20261127',
    titles: PRIVACY_POLICY,
    module: 'legal-document',
    legal: { document: 'privacy', version: '2026-11-27' },
  },
  {
    id: 'privacy-policy-20261128',
    kind: 'legal',
    path: '/agreement/yiSi/YiSiAgreement20261128',
    titles: PRIVACY_POLICY,
    module: 'legal-document',
    legal: { document: 'privacy', version: '2026-11-28' },
  },
  {
    id: 'exposure-agreement',
    kind: 'legal',
    path: '/agreement/ExposureAgreement',
    titles: EXPOSURE_AGREEMENT,
    module: 'legal-document',
    legal: { document: 'exposure', version: '2025-10-15' },
  },
  {
    id: 'exposure-agreement-alias',
    kind: 'legal',
    path: '/agreement/exposure/ExposureAgreement',
    titles: EXPOSURE_AGREEMENT,
    module: 'legal-document',
    legal: { document: 'exposure', version: '2025-10-15' },
  },
  {
    id: 'exposure-note-agreement',
    kind: 'legal',
    path: '/agreement/exposureNote/ExposureNoteAgreement',
    titles: { 'zh-CN': '曝光笔记要求', en: 'Exposure note requirements' },
    module: 'legal-document',
    legal: { document: 'exposure-note', version: '2025-10-15' },
  },
  {
    id: 'user-info-list',
    kind: 'legal',
    path: '/agreement/userInfoList',
    titles: { 'zh-CN': '个人信息收集清单', en: 'Personal information collected' },
    module: 'legal-document',
    legal: { document: 'user-info-list', version: '2025-10-15' },
  },
  {
    id: 'third-party-share-list',
    kind: 'legal',
    path: '/agreement/thirdPartyShareList',
    titles: { 'zh-CN': '第三方信息共享清单', en: 'Third-party information sharing' },
    module: 'legal-document',
    legal: { document: 'third-party-share-list', version: '2025-10-15' },
  },
  { id: 'not-found', kind: 'not-found', path: '*', module: 'not-found' },
] as const satisfies readonly RouteEntry[];

export type RouteId = (typeof routeTable)[number]['id'];

export const NOT_FOUND_ROUTE_ID: RouteId = 'not-found';

/** The full URL path of a route, e.g. `/anime_merch_web/website`. */
export function fullPath(route: Pick<RouteEntry, 'path'>): string {
  return `${BASE_PATH}${route.path}`;
}

export function titleOf(route: RouteEntry | undefined, language: Language): string {
  return (route?.titles ?? DEFAULT_TITLES)[language];
}
