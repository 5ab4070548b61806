import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { sharePageKind } from '@guquan/contract/share-paths';
import {
  WECHAT_JS_CONFIG_PATH,
  weChatJsConfigRequestSchema,
  weChatJsConfigSchema,
} from '@guquan/contract/wechat';
import type { WeChatConfig } from '../config/wechat-config.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import type { JsapiTicketSource } from './credential-cache.ts';
import { jsapiSignature } from './jsapi-signature.ts';

export interface WeChatRoutesOptions {
  wechat: WeChatConfig;
  tickets: JsapiTicketSource;
  /** The site's public origin: only its own share pages are signed. */
  publicOrigin: string;
  now?: () => Date;
}

/** Signing is cheap for us but each miss may cost a call to WeChat: per address, per minute. */
const SIGNATURES_PER_MINUTE = 30;

/** Whether `url` is one of our share pages, on our origin, as a browser shows it. */
function isOwnSharePage(url: string, publicOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.origin === publicOrigin &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.hash === '' &&
    sharePageKind(parsed.pathname) !== undefined
  );
}

/**
 * POST the page's address, get its wx.config signature: for share pages opened inside WeChat.
 * Exists only when the WeChat settings are given. The answer is for one page and one moment, so
 * never cached; when WeChat cannot be asked, 503 and the page keeps its guide.
 */
export const weChatRoutes: FastifyPluginCallbackZod<WeChatRoutesOptions> = (
  app,
  { wechat, tickets, publicOrigin, now = () => new Date() },
  done,
) => {
  app.post(
    apiRoute(WECHAT_JS_CONFIG_PATH),
    {
      config: { rateLimit: { max: SIGNATURES_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        summary: "Signs wx.config (WeChat's JS-SDK) for one of the site's share pages",
        tags: ['wechat'],
        body: weChatJsConfigRequestSchema,
        response: {
          200: weChatJsConfigSchema,
          400: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { url } = request.body;
      if (!isOwnSharePage(url, publicOrigin))
        return sendApiError(
          reply,
          400,
          'invalid_url',
          "Only this site's share pages, without a fragment, are signed.",
        );
      let ticket: string;
      try {
        ticket = await tickets.jsapiTicket();
      } catch (error) {
        // The message names WeChat's errcode, never a credential.
        request.log.warn(
          { reason: error instanceof Error ? error.message : 'unknown' },
          'no WeChat jsapi ticket',
        );
        return sendApiError(reply, 503, 'wechat_unavailable', 'WeChat cannot be reached now.');
      }
      return reply.send({
        appId: wechat.appId,
        openAppId: wechat.openAppId,
        ...jsapiSignature(ticket, url, now()),
      });
    },
  );
  done();
};
