import { describe, expect, it } from 'vitest';
import { aliyunPhoneNumber, aliyunSmsSender, signAliyunQuery, SmsSendError } from './sms-sender.ts';

describe('signAliyunQuery', () => {
  it('signs as Aliyun documents it (the example of its signature version 1.0)', () => {
    const query = signAliyunQuery(
      {
        AccessKeyId: 'testid',
        Action: 'DescribeRegions',
        Format: 'XML',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
        SignatureVersion: '1.0',
        Timestamp: '2016-02-23T12:46:24Z',
        Version: '2014-05-26',
      },
      'testsecret',
    );
    expect(query).toMatch(/^Signature=OLeaidS1JvxuMvnyHOwuJ%2BuX5qY%3D&AccessKeyId=testid&/);
  });
});

describe('the Aliyun SMS sender', () => {
  it('the Aliyun sender calls SendSms with the code and fails clearly on a refusal', async () => {
    const urls: string[] = [];
    let answer: unknown = { Code: 'OK' };
    const fetchStub = ((url: string) => {
      urls.push(url);
      return Promise.resolve(new Response(JSON.stringify(answer)));
    }) as typeof fetch;
    const sender = aliyunSmsSender(
      {
        accessKeyId: 'id',
        accessKeySecret: 'secret',
        signName: '谷圈',
        codeTemplate: 'SMS_1',
        deletedTemplate: 'SMS_2',
        endpoint: 'https://dysmsapi.aliyuncs.com',
      },
      fetchStub,
    );
    await sender.send({ kind: 'verification_code', phone: '+8613800000001', code: '654321' });
    const params = new URL(urls[0] ?? '').searchParams;
    expect(params.get('Action')).toBe('SendSms');
    expect(params.get('PhoneNumbers')).toBe('13800000001');
    expect(params.get('TemplateCode')).toBe('SMS_1');
    expect(params.get('TemplateParam')).toBe('{"code":"654321"}');
    expect(params.get('Signature')).toBeTruthy();
    answer = { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'limited' };
    await expect(sender.send({ kind: 'account_deleted', phone: '+8613800000001' })).rejects.toThrow(
      SmsSendError,
    );
  });
});

describe("a number as Aliyun's SendSms takes it", () => {
  it('the platform sends E.164: mainland without +86, others with their country code', () => {
    expect(aliyunPhoneNumber('+8613800000001')).toBe('13800000001');
    expect(aliyunPhoneNumber('+85212345678')).toBe('85212345678');
    expect(aliyunPhoneNumber('+447911123456')).toBe('447911123456');
  });
});
