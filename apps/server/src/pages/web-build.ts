import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { PageRenderModule } from '@guquan/contract/page-render';

/** The parts of the web app's build the server uses, loaded once at start-up. */
export interface WebBuild {
  clientDir: string;
  assetsDir: string;
  template: string;
  manifest: BuildManifest;
  renderer: PageRenderModule;
}

const manifestChunkSchema = z.object({
  file: z.string(),
  src: z.string().optional(),
  isEntry: z.boolean().optional(),
  imports: z.array(z.string()).optional(),
  css: z.array(z.string()).optional(),
});
const manifestSchema = z.record(z.string(), manifestChunkSchema);
export type BuildManifest = z.infer<typeof manifestSchema>;

export class WebBuildMissingError extends Error {
  override name = 'WebBuildMissingError';
}

export async function loadWebBuild(distDir: string): Promise<WebBuild> {
  const clientDir = join(distDir, 'client');
  const rendererPath = join(distDir, 'server', 'entry-server.js');
  try {
    const [template, manifestText, rendererModule] = await Promise.all([
      readFile(join(clientDir, 'index.html'), 'utf8'),
      readFile(join(clientDir, '.vite', 'manifest.json'), 'utf8'),
      import(pathToFileURL(rendererPath).href) as Promise<Partial<PageRenderModule>>,
    ]);
    const { renderPage } = rendererModule;
    if (typeof renderPage !== 'function') throw new Error(`${rendererPath} has no renderPage`);
    return {
      clientDir,
      assetsDir: join(clientDir, 'assets'),
      template,
      manifest: manifestSchema.parse(JSON.parse(manifestText)),
      renderer: { renderPage },
    };
  } catch (cause) {
    throw new WebBuildMissingError(
      `The web app's build is missing or incomplete in ${distDir}: run \`npm run build\` first.`,
      { cause },
    );
  }
}
