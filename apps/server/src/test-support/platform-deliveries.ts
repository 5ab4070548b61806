import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { PLATFORM_EVENTS_PATH } from '@guquan/contract/platform-events';
import { newWebhookId, signedHeaders as signed } from '../http/signed-deliveries.ts';
import { TEST_PLATFORM_ENV } from './test-app.ts';

/**
 * Signed deliveries of the platform's events for tests (Standard Webhooks, signed by
 * http/signed-deliveries.ts as every sender signs them), and events to send, with the
 * platform's ids (16 characters, the rule of every engine's branch).
 */
const SECRET = TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS ?? '';
/** The media origin of TEST_PLATFORM_ENV. */
export const TEST_MEDIA_ORIGIN = TEST_PLATFORM_ENV.PLATFORM_MEDIA_ORIGINS ?? '';

export interface SignOptions {
  secret?: string;
  webhookId?: string;
  /** When it was signed (now unless given). */
  at?: Date;
}

export function signedHeaders(body: string, options: SignOptions = {}): Record<string, string> {
  return signed(
    options.secret ?? SECRET,
    options.webhookId ?? newWebhookId(),
    body,
    options.at ?? new Date(),
  );
}

/** Sends `{ events }` (or a body as it is) signed to the app. */
export function deliver(
  app: FastifyInstance,
  events: unknown[] | string,
  options: SignOptions = {},
): Promise<LightMyRequestResponse> {
  const body = typeof events === 'string' ? events : JSON.stringify({ events });
  return app.inject({
    method: 'POST',
    url: PLATFORM_EVENTS_PATH,
    headers: signedHeaders(body, options),
    payload: body,
  });
}

/** A platform id of 16 characters: `pid('u', 1)` is `u000000000000001`. */
export function pid(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(16 - prefix.length, '0')}`;
}

export function testImage(name: string, width = 800, height = 600) {
  return { url: `${TEST_MEDIA_ORIGIN}/media/${name}.jpg`, width, height, alt: name };
}

const CREATED = '2026-11-01T08:00:00+08:00';

export function userEvent(id: string, version: number, data: Record<string, unknown> = {}) {
  return {
    type: 'user.upserted',
    data: {
      id,
      version,
      nickname: `user ${id.slice(-3)}`,
      avatar: testImage(`avatar-${id}`, 200, 200),
      phone: null,
      points: 0,
      deletionBlockers: [],
      ...data,
    },
  };
}

export function goodsEvent(
  id: string,
  version: number,
  ownerId: string,
  data: Record<string, unknown> = {},
) {
  return {
    type: 'goods.upserted',
    data: {
      id,
      version,
      ownerId,
      name: `goods ${id.slice(-3)} v${version}`,
      work: '咒术回战',
      character: '五条悟',
      category: '吧唧',
      priceFen: 3500,
      status: 'selling',
      visibility: 'public',
      images: [testImage(`goods-${id}`)],
      likes: 3,
      wants: 1,
      text: 'text',
      tags: ['tag'],
      createdAt: CREATED,
      ...data,
    },
  };
}

export function cabinetEvent(
  id: string,
  version: number,
  ownerId: string,
  goodsIds: string[],
  data: Record<string, unknown> = {},
) {
  return {
    type: 'cabinet.upserted',
    data: {
      id,
      version,
      ownerId,
      name: `cabinet ${id.slice(-3)}`,
      cover: testImage(`cover-${id}`),
      goodsIds,
      text: '',
      likes: 0,
      visibility: 'public',
      createdAt: CREATED,
      ...data,
    },
  };
}

export function noteEvent(
  id: string,
  version: number,
  authorId: string,
  commentAuthorIds: string[] = [],
  data: Record<string, unknown> = {},
) {
  return {
    type: 'note.upserted',
    data: {
      id,
      version,
      authorId,
      title: `note ${id.slice(-3)}`,
      text: 'a note',
      images: [testImage(`note-${id}`)],
      tags: [],
      likes: 5,
      collects: 2,
      comments: 42,
      topComments: commentAuthorIds.map((authorId, index) => ({
        id: pid(`c${id.slice(-3)}`, index + 1),
        authorId,
        text: `comment ${index + 1}`,
        likes: 10 - index,
        createdAt: CREATED,
      })),
      visibility: 'public',
      createdAt: CREATED,
      ...data,
    },
  };
}

export function designEvent(
  id: string,
  version: number,
  designerId: string,
  data: Record<string, unknown> = {},
) {
  return {
    type: 'design.upserted',
    data: {
      id,
      version,
      designerId,
      title: `design ${id.slice(-3)}`,
      preview: testImage(`design-${id}`),
      pricePoints: 100,
      available: true,
      ...data,
    },
  };
}

export function removal(
  type: 'goods.removed' | 'cabinet.removed' | 'note.removed' | 'design.removed' | 'user.deleted',
  id: string,
  version: number,
) {
  return { type, data: { id, version } };
}
