import { createReadStream } from 'node:fs';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicIdSchema } from '@guquan/contract/share';
import { IMAGE_WIDTHS, MEDIA_PATH, type ImageWidth } from '@guquan/contract/share-paths';
import { sendApiError } from '../http/api-error.ts';
import { PUBLIC_REFUSAL_CACHE_CONTROL, sendVersioned } from '../http/shared-caches.ts';
import type { StoredImage } from './media-repository.ts';
import type { PlaceholderImages } from './placeholder-image.ts';
import type { ResizedImages } from './resized-images.ts';

export interface MediaRoutesOptions {
  /** The image with this public id if anybody may see it. */
  findImage: (publicId: string) => Promise<StoredImage | undefined>;
  resized: ResizedImages;
  /** What an image not here yet is answered with (placeholder-image.ts). */
  placeholders: PlaceholderImages;
}

// Both segments are checked by pattern before anything touches the disk: no path can come of them.
const mediaParamsSchema = z.object({
  imageId: publicIdSchema,
  file: z.string().regex(/^[1-9]\d{1,3}\.webp$/),
});

const WIDTHS = new Set<number>(IMAGE_WIDTHS);
function isImageWidth(width: number): width is ImageWidth {
  return WIDTHS.has(width);
}

const NOT_FOUND_MESSAGE = 'There is no such image.';

/**
 * Images at the fixed widths of the contract, as WebP. A URL names one version of an image for
 * good (an image never changes under its id): a versioned address (http/shared-caches.ts), which
 * browsers keep a year and shared caches a few seconds, because whether anybody may see it
 * changes (its item made private or removed, its owner leaving), checked on every request.
 */
export const mediaRoutes: FastifyPluginCallbackZod<MediaRoutesOptions> = (
  app,
  { findImage, resized, placeholders },
  done,
) => {
  app.get(
    `${MEDIA_PATH}/:imageId/:file`,
    {
      schema: { params: mediaParamsSchema, hide: true },
      attachValidation: true,
      // WebP is already compressed; compressing it again only costs time.
      compress: false,
    },
    async (request, reply) => {
      if (request.validationError) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      const width = Number.parseInt(request.params.file, 10);
      if (!isImageWidth(width)) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      const image = await findImage(request.params.imageId);
      if (!image) return sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE);
      // Still coming from the platform (or refused by the fetcher), or its original not on this
      // server and its host not answering now: a page that already holds the address gets the
      // placeholder, never a broken image, and nobody keeps it: the image itself follows at the
      // same address once it is here.
      const placeholder = async () =>
        reply
          .header('cache-control', PUBLIC_REFUSAL_CACHE_CONTROL)
          .type('image/webp')
          .send(await placeholders.get(image, width));
      if (!image.ready) return placeholder();
      // The bytes under an id and width never change: the address is the version.
      if (sendVersioned(request, reply, `W/"${image.publicId}-${width}"`)) return reply;
      const resizedImage = await resized.get(image, width);
      if (resizedImage.kind === 'missing') {
        reply.removeHeader('etag');
        return placeholder();
      }
      reply.type('image/webp');
      if (resizedImage.kind === 'bytes') return reply.send(resizedImage.bytes);
      return reply
        .header('content-length', resizedImage.size)
        .send(createReadStream(resizedImage.path));
    },
  );
  // Anything else under the media path is no image: the JSON 404, not the not-found page.
  const noImage = { schema: { hide: true }, compress: false as const };
  app.get(MEDIA_PATH, noImage, (_request, reply) =>
    sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE),
  );
  app.get(`${MEDIA_PATH}/*`, noImage, (_request, reply) =>
    sendApiError(reply, 404, 'not_found', NOT_FOUND_MESSAGE),
  );
  done();
};
