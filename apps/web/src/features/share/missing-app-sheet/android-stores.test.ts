import { describe, expect, it } from 'vitest';
import { android as androidStores } from '@content/app-stores.json';
import { download } from '@content/site.json';
import { REAL_USER_AGENTS } from '../../../../../../tests/support/real-user-agents';
import { androidStoreChoices, phoneBrand } from './android-stores';

const agentOf = (name: string) =>
  REAL_USER_AGENTS.find((sample) => sample.name === name)?.userAgent ?? '';

const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const REDUCED_CHROME =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const MIUI_BROWSER =
  'Mozilla/5.0 (Linux; U; Android 13; zh-cn; 23013RK75C Build/TKQ1.221114.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/109.0.5414.118 Mobile Safari/537.36 XiaoMi/MiuiBrowser/17.8.240117';
const HUAWEI_BROWSER =
  'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.11.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.2.311 Mobile Safari/537.36';
const OPPO_BROWSER =
  'Mozilla/5.0 (Linux; U; Android 13; zh-cn; PHB110 Build/TP1A.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/90.0.4430.61 Mobile Safari/537.36 HeyTapBrowser/40.8.10.1';
const VIVO_BROWSER =
  'Mozilla/5.0 (Linux; Android 13; V2148A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/87.0.4280.141 Mobile Safari/537.36 VivoBrowser/17.1.10.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('phoneBrand', () => {
  it('names the maker from its browser, its model name or its model number', () => {
    expect(phoneBrand(MIUI_BROWSER)).toBe('xiaomi');
    expect(phoneBrand(HUAWEI_BROWSER)).toBe('huawei');
    expect(phoneBrand(OPPO_BROWSER)).toBe('oppo');
    expect(phoneBrand(VIVO_BROWSER)).toBe('vivo');
    expect(phoneBrand(agentOf('WeChat on Android (X5, also says MQQBrowser)'))).toBe('huawei');
    expect(phoneBrand(agentOf('WeChat on Android (XWEB)'))).toBe('vivo');
    expect(phoneBrand(agentOf('QQ on Android (X5, also says MQQBrowser)'))).toBe('xiaomi');
    expect(phoneBrand(agentOf('QQ Browser on Android'))).toBe('xiaomi');
    expect(phoneBrand(agentOf('Qzone on Android'))).toBe('oppo');
    expect(phoneBrand(agentOf('Weibo on Android'))).toBe('huawei');
    expect(phoneBrand(agentOf('Douyin on Android'))).toBe('oppo');
  });

  it('names none for other phones, Chrome’s reduced User-Agent and iPhones', () => {
    expect(phoneBrand(PIXEL)).toBeUndefined();
    expect(phoneBrand(REDUCED_CHROME)).toBeUndefined();
    expect(phoneBrand(IPHONE)).toBeUndefined();
    expect(phoneBrand('')).toBeUndefined();
  });
});

describe('androidStoreChoices', () => {
  it('offers the maker’s store first, then the stores of every phone, then the APK', () => {
    const choices = androidStoreChoices(MIUI_BROWSER, 'zh-CN');
    expect(choices.map((choice) => choice.id)).toEqual(['xiaomi', 'yingyongbao', 'apk']);
    expect(choices[0]).toEqual({
      id: 'xiaomi',
      name: '小米应用商店',
      href: androidStores.find((store) => store.id === 'xiaomi')?.url,
    });
    expect(choices.at(-1)?.href).toBe(download.android.url);
    for (const [agent, first] of [
      [HUAWEI_BROWSER, 'huawei'],
      [OPPO_BROWSER, 'oppo'],
      [VIVO_BROWSER, 'vivo'],
    ] as const)
      expect(androidStoreChoices(agent, 'en')[0]?.id).toBe(first);
  });

  it('offers no maker’s store where the phone names none, and speaks the page’s language', () => {
    expect(androidStoreChoices(PIXEL, 'en')).toEqual([
      {
        id: 'yingyongbao',
        name: 'Tencent MyApp (应用宝)',
        href: androidStores.find((store) => store.id === 'yingyongbao')?.url,
      },
      { id: 'apk', name: 'Download the APK', href: download.android.url },
    ]);
  });

  it('takes its list from the settings', () => {
    expect(
      androidStoreChoices(PIXEL, 'zh-CN', [], 'https://example.test/a.apk').map((c) => c.href),
    ).toEqual(['https://example.test/a.apk']);
  });
});
