import { describe, expect, it } from 'vitest';
import { REAL_USER_AGENTS } from '../../../tests/support/real-user-agents.ts';
import { shareChannel } from './share-channel.ts';

const EXPECTED: Readonly<Record<string, string>> = {
  'Safari on iPhone': 'safari',
  'Chrome on Android': 'chrome',
  'WeChat on iPhone': 'wechat',
  'WeChat on Android (XWEB)': 'wechat',
  'WeChat on Android (X5, also says MQQBrowser)': 'wechat',
  'QQ on iPhone': 'qq',
  'QQ on Android (X5, also says MQQBrowser)': 'qq',
  'QQ Browser on iPhone': 'other',
  'QQ Browser on Android': 'other',
  'Qzone on iPhone': 'qq',
  'Qzone on Android': 'qq',
  'Weibo on iPhone': 'weibo',
  'Weibo on Android': 'weibo',
  'Alipay on iPhone': 'other_in_app',
  'Alipay on Android': 'other_in_app',
  'DingTalk on iPhone': 'other_in_app',
  'DingTalk on Android': 'other_in_app',
  'Douyin on iPhone': 'other_in_app',
  'Douyin on Android': 'other_in_app',
};

describe('shareChannel', () => {
  it.each(REAL_USER_AGENTS)('$name', ({ name, userAgent }) => {
    expect(shareChannel(userAgent)).toBe(EXPECTED[name]);
  });

  it('tells browsers built on Chrome or Safari, web views of other apps and desktops apart', () => {
    const chromeOnIphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
    const edgeOnAndroid =
      'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 EdgA/126.0.2592.61';
    const huawei =
      'Mozilla/5.0 (Linux; Android 12; NOH-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36';
    const androidWebView =
      'Mozilla/5.0 (Linux; Android 13; SM-S901B; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36';
    const iosWebView =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
    const macSafari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    const desktopChrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
    expect(shareChannel(chromeOnIphone)).toBe('chrome');
    expect(shareChannel(edgeOnAndroid)).toBe('other');
    expect(shareChannel(huawei)).toBe('other');
    expect(shareChannel(androidWebView)).toBe('other_in_app');
    expect(shareChannel(iosWebView)).toBe('other_in_app');
    expect(shareChannel(macSafari)).toBe('safari');
    expect(shareChannel(desktopChrome)).toBe('chrome');
    expect(shareChannel(firefox)).toBe('other');
    expect(shareChannel(undefined)).toBe('other');
  });
});
