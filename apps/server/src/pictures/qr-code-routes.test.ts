import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { universalLink } from '@guquan/contract/app-link-paths';
import { APP_QR_CODE_PATH, QR_CODES_PATH, shareQrCodePath } from '@guquan/contract/qr-codes';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { decodeQrCodes } from '../test-support/pictures.ts';

vi.setConfig({ testTimeout: 60_000 });

const LINK_ORIGIN = 'https://link.guquan.test';

/** What a phone's camera reads off the SVG the server sends. */
async function scan(svg: Buffer): Promise<string[]> {
  return decodeQrCodes(await sharp(svg).resize(400).png().toBuffer());
}

describe('the QR codes of "scan to open on your phone"', () => {
  let app: FastifyInstance;
  let removeDir: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const temp = await makeTempDataDir();
    removeDir = temp.remove;
    app = await buildTestApp({ DATA_DIR: temp.dataDir, LINK_ORIGIN });
  });
  afterAll(async () => {
    await app.close();
    await removeDir();
  });

  it("holds an item's Universal Link, as an SVG image that runs nothing", async () => {
    const id = DEMO_IDS.goods.gallery;
    const res = await app.inject({ url: shareQrCodePath('goods', id) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['cache-control']).toMatch(/^public, max-age=3600, s-maxage=1\b/);
    expect(res.payload).not.toMatch(/<script|href=/i);
    expect(await scan(res.rawPayload)).toEqual([universalLink(LINK_ORIGIN, { kind: 'goods', id })]);
  });

  it('holds the Universal Link of any kind and of the app', async () => {
    const note = await app.inject({ url: shareQrCodePath('note', DEMO_IDS.notes.rich) });
    expect(await scan(note.rawPayload)).toEqual([
      universalLink(LINK_ORIGIN, { kind: 'note', id: DEMO_IDS.notes.rich }),
    ]);
    const appCode = await app.inject({ url: APP_QR_CODE_PATH });
    expect(appCode.statusCode).toBe(200);
    expect(await scan(appCode.rawPayload)).toEqual([universalLink(LINK_ORIGIN, null)]);
  });

  it('answers 304 to the ETag it gave', async () => {
    const url = shareQrCodePath('cabinet', DEMO_IDS.cabinets.main);
    const first = await app.inject({ url });
    const again = await app.inject({
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
  });

  it('draws nothing but a kind and an id it accepts: no URL, no other kind, no bad id', async () => {
    for (const path of [
      `${QR_CODES_PATH}/user/abc.svg`,
      `${QR_CODES_PATH}/goods/abc.png`,
      `${QR_CODES_PATH}/goods/abc`,
      `${QR_CODES_PATH}/goods/a%2Fb.svg`,
      `${QR_CODES_PATH}/goods/https%3A%2F%2Fevil.example.svg`,
      `${QR_CODES_PATH}/goods/${'a'.repeat(65)}.svg`,
      `${QR_CODES_PATH}/goods/.svg`,
      `${QR_CODES_PATH}/url.svg`,
      `${QR_CODES_PATH}/goods/abc/def.svg`,
    ]) {
      const res = await app.inject({ url: path });
      expect(res.statusCode, path).toBe(404);
      expect(apiErrorSchema.parse(res.json()).error.code, path).toBe('not_found');
    }
    // A query is no way in either: the code is the item's link whatever else the address says.
    const res = await app.inject({
      url: `${shareQrCodePath('goods', 'abc')}?url=https://evil.example`,
    });
    expect(await scan(res.rawPayload)).toEqual([
      universalLink(LINK_ORIGIN, { kind: 'goods', id: 'abc' }),
    ]);
  });
});
