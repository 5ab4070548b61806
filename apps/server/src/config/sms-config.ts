/**
 * The SMS provider's configuration. Production refuses to start without it (the deletion codes
 * must really reach the phone); demo mode never sends a text and ignores it.
 */
const SMS_ENV_VARS = [
  'ALIYUN_SMS_ACCESS_KEY_ID',
  'ALIYUN_SMS_ACCESS_KEY_SECRET',
  'ALIYUN_SMS_SIGN_NAME',
  'ALIYUN_SMS_TEMPLATE_CODE',
  'ALIYUN_SMS_TEMPLATE_ACCOUNT_DELETED',
] as const;

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** Template with a ${code} parameter: the verification code. */
  codeTemplate: string;
  /** Template without parameters: "your account has been deleted". */
  deletedTemplate: string;
  endpoint: string;
}

const DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com';

export function readSmsConfig(
  env: Record<string, string | undefined>,
  mode: 'demo' | 'production',
): { config: AliyunSmsConfig | null; problems: string[] } {
  if (mode === 'demo') return { config: null, problems: [] };
  const missing = SMS_ENV_VARS.filter((name) => !env[name]?.trim());
  const endpoint = env.ALIYUN_SMS_ENDPOINT ?? DEFAULT_ENDPOINT;
  const problems = missing.map(
    (name) => `  ${name}: required in production (Aliyun SMS sends the account deletion codes)`,
  );
  if (!endpoint.startsWith('https://')) {
    problems.push('  ALIYUN_SMS_ENDPOINT: must be an https:// URL');
  }
  if (problems.length > 0) return { config: null, problems };
  const value = (name: (typeof SMS_ENV_VARS)[number]) => env[name]?.trim() ?? '';
  return {
    config: {
      accessKeyId: value('ALIYUN_SMS_ACCESS_KEY_ID'),
      accessKeySecret: value('ALIYUN_SMS_ACCESS_KEY_SECRET'),
      signName: value('ALIYUN_SMS_SIGN_NAME'),
      codeTemplate: value('ALIYUN_SMS_TEMPLATE_CODE'),
      deletedTemplate: value('ALIYUN_SMS_TEMPLATE_ACCOUNT_DELETED'),
      endpoint: endpoint.replace(/\/+$/, ''),
    },
    problems: [],
  };
}
