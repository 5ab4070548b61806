import type { InAppBrowser, Platform } from '@guquan/contract/client-info';

/**
 * User-Agents as the apps really send them (recent versions of each), for the tests that check
 * how each browser is recognised and what "open in app" does there.
 */
export interface RealUserAgent {
  name: string;
  userAgent: string;
  platform: Platform;
  inAppBrowser: InAppBrowser;
}

export const REAL_USER_AGENTS: readonly RealUserAgent[] = [
  {
    name: 'Safari on iPhone',
    platform: 'ios',
    inAppBrowser: 'none',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  },
  {
    name: 'Chrome on Android',
    platform: 'android',
    inAppBrowser: 'none',
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  },
  {
    name: 'WeChat on iPhone',
    platform: 'ios',
    inAppBrowser: 'wechat',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003129) NetType/WIFI Language/zh_CN',
  },
  {
    name: 'WeChat on Android (XWEB)',
    platform: 'android',
    inAppBrowser: 'wechat',
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  },
  {
    name: 'WeChat on Android (X5, also says MQQBrowser)',
    platform: 'android',
    inAppBrowser: 'wechat',
    userAgent:
      'Mozilla/5.0 (Linux; Android 10; ELS-AN00 Build/HUAWEIELS-AN00; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.62 XWEB/2691 MQQBrowser/6.2 TBS/045714 Mobile Safari/537.36 MMWEBID/6330 MicroMessenger/7.0.18.1740(0x27001235) Process/toolsmp WeChat/arm64 NetType/WIFI Language/zh_CN ABI/arm64',
  },
  {
    name: 'QQ on iPhone',
    platform: 'ios',
    inAppBrowser: 'qq',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.9.80.602 V1_IPH_SQ_8.9.80_1_APP_A Pixel/1170 MiniAppEnable SimpleUISwitch/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.000000 QQTheme/1000 Core/WKWebView Device/Apple(iPhone 13) NetType/WIFI QBWebViewType/1 WKType/1',
  },
  {
    name: 'QQ on Android (X5, also says MQQBrowser)',
    platform: 'android',
    inAppBrowser: 'qq',
    userAgent:
      'Mozilla/5.0 (Linux; Android 12; M2012K11AC Build/SKQ1.211006.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046247 Mobile Safari/537.36 V1_AND_SQ_8.9.28_3700_YYB_D A_8092800 QQ/8.9.28.10155 NetType/WIFI WebP/0.3.0 AppId/537150355 Pixel/1080 StatusBarHeight/110 SimpleUISwitch/0 QQTheme/1000',
  },
  {
    name: 'QQ Browser on iPhone',
    platform: 'ios',
    inAppBrowser: 'qqbrowser',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 MQQBrowser/13.7.0 Mobile/15E148 Safari/604.1 QBWebViewUA/2 QBWebViewType/1 WKType/1',
  },
  {
    name: 'QQ Browser on Android',
    platform: 'android',
    inAppBrowser: 'qqbrowser',
    userAgent:
      'Mozilla/5.0 (Linux; U; Android 13; zh-cn; 22081212C Build/TKQ1.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/109.0.5414.86 MQQBrowser/14.1 Mobile Safari/537.36 COVC/046517',
  },
  {
    name: 'Qzone on iPhone',
    platform: 'ios',
    inAppBrowser: 'qzone',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 15_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Qzone/V1_IPH_QZ_8.9.1_1_APP_A Pixel/1170 QZHDAccess/1 Core/WKWebView NetType/WIFI',
  },
  {
    name: 'Qzone on Android',
    platform: 'android',
    inAppBrowser: 'qzone',
    userAgent:
      'Mozilla/5.0 (Linux; Android 11; PEGM00 Build/RKQ1.200903.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046011 Mobile Safari/537.36 Qzone/V1_AND_QZ_8.9.1_288_YYB_D QZONEJSSDK/8.9.1 NetType/WIFI',
  },
  {
    name: 'Weibo on iPhone',
    platform: 'ios',
    inAppBrowser: 'weibo',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Weibo (iPhone14,5__weibo__14.6.0__iphone__os17.5)',
  },
  {
    name: 'Weibo on Android',
    platform: 'android',
    inAppBrowser: 'weibo',
    userAgent:
      'Mozilla/5.0 (Linux; Android 12; NOH-AN00 Build/HUAWEINOH-AN00; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/99.0.4844.88 Mobile Safari/537.36 Weibo (HUAWEI-NOH-AN00__weibo__13.9.1__android__android12)',
  },
  {
    name: 'Alipay on iPhone',
    platform: 'ios',
    inAppBrowser: 'alipay',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Ariver/1.1.0 AliApp(AP/10.5.86.6000) Nebula WK RVKType(0) AlipayDefined(nt:WIFI,ws:390|780|3.0) AlipayClient/10.5.86.6000 Language/zh-Hans Region/CN NebulaX/1.0.0',
  },
  {
    name: 'Alipay on Android',
    platform: 'android',
    inAppBrowser: 'alipay',
    userAgent:
      'Mozilla/5.0 (Linux; U; Android 13; zh-CN; 2211133C Build/TKQ1.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UWS/3.22.2.59 Mobile Safari/537.36 UCBS/3.22.2.59_230815200318 ChannelId(0) NebulaSDK/1.8.100112 Nebula AlipayDefined(nt:WIFI,ws:393|0|2.75,ac:sp) AliApp(AP/10.5.30.8000) AlipayClient/10.5.30.8000 Language/zh-Hans useStatusBar/true isConcaveScreen/true Region/CN',
  },
  {
    name: 'DingTalk on iPhone',
    platform: 'ios',
    inAppBrowser: 'dingtalk',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 AliApp(DingTalk/7.5.20) com.laiwang.DingTalk/31339183 Channel/201200 language/zh-Hans-CN UT4Aplus/0.0.6 WK',
  },
  {
    name: 'DingTalk on Android',
    platform: 'android',
    inAppBrowser: 'dingtalk',
    userAgent:
      'Mozilla/5.0 (Linux; U; Android 12; zh-CN; V2134A Build/SP1A.210812.003) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/69.0.3497.100 UWS/3.22.2.33 Mobile Safari/537.36 AliApp(DingTalk/7.0.30) com.alibaba.android.rimet/30425710 Channel/227200 language/zh-CN abi/64 UT4Aplus/0.2.25 colorScheme/light',
  },
  {
    name: 'Douyin on iPhone',
    platform: 'ios',
    inAppBrowser: 'douyin',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 aweme_29.7.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/zh Region/CN AppTheme/light RevealType/Dialog WKWebView/1 BytedanceWebview/d8a21c6',
  },
  {
    name: 'Douyin on Android',
    platform: 'android',
    inAppBrowser: 'douyin',
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; PHB110 Build/TP1A.220905.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/75.0.3770.156 Mobile Safari/537.36 aweme_290300 JsSdk/1.0 NetType/WIFI Channel/oppo_1128_64 AppName/aweme app_version/29.3.0 ByteLocale/zh-CN Region/CN AppTheme/light BytedanceWebview/d8a21c6',
  },
];
