import type { Language } from '@guquan/contract/language';
import type { PageHead } from '@guquan/contract/page-render';
import type { Image, ShareItems } from '@guquan/contract/share';
import { imageUrl, type ShareKind } from '@guquan/contract/share-paths';
import {
  PICTURE_SIZES,
  cardContent,
  neutralContent,
  pictureAlt,
  pictureUrl,
  type PictureContent,
} from '@guquan/contract/share-pictures';
import { shareTitle } from '@guquan/contract/share-titles';
import { pluralText } from '../../../lib/i18n/plural';
import { HERO_SLOT, slotSrcSet } from '../media/image-slots';
import { download } from '@content/site.json';
import { shareTarget, universalLink, type AppTarget } from '../open-in-app/app-link';
import { fill, loadedShareTexts } from '../texts/share-texts';
import type { ShareLoaderData } from '../share-types';

/** Safari's Smart App Banner for a target: the app, opening where "open in app" would. */
function appBanner(target: AppTarget, linkOrigin: string): { appId: string; appArgument: string } {
  return { appId: download.ios.appStoreId, appArgument: universalLink(linkOrigin, target) };
}

/** The width of the page's first image, preloaded: its largest paint. */
const PREVIEW_WIDTH = 750;
const DESCRIPTION_LENGTH = 100;
/** Previews cut titles at about 60 characters; the app's name must stay. */
const PREVIEW_TITLE_LENGTH = 40;

/** The picture that stands for an item in previews and is preloaded: the page's first image. */
const HERO_IMAGES: { [K in ShareKind]: (item: ShareItems[K]) => Image | undefined } = {
  goods: (goods) => goods.images[0],
  cabinet: (cabinet) => cabinet.cover,
  note: (note) => note.images[0],
};

function heroImageOf<K extends ShareKind>(kind: K, item: ShareItems[K]): Image | undefined {
  return HERO_IMAGES[kind](item);
}

/** At most `length` characters as a reader counts them (an emoji or a combined mark is one). */
function truncate(text: string, length: number): string {
  const graphemes = Array.from(new Intl.Segmenter().segment(text), (part) => part.segment);
  return graphemes.length > length ? `${graphemes.slice(0, length).join('')}…` : text;
}

/** What a preview says of an item without text of its own. */
const TEXTLESS_SUMMARIES: {
  [K in ShareKind]: (item: ShareItems[K], language: Language) => string;
} = {
  goods: (goods) => [goods.work, goods.character, goods.category].filter(Boolean).join(' · '),
  cabinet: (cabinet, language) =>
    fill(pluralText(language, cabinet.itemCount, loadedShareTexts(language).cabinetSummary), {
      owner: cabinet.owner.nickname,
    }),
  note: (note) => note.title,
};

function summaryOf<K extends ShareKind>(kind: K, item: ShareItems[K], language: Language): string {
  const text = item.text.replace(/\s+/g, ' ').trim();
  return text ? truncate(text, DESCRIPTION_LENGTH) : TEXTLESS_SUMMARIES[kind](item, language);
}

/** What was shared, by its own name (a note by its title), and the app's: "… - 谷圈". */
function previewTitleOf<K extends ShareKind>(kind: K, item: ShareItems[K], language: Language) {
  return fill(loadedShareTexts(language).previewTitle, {
    name: truncate(shareTitle(kind, item), PREVIEW_TITLE_LENGTH),
  });
}

const UNAVAILABLE: Readonly<Record<Language, string>> = {
  'zh-CN': '这条分享暂时无法查看，打开谷圈 App 看看更多同好的谷子。',
  en: 'This share cannot be shown. Open the Goods Circle app to see more.',
};

/** A preview card (1200×630) as og:image and twitter:image: made by the server for this content. */
function previewCard(content: PictureContent): NonNullable<PageHead['image']> {
  return { path: pictureUrl(content), ...PICTURE_SIZES.card, alt: pictureAlt(content) };
}

/**
 * What a share page puts in <head>: link previews for an item (its preview card), noindex and a
 * neutral card that reveals nothing for anything else, and on
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
    return {
      noindex: true,
      description: UNAVAILABLE[language],
      appBanner: banner,
      image: previewCard(neutralContent('card', language)),
    };
  }
  const image = heroImageOf(kind, result.item);
  return {
    ogType: 'article',
    previewTitle: previewTitleOf(kind, result.item, language),
    appBanner: banner,
    description: summaryOf(kind, result.item, language),
    image: previewCard(cardContent(kind, result.item, language)),
    // An image not here yet is shown as the placeholder: nothing to preload.
    ...(image && !image.missing
      ? {
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
