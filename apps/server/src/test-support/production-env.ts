import { TEST_CHAIN_DIR } from '../demo/test-chain.ts';

/**
 * Every setting a production server refuses to start without, with the tests' values (never a
 * real secret). Nothing of the app is imported here: the image's tests (tests/image) take these
 * too, and run the server in a container rather than in process.
 */

/**
 * What production mode requires of the App Store besides the tests' own settings: the StoreKit
 * TEST root stands in for Apple's, so production-mode tests can start a server at all.
 */
export const PRODUCTION_APP_STORE_TEST_ENV = {
  APPLE_BUNDLE_ID: 'com.guquan.app',
  APPLE_APP_APPLE_ID: '1234567890',
  APPLE_ENVIRONMENT: 'Production',
  APPLE_ROOT_CERTS_DIR: TEST_CHAIN_DIR,
} as const;

/**
 * The app's platform as production requires it to be named (config/platform-config.ts): nothing
 * listens there; a test that needs the platform starts a stand-in and sets its own.
 */
export const TEST_PLATFORM_ENV: Readonly<Record<string, string>> = {
  PLATFORM_WEBHOOK_SECRETS: `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
  PLATFORM_ISSUER: 'https://platform.example.com',
  PLATFORM_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json',
  PLATFORM_MEDIA_ORIGINS: 'http://127.0.0.1:9',
  PLATFORM_API_URL: 'http://127.0.0.1:9',
  PLATFORM_API_TOKEN: 'test-platform-api-token',
  PLATFORM_EVENTS_URL: 'http://127.0.0.1:9/events',
  PLATFORM_EVENTS_SECRET: `whsec_${Buffer.alloc(32, 8).toString('base64')}`,
};

/** The SMS provider settings production refuses to start without (never used to send in tests). */
export const TEST_SMS_ENV: Readonly<Record<string, string>> = {
  ALIYUN_SMS_ACCESS_KEY_ID: 'test-key-id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-key-secret',
  ALIYUN_SMS_SIGN_NAME: '谷圈',
  ALIYUN_SMS_TEMPLATE_CODE: 'SMS_000001',
  ALIYUN_SMS_TEMPLATE_ACCOUNT_DELETED: 'SMS_000002',
};

/** The phone key production refuses to start without (a fixed test key, never a real one). */
export const TEST_PHONE_ENV: Readonly<Record<string, string>> = {
  PHONE_ENCRYPTION_KEY: `test1:${Buffer.alloc(32, 7).toString('base64')}`,
};

/** The link domain's settings production refuses to start without (a test team and certificate). */
export const TEST_APP_LINKS_ENV: Readonly<Record<string, string>> = {
  LINK_ORIGIN: 'https://link.guquan.test',
  APPLE_TEAM_ID: 'TESTTEAM01',
  ANDROID_CERT_FINGERPRINTS: Array.from({ length: 32 }, (_, byte) =>
    byte.toString(16).padStart(2, '0').toUpperCase(),
  ).join(':'),
};

/** Every setting a production server refuses to start without, with the tests' values. */
export const TEST_PRODUCTION_ENV: Readonly<Record<string, string>> = {
  APP_MODE: 'production',
  PUBLIC_ORIGIN: 'https://www.example.com',
  ...PRODUCTION_APP_STORE_TEST_ENV,
  ...TEST_SMS_ENV,
  ...TEST_PHONE_ENV,
  ...TEST_APP_LINKS_ENV,
  ...TEST_PLATFORM_ENV,
};
