import type { PageHead } from '@guquan/contract/page-render';
import { escapeHtml } from '../http/html-escape.ts';

export interface HeadFacts {
  /** The page's title (already in the document's <title>). */
  title: string;
  /** The site's public origin, e.g. https://www.example.com: previews need absolute URLs. */
  origin: string;
  /** The page's path and query, for og:url. */
  url: string;
  /** The site's name for og:site_name. */
  siteName: string;
}

function meta(attribute: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
}

/** The robots directive of a page kept out of search engines (meta tag and X-Robots-Tag). */
export const NOINDEX = 'noindex, nofollow';

function link(rel: string, href: string, hreflang?: string): string {
  const language = hreflang === undefined ? '' : ` hreflang="${escapeHtml(hreflang)}"`;
  return `<link rel="${rel}"${language} href="${escapeHtml(href)}">`;
}

/**
 * The tags a page's head adds: robots, canonical and language alternates for search engines,
 * Safari's Smart App Banner, description, Open Graph and Twitter card for link previews (WeChat,
 * QQ and Weibo read og:*), and the preload of the largest image. Every value is escaped:
 * descriptions and alt texts come from users.
 */
export function headTags(head: PageHead, facts: HeadFacts): string {
  const tags: string[] = [];
  if (head.noindex) tags.push(meta('name', 'robots', NOINDEX));
  if (head.canonicalPath) tags.push(link('canonical', `${facts.origin}${head.canonicalPath}`));
  for (const alternate of head.alternates ?? [])
    tags.push(link('alternate', `${facts.origin}${alternate.path}`, alternate.hreflang));
  if (head.appBanner) {
    const { appId, appArgument } = head.appBanner;
    tags.push(meta('name', 'apple-itunes-app', `app-id=${appId}, app-argument=${appArgument}`));
  }
  if (head.description) {
    tags.push(meta('name', 'description', head.description));
    tags.push(meta('property', 'og:description', head.description));
    tags.push(meta('name', 'twitter:description', head.description));
  }
  if (head.ogType) {
    tags.push(meta('property', 'og:type', head.ogType));
    tags.push(meta('property', 'og:site_name', facts.siteName));
    tags.push(meta('property', 'og:title', head.previewTitle ?? facts.title));
    tags.push(meta('property', 'og:url', `${facts.origin}${facts.url}`));
    tags.push(meta('name', 'twitter:title', head.previewTitle ?? facts.title));
  }
  // A preview card makes a large card wherever a preview is shown (even a neutral one).
  if (head.ogType || head.image)
    tags.push(meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'));
  if (head.image) {
    const src = `${facts.origin}${head.image.path}`;
    tags.push(meta('property', 'og:image', src));
    tags.push(meta('property', 'og:image:width', String(head.image.width)));
    tags.push(meta('property', 'og:image:height', String(head.image.height)));
    if (head.image.alt) {
      tags.push(meta('property', 'og:image:alt', head.image.alt));
      tags.push(meta('name', 'twitter:image:alt', head.image.alt));
    }
    tags.push(meta('name', 'twitter:image', src));
  }
  if (head.preloadImage) {
    const { href, srcset, sizes } = head.preloadImage;
    tags.push(
      `<link rel="preload" as="image" href="${escapeHtml(href)}" imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(sizes)}" fetchpriority="high">`,
    );
  }
  return tags.join('');
}
