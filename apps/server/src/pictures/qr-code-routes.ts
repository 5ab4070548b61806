import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppTarget } from '@guquan/contract/app-link-paths';
import { APP_QR_CODE_PATH, QR_CODES_PATH } from '@guquan/contract/qr-codes';
import { PUBLIC_ID_PATTERN, SHARE_KINDS } from '@guquan/contract/share-paths';
import { sendApiError } from '../http/api-error.ts';
import { SHARE_FRESH_SECONDS, SHARE_STALE_SECONDS } from '../pages/page-cache-policy.ts';
import { qrCodeSvg } from './picture-drawing.ts';

export interface QrCodeRoutesOptions {
  /** The Universal Link of an item, or of the app (null): what the QR code holds. */
  link: (target: AppTarget) => string;
}

/** The side the SVG is drawn at; the page scales it (viewBox), whole-pixel modules at this size. */
const QR_SVG_SIZE = 330;

/**
 * The link domain is a setting, so the same address may draw another code after a change:
 * browsers keep it an hour, shared caches as long as anything else
 * (docs/decisions/0013-shared-caches-five-seconds.md), with an ETag.
 */
const QR_CODE_CACHE_CONTROL = `public, max-age=3600, s-maxage=${SHARE_FRESH_SECONDS}, stale-while-revalidate=${SHARE_STALE_SECONDS}`;

/** An SVG opened on its own runs nothing and loads nothing. */
const QR_CODE_CSP = "default-src 'none'; frame-ancestors 'none'";

const ID_FILE_PATTERN = new RegExp(`^(${PUBLIC_ID_PATTERN.source.slice(1, -1)})\\.svg$`);

const shareQrParamsSchema = z.object({
  kind: z.enum(SHARE_KINDS),
  file: z.string().max(80).regex(ID_FILE_PATTERN),
});

const NOT_FOUND_MESSAGE = 'There is no such QR code.';

function sendSvg(request: FastifyRequest, reply: FastifyReply, link: string): FastifyReply {
  const svg = qrCodeSvg(link, QR_SVG_SIZE);
  const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"`;
  reply
    .header('cache-control', QR_CODE_CACHE_CONTROL)
    .header('etag', etag)
    .header('content-security-policy', QR_CODE_CSP)
    .header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('image/svg+xml; charset=utf-8').send(svg);
}

/**
 * "Scan to open on your phone" (qr-codes.ts in the contract): the QR code of an item's Universal
 * Link, `/pictures/qr/<kind>/<id>.svg`, and of the app's, `/pictures/qr/app.svg`. Only a kind and
 * an id the share pages accept (zod) make an address: no URL is ever taken from the request, so a
 * code can hold nothing but this site's own links. The item is not read: its page says whether
 * it can be seen, as it does for anyone who types the address.
 */
export const qrCodeRoutes: FastifyPluginCallbackZod<QrCodeRoutesOptions> = (
  app,
  { link },
  done,
) => {
  const hidden = { hide: true } as const;
  app.get(APP_QR_CODE_PATH, { schema: hidden }, (request, reply) =>
    sendSvg(request, reply, link(null)),
  );
  app.get(
    `${QR_CODES_PATH}/:kind/:file`,
    { schema: { params: shareQrParamsSchema, ...hidden }, attachValidation: true },
    (request, reply) => {
      const id = request.validationError
        ? undefined
        : ID_FILE_PATTERN.exec(request.params.file)?.[1];
      if (id === undefined) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      return sendSvg(request, reply, link({ kind: request.params.kind, id }));
    },
  );
  done();
};
