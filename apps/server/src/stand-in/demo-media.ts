import { access, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { sendApiError } from '../http/api-error.ts';
import { drawDemoPicture } from '../demo/seed/demo-images.ts';
import { demoPictures } from './demo-community.ts';

/**
 * The stand-in platform's media origin: the demo pictures (demo/seed/demo-images.ts) drawn once
 * into the stand-in's own folder, and served at `GET /media/<name>` for the site to fetch as it
 * fetches the platform's images.
 */

export const DEMO_MEDIA_PATH = '/media';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Draws every demo picture that `dir` does not have yet, as WebP (each written aside and renamed,
 * so a drawing cut short leaves no half a file). Answers how many it drew.
 */
export async function drawDemoMedia(dir: string, imageScale = 1): Promise<number> {
  await mkdir(dir, { recursive: true });
  const drawn = await Promise.all(
    demoPictures().map(async ({ name, spec }) => {
      const path = join(dir, name);
      if (await exists(path)) return 0;
      const { svg } = drawDemoPicture(spec, imageScale);
      // Effort 0: the flat drawings lose nothing by it, and drawing takes a third of the time.
      await sharp(Buffer.from(svg)).webp({ quality: 90, effort: 0 }).toFile(`${path}.drawing`);
      await rename(`${path}.drawing`, path);
      return 1;
    }),
  );
  return drawn.reduce<number>((sum, one) => sum + one, 0);
}

/** `GET /media/<name>`: a demo picture's bytes, or 404 for any other name. */
export function registerDemoMedia(app: FastifyInstance, { dir }: { dir: string }): void {
  const names = new Set(demoPictures().map((picture) => picture.name));
  app.get<{ Params: { name: string } }>(`${DEMO_MEDIA_PATH}/:name`, async (request, reply) => {
    const { name } = request.params;
    if (!names.has(name)) return sendApiError(reply, 404, 'not_found', 'No such picture.');
    const bytes = await readFile(join(dir, name));
    // The name is the picture: it never changes under it.
    return reply
      .type('image/webp')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(bytes);
  });
}
