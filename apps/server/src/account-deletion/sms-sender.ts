import { createHmac, randomUUID } from 'node:crypto';
import type { AliyunSmsConfig } from '../config/sms-config.ts';

/**
 * Sends the texts of account deletion. Production sends through Aliyun SMS (the processor the
 * privacy policy names, 7.1); demo mode never sends (its stand-in is demo/demo-sms-sender.ts).
 */
export type SmsMessage =
  | { kind: 'verification_code'; phone: string; code: string }
  | { kind: 'account_deleted'; phone: string };

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export class SmsSendError extends Error {
  override name = 'SmsSendError';
}

/** RFC 3986 percent-encoding, as Aliyun's signature version 1.0 wants it. */
function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The signed query of an Aliyun RPC call (signature version 1.0, HMAC-SHA1, GET). */
export function signAliyunQuery(params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key] ?? '')}`)
    .join('&');
  const stringToSign = `GET&${percentEncode('/')}&${percentEncode(canonical)}`;
  const signature = createHmac('sha1', `${accessKeySecret}&`).update(stringToSign).digest('base64');
  return `Signature=${percentEncode(signature)}&${canonical}`;
}

/**
 * A number as Aliyun's SendSms takes it: a mainland number without its country code
 * (13800000001), any other with its country code and no plus (85212345678). The site keeps
 * numbers as the platform sends them, in E.164 (+8613800000001).
 */
export function aliyunPhoneNumber(phone: string): string {
  const digits = phone.startsWith('+') ? phone.slice(1) : phone;
  return /^861\d{10}$/.test(digits) ? digits.slice(2) : digits;
}

/** Aliyun Dysms SendSms (https://help.aliyun.com/document_detail/419273.html). */
export function aliyunSmsSender(
  config: AliyunSmsConfig,
  fetchImpl: typeof fetch = fetch,
): SmsSender {
  return {
    async send(message) {
      const template =
        message.kind === 'verification_code' ? config.codeTemplate : config.deletedTemplate;
      const params: Record<string, string> = {
        AccessKeyId: config.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: aliyunPhoneNumber(message.phone),
        RegionId: 'cn-hangzhou',
        SignName: config.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: template,
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
        ...(message.kind === 'verification_code'
          ? { TemplateParam: JSON.stringify({ code: message.code }) }
          : {}),
      };
      let body: { Code?: string; Message?: string };
      try {
        const response = await fetchImpl(
          `${config.endpoint}/?${signAliyunQuery(params, config.accessKeySecret)}`,
          { signal: AbortSignal.timeout(10_000) },
        );
        body = (await response.json()) as { Code?: string; Message?: string };
      } catch (error) {
        throw new SmsSendError('The SMS provider could not be reached', { cause: error });
      }
      if (body.Code !== 'OK') {
        throw new SmsSendError(
          `The SMS provider refused: ${body.Code ?? '?'} ${body.Message ?? ''}`,
        );
      }
    },
  };
}
