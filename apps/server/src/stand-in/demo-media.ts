import { access, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { sendApiError } from '../http/api-error.ts';
import { drawDemoPicture, type PictureSpec } from '../demo/seed/demo-images.ts';
import { demoPictures } from './demo-community.ts';
import type { StandInRoutes } from './stand-in-context.ts';

/**
 * The stand-in platform's media origin: the demo pictures (demo/seed/demo-images.ts) served at
 * `GET /media/<name>` for the site to fetch as it fetches the platform's images. Each is drawn
 * the first time it is asked for and kept in the stand-in's folder from then on.
 */

export const DEMO_MEDIA_PATH = '/media';

/** Where the pictures are kept: one folder per scale, so a smaller drawing never stands in. */
export function demoMediaDir(dataDir: string, imageScale: number): string {
  return join(dataDir, 'stand-in', imageScale === 1 ? 'media' : `media-${imageScale}`);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * The demo pictures of one folder: each drawn once as WebP (written aside and renamed, so a
 * drawing cut short leaves no half a file), however many ask for it at the same time.
 */
export function demoPictureFiles(dir: string, imageScale: number) {
  const drawing = new Map<string, Promise<string>>();
  const draw = async (name: string, spec: PictureSpec): Promise<string> => {
    const path = join(dir, name);
    if (await exists(path)) return path;
    await mkdir(dir, { recursive: true });
    const { svg } = drawDemoPicture(spec, imageScale);
    // Effort 0: the flat drawings lose nothing by it, and drawing takes a third of the time.
    await sharp(Buffer.from(svg)).webp({ quality: 90, effort: 0 }).toFile(`${path}.drawing`);
    await rename(`${path}.drawing`, path);
    return path;
  };
  return {
    /** The file of the picture `name`, drawn if need be. */
    async file(name: string, spec: PictureSpec): Promise<string> {
      let pending = drawing.get(name);
      if (!pending) {
        pending = draw(name, spec).finally(() => drawing.delete(name));
        drawing.set(name, pending);
      }
      return pending;
    },
  };
}

/** `GET /media/<name>`: a demo picture's bytes, or 404 in the error shape for any other name. */
export const demoMediaRoutes: StandInRoutes = (app, { dataDir, imageScale }, done) => {
  const pictures = new Map(demoPictures().map((picture) => [picture.name, picture.spec]));
  const files = demoPictureFiles(demoMediaDir(dataDir, imageScale), imageScale);
  app.get<{ Params: { name: string } }>(`${DEMO_MEDIA_PATH}/:name`, async (request, reply) => {
    const { name } = request.params;
    const spec = pictures.get(name);
    if (!spec) return sendApiError(reply, 404, 'not_found', 'No such picture.');
    const bytes = await readFile(await files.file(name, spec));
    // The name is the picture: it never changes under it.
    return reply
      .type('image/webp')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(bytes);
  });
  done();
};
