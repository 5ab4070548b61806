import type { Language } from '@guquan/contract/language';
import type { PageHead } from '@guquan/contract/page-render';
import type { Image, ShareItems } from '@guquan/contract/share';
import { imageUrl, type ShareKind } from '@guquan/contract/share-paths';
import { pluralText } from '../../lib/i18n/plural';
import { HERO_SLOT, slotSrcSet } from './share-image/image-slots';
import { appBanner, shareTarget } from './open-in-app/app-link';
import type { ShareLoaderData } from './share-loader';
import { fill, shareMessages } from './share-messages';

/** The width previews (WeChat, QQ, Weibo, Twitter) get: large enough, small enough to be quick. */
const PREVIEW_WIDTH = 750;
const DESCRIPTION_LENGTH = 100;

function heroImage<K extends ShareKind>(kind: K, item: ShareItems[K]): Image | undefined {
  if (kind === 'cabinet') return (item as ShareItems['cabinet']).cover;
  return (item as ShareItems['goods'] | ShareItems['note']).images[0];
}

/** At most `length` characters as a reader counts them (an emoji or a combined mark is one). */
function truncate(text: string, length: number): string {
  const graphemes = Array.from(new Intl.Segmenter().segment(text), (part) => part.segment);
  return graphemes.length > length ? `${graphemes.slice(0, length).join('')}…` : text;
}

function summaryOf<K extends ShareKind>(kind: K, item: ShareItems[K], language: Language): string {
  const text = item.text.replace(/\s+/g, ' ').trim();
  if (text) return truncate(text, DESCRIPTION_LENGTH);
  if (kind === 'goods') {
    const goods = item as ShareItems['goods'];
    return [goods.work, goods.character, goods.category].filter(Boolean).join(' · ');
  }
  if (kind === 'cabinet') {
    const cabinet = item as ShareItems['cabinet'];
    const summary = pluralText(language, cabinet.itemCount, shareMessages(language).cabinetSummary);
    return fill(summary, { owner: cabinet.owner.nickname });
  }
  return (item as ShareItems['note']).title;
}

const UNAVAILABLE: Readonly<Record<Language, string>> = {
  'zh-CN': '这条分享暂时无法查看，打开谷圈 App 看看更多同好的谷子。',
  en: 'This share cannot be shown. Open the goods-circle app to see more.',
};

/**
 * What a share page puts in <head>: link previews for an item, noindex for anything else, and on
 * every one Safari's Smart App Banner opening the app where the page's "open in app" does (the
 * first image of goods: the page opens on it).
 */
export function shareHead(
  data: unknown,
  language: Language,
  search: string,
  { linkOrigin }: { linkOrigin: string } = { linkOrigin: '' },
): PageHead {
  const { kind, result } = data as ShareLoaderData<ShareKind>;
  const banner = appBanner(shareTarget(kind, search), linkOrigin);
  if (result instanceof Promise || result.state !== 'ok') {
    return { noindex: true, description: UNAVAILABLE[language], appBanner: banner };
  }
  const image = heroImage(kind, result.item);
  // The server never enlarges an image: a small original is served at its own size.
  const previewWidth = image ? Math.min(PREVIEW_WIDTH, image.width) : PREVIEW_WIDTH;
  return {
    ogType: 'article',
    appBanner: banner,
    description: summaryOf(kind, result.item, language),
    ...(image
      ? {
          image: {
            path: imageUrl(image.id, PREVIEW_WIDTH),
            width: previewWidth,
            height: Math.round((image.height / image.width) * previewWidth),
            alt: image.alt,
          },
          // The same srcset and sizes as the page's <img>, or the browser fetches it twice.
          preloadImage: {
            href: imageUrl(image.id, PREVIEW_WIDTH),
            srcset: slotSrcSet(image, HERO_SLOT),
            sizes: HERO_SLOT.sizes,
          },
        }
      : {}),
  };
}
