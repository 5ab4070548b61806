import { android as androidStores } from '@content/app-stores.json';
import { download } from '@content/site.json';
import type { Language } from '@guquan/contract/language';

/**
 * The Android stores the missing-app sheet offers (content/app-stores.json's `android`, then the
 * APK of `download.android.url`): the store of the phone's maker where the User-Agent names one of
 * those makers (a store with a `brand`), the stores every Android phone can use (`brand: null`),
 * and the APK last. The User-Agent is read on the phone only, to choose what to show: nothing
 * of it is sent or kept.
 */
export type PhoneBrand = 'huawei' | 'xiaomi' | 'oppo' | 'vivo';

export interface AndroidStoreSetting {
  id: string;
  /** The maker whose phones have this store; null for a store any Android phone can use. */
  brand: string | null;
  name: Readonly<Record<Language, string>>;
  url: string;
}

export interface StoreChoice {
  id: string;
  name: string;
  href: string;
}

/**
 * Makers by what their phones' browsers and web views write: the maker's own browser, the model
 * name, or the model number (Chrome itself writes only "Android 14; K" and names no maker).
 */
const BRAND_TOKENS: readonly (readonly [PhoneBrand, RegExp])[] = [
  ['huawei', /\bHUAWEI|HarmonyOS|HuaweiBrowser/i],
  [
    'xiaomi',
    /\bXiaomi|\bRedmi\b|\bPOCO\b|MiuiBrowser|XiaoMi\/|; (?:MI|MIX) \w+|; (?:M\d{4}[A-Z]\d{1,2}[A-Z]{1,3}|2\d{6,7}[A-Z]{1,3}) Build\//i,
  ],
  ['oppo', /\bOPPO\b|HeyTapBrowser|OppoBrowser|; (?:P[A-Z]{2,3}\d{2,3}|CPH\d{4}) Build\//],
  ['vivo', /\bvivo\b|VivoBrowser|; V\d{4}[A-Z]{0,2} Build\//i],
];

export function phoneBrand(userAgent: string): PhoneBrand | undefined {
  if (!/Android|HarmonyOS/i.test(userAgent)) return undefined;
  return BRAND_TOKENS.find(([, token]) => token.test(userAgent))?.[0];
}

/** The APK's name in each language (the last choice). */
const APK_NAMES: Readonly<Record<Language, string>> = {
  'zh-CN': '直接下载安装包（APK）',
  en: 'Download the APK',
};

export function androidStoreChoices(
  userAgent: string,
  language: Language,
  stores: readonly AndroidStoreSetting[] = androidStores,
  apkUrl: string = download.android.url,
): StoreChoice[] {
  const brand = phoneBrand(userAgent);
  const offered = stores.filter((store) => store.brand === null || store.brand === brand);
  // The maker's store first: it is the one already on the phone.
  offered.sort((a, b) => Number(a.brand === null) - Number(b.brand === null));
  return [
    ...offered.map((store) => ({ id: store.id, name: store.name[language], href: store.url })),
    { id: 'apk', name: APK_NAMES[language], href: apkUrl },
  ];
}
