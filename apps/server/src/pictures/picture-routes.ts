import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { pickLanguage, type Language } from '@guquan/contract/language';
import { posterApiPath, posterSchema } from '@guquan/contract/poster';
import { publicIdSchema, type ShareItems } from '@guquan/contract/share';
import {
  parseShareId,
  SHARE_FAILURES,
  SHARE_KINDS,
  type ShareKind,
} from '@guquan/contract/share-paths';
import {
  PICTURE_SIZES,
  PICTURES_PATH,
  cardContent,
  neutralContent,
  parsePictureFile,
  pictureAlt,
  pictureUrl,
  pictureVersion,
  posterContent,
  squareContent,
  type PictureContent,
  type PictureFile,
  type PictureName,
} from '@guquan/contract/share-pictures';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { VERSIONED_PICTURE_CACHE_CONTROL } from '../pages/page-cache-policy.ts';
import type { ShareReader } from '../shares/share-reader.ts';
import { drawPicture, type PhotoSource } from './picture-drawing.ts';
import { PhotoUnavailable } from './photo-unavailable.ts';
import type { PictureFonts } from './picture-fonts.ts';
import type { PictureStore } from './picture-store.ts';
import { RenderQueueFull, type RenderQueue } from './render-queue.ts';

export interface PictureRoutesOptions {
  /** Reads the item a picture shows (reused for a second: recent-share-reads.ts). */
  shares: ShareReader;
  store: PictureStore;
  queue: RenderQueue;
  /** The font, loaded on the first drawing. */
  fonts: () => PictureFonts;
  photos: PhotoSource;
  /** The item's Universal Link, for the poster's QR code. */
  link: (kind: ShareKind, id: string) => string;
  /** Drawings one client may start per minute (pictures already made are not counted). */
  drawingsPerMinute: number;
}

const pictureParamsSchema = z.object({
  kind: z.enum(SHARE_KINDS),
  id: publicIdSchema,
  file: z.string().max(64),
});
const neutralParamsSchema = z.object({ file: z.string().max(64) });

const NOT_FOUND_MESSAGE = 'There is no such picture.';

/** What each picture of an item shows now; a poster's QR code holds the item's link. */
const CONTENTS: {
  readonly [P in PictureName]: <K extends ShareKind>(
    kind: K,
    item: ShareItems[K],
    language: Language,
    link: () => string,
  ) => PictureContent;
} = {
  card: (kind, item, language) => cardContent(kind, item, language),
  poster: (kind, item, language, link) => posterContent(kind, item, language, link()),
  square: (kind, item) => squareContent(kind, item),
};

/**
 * What the picture of this address shows now, or undefined when the address is not current: the
 * item is not public (any more), or it changed since (the version differs), or it never was.
 */
async function currentContent(
  options: PictureRoutesOptions,
  kind: ShareKind,
  id: string,
  file: PictureFile,
): Promise<PictureContent | undefined> {
  const result = await options.shares.read(kind, parseShareId(id));
  if (result.state !== 'ok') return undefined;
  const content = CONTENTS[file.picture](kind, result.item, file.language ?? 'zh-CN', () =>
    options.link(kind, id),
  );
  // A square of an item without pictures is the neutral square, at its own address.
  if (content.kind === 'neutral') return undefined;
  return pictureVersion(content) === file.version ? content : undefined;
}

function currentNeutral(file: PictureFile): PictureContent | undefined {
  if (file.picture === 'poster') return undefined;
  const content = neutralContent(file.picture, file.picture === 'card' ? file.language : null);
  return pictureVersion(content) === file.version ? content : undefined;
}

function send(reply: FastifyReply, picture: Buffer, version: string): FastifyReply {
  return reply
    .type('image/jpeg')
    .header('cache-control', VERSIONED_PICTURE_CACHE_CONTROL)
    .header('etag', `"${version}"`)
    .header('content-length', picture.length)
    .send(picture);
}

/**
 * Preview cards, posters and WeChat squares (docs/decisions/0019-share-pictures.md), at addresses
 * that carry the hash of what they show. Each request checks that its address is the item's
 * current one (public, same content) before anything is sent, so a picture stops being served
 * within a second of a change. A picture made before is sent from memory or disk; a new one is drawn once
 * per server at a time, in the render queue, and counts against the client's drawings per minute.
 */
export const pictureRoutes: FastifyPluginCallbackZod<PictureRoutesOptions> = (
  app,
  options,
  done,
) => {
  const drawingLimit = app.createRateLimit({
    max: options.drawingsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `pictures:${request.ip}`,
  });

  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    content: PictureContent,
    version: string,
  ): Promise<FastifyReply> {
    if (request.headers['if-none-match'] === `"${version}"`) {
      return reply
        .code(304)
        .header('cache-control', VERSIONED_PICTURE_CACHE_CONTROL)
        .header('etag', `"${version}"`)
        .send();
    }
    const kept = await options.store.find(name);
    if (kept) return send(reply, kept, version);
    if (!options.store.drawing(name)) {
      const limit = await drawingLimit(request);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header('retry-after', String(limit.ttlInSeconds));
        return sendApiError(
          reply,
          429,
          'too_many_requests',
          'Too many new pictures; try again soon.',
        );
      }
    }
    let made: Buffer;
    try {
      made = await options.store.make(name, () =>
        options.queue.run(() => drawPicture(content, options.fonts(), options.photos)),
      );
    } catch (error) {
      if (error instanceof PhotoUnavailable) {
        reply.header('retry-after', '5');
        return sendApiError(
          reply,
          503,
          'service_unavailable',
          'A photo of this picture cannot be had now; try again soon.',
        );
      }
      if (!(error instanceof RenderQueueFull)) throw error;
      reply.header('retry-after', '1');
      return sendApiError(
        reply,
        503,
        'busy',
        'The server is drawing many pictures; try again soon.',
      );
    }
    return send(reply, made, version);
  }

  const hidden = { hide: true } as const;
  app.get(
    `${PICTURES_PATH}/neutral/:file`,
    { schema: { params: neutralParamsSchema, ...hidden }, attachValidation: true, compress: false },
    async (request, reply) => {
      const file = request.validationError ? undefined : parsePictureFile(request.params.file);
      const content = file && currentNeutral(file);
      if (!file || !content) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      return serve(request, reply, `neutral/${request.params.file}`, content, file.version);
    },
  );
  app.get(
    `${PICTURES_PATH}/:kind/:id/:file`,
    { schema: { params: pictureParamsSchema, ...hidden }, attachValidation: true, compress: false },
    async (request, reply) => {
      if (request.validationError) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      const { kind, id } = request.params;
      const file = parsePictureFile(request.params.file);
      const content = file && (await currentContent(options, kind, id, file));
      if (!file || !content) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      return serve(request, reply, `${kind}/${id}/${request.params.file}`, content, file.version);
    },
  );
  // Anything else under the pictures' path is no picture: the JSON 404, not the not-found page.
  const noPicture = { schema: hidden, compress: false as const };
  app.get(PICTURES_PATH, noPicture, (_request, reply) =>
    sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE),
  );
  app.get(`${PICTURES_PATH}/*`, noPicture, (_request, reply) =>
    sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE),
  );
  done();
};

export interface PosterRoutesOptions {
  shares: ShareReader;
  link: (kind: ShareKind, id: string) => string;
}

// Only `lang` is read; anything else, or a language we do not have, gives the default.
const posterQuerySchema = z.looseObject({ lang: z.unknown().optional() });

/**
 * GET the address of an item's current poster, for the share page's 分享海报 (only the server can
 * name it: the QR code's link is its setting). Under the API prefix; the same failures as the
 * item itself.
 */
export const posterRoutes: FastifyPluginCallbackZod<PosterRoutesOptions> = (
  app,
  { shares, link },
  done,
) => {
  for (const kind of SHARE_KINDS) {
    app.get(
      apiRoute(posterApiPath(kind)),
      {
        schema: {
          summary: `The current poster of a ${kind}: address, size, alt text`,
          tags: ['shares'],
          params: z.object({ id: publicIdSchema }),
          querystring: posterQuerySchema,
          response: {
            200: posterSchema,
            ...Object.fromEntries(
              Object.values(SHARE_FAILURES).map((status) => [status, apiErrorSchema]),
            ),
          },
        },
        attachValidation: true,
      },
      async (request, reply) => {
        const rawId = (request.params as { id?: unknown }).id;
        const query = request.query as { lang?: unknown };
        const language: Language = pickLanguage(
          typeof query.lang === 'string' ? query.lang : null,
          [],
        );
        const result = await shares.read(kind, parseShareId(rawId));
        if (result.state !== 'ok') {
          return sendApiError(
            reply,
            SHARE_FAILURES[result.state],
            result.state,
            'This share has no poster.',
          );
        }
        const content = posterContent(kind, result.item, language, link(kind, result.item.id));
        return reply.header('cache-control', 'no-cache').send({
          url: pictureUrl(content),
          ...PICTURE_SIZES.poster,
          alt: pictureAlt(content),
        });
      },
    );
  }
  done();
};
