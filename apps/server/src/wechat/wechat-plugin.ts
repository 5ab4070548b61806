import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { WeChatConfig } from '../config/wechat-config.ts';
import type { Db } from '../db/database.ts';
import { credentialCache } from './credential-cache.ts';
import { weChatApi } from './wechat-api.ts';
import { weChatRoutes } from './wechat-routes.ts';

/**
 * WeChat's JS-SDK signature (docs/decisions/0012-wechat.md), with the tokens shared by the
 * servers. Exists only with the WeChat settings.
 */
export async function registerWeChat(
  app: FastifyInstance,
  { db, wechat, publicOrigin }: { db: Db; wechat: WeChatConfig | null; publicOrigin: string },
): Promise<void> {
  if (!wechat) return;
  const tickets = credentialCache({ db, api: weChatApi(wechat), appId: wechat.appId });
  await app.register(weChatRoutes, { prefix: API_BASE_PATH, wechat, tickets, publicOrigin });
}
