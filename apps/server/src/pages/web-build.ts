import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { PageRenderModule } from '@guquan/contract/page-render';

/** The parts of the web app's build the server uses, loaded once at start-up. */
export interface WebBuild {
  clientDir: string;
  assetsDir: string;
  /** index.html without its scripts and stylesheet links: each page brings its own. */
  template: string;
  /** The stylesheets index.html linked (the entry's), as asset file names (`assets/x.css`). */
  entryStyles: string[];
  /** Every stylesheet of the build, by asset file name. */
  styles: ReadonlyMap<string, string>;
  manifest: BuildManifest;
  renderer: PageRenderModule;
  /** Names this build: part of every rendered page's content version (ETag). */
  buildId: string;
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

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="[^"]*\/(assets\/[^"/]+\.css)"[^>]*>\s*/g;
// The entry script and its preloads: pages start the app themselves (see page-assets.ts).
const ENTRY_SCRIPT_TAGS =
  /<script type="module"[^>]*src="[^"]*"[^>]*><\/script>\s*|<link rel="modulepreload"[^>]*>\s*/g;

async function readStyles(assetsDir: string): Promise<Map<string, string>> {
  const styles = new Map<string, string>();
  for (const name of await readdir(assetsDir)) {
    if (!name.endsWith('.css')) continue;
    const css = await readFile(join(assetsDir, name), 'utf8');
    // Inlined into <style>: a stylesheet that could close the element stays a link.
    if (!/<\/style/i.test(css)) styles.set(`assets/${name}`, css);
  }
  return styles;
}

/** Every function of PageRenderModule: a new one must be listed here to be taken. */
const RENDERER_FUNCTIONS: Readonly<Record<keyof PageRenderModule, true>> = {
  renderPage: true,
  pagePath: true,
  clientClass: true,
  clientClassSamples: true,
  staticPagePaths: true,
  indexedPagePaths: true,
};

/** The server bundle's PageRenderModule functions (it exports more), each checked to be there. */
function rendererOf(module: Partial<PageRenderModule>, path: string): PageRenderModule {
  const names = Object.keys(RENDERER_FUNCTIONS) as (keyof PageRenderModule)[];
  const missing = names.filter((name) => typeof module[name] !== 'function');
  if (missing.length > 0) throw new Error(`${path} lacks ${missing.join(', ')}`);
  // Checked above: every name is there and a function.
  return Object.fromEntries(
    names.map((name) => [name, module[name]]),
  ) as unknown as PageRenderModule;
}

/** The files of a web build (`distDir`, apps/web/dist) that the server reads. */
export function webBuildFiles(distDir: string) {
  const clientDir = join(distDir, 'client');
  return {
    clientDir,
    assetsDir: join(clientDir, 'assets'),
    indexHtml: join(clientDir, 'index.html'),
    manifest: join(clientDir, '.vite', 'manifest.json'),
    renderer: join(distDir, 'server', 'entry-server.js'),
  };
}

export async function loadWebBuild(distDir: string): Promise<WebBuild> {
  const files = webBuildFiles(distDir);
  const { clientDir, assetsDir } = files;
  const rendererPath = files.renderer;
  try {
    const [html, manifestText, styles, rendererModule] = await Promise.all([
      readFile(files.indexHtml, 'utf8'),
      readFile(files.manifest, 'utf8'),
      readStyles(assetsDir),
      import(pathToFileURL(rendererPath).href) as Promise<Partial<PageRenderModule>>,
    ]);
    const renderer = rendererOf(rendererModule, rendererPath);
    const entryStyles: string[] = [];
    const template = html
      .replace(ENTRY_SCRIPT_TAGS, '')
      .replace(STYLESHEET_LINK, (link, file: string) => {
        if (!styles.has(file)) return link;
        entryStyles.push(file);
        return '';
      });
    return {
      clientDir,
      assetsDir,
      template,
      entryStyles,
      styles,
      manifest: manifestSchema.parse(JSON.parse(manifestText)),
      renderer,
      // index.html names every entry chunk by its hash; the manifest names all the others.
      buildId: createHash('sha256')
        .update(html)
        .update(manifestText)
        .digest('base64url')
        .slice(0, 16),
    };
  } catch (cause) {
    throw new WebBuildMissingError(
      `The web app's build is missing or incomplete in ${distDir}: run \`npm run build\` first.`,
      { cause },
    );
  }
}
