import type { MouseEvent } from 'react';
import type { AppPlace } from '@guquan/contract/app-link-paths';
import type { UserSummary } from '@guquan/contract/share';
import { useLinkOrigin } from '../../../lib/app-links/link-origin';
import { useAppPrompt } from './app-prompt';
import { universalLink, type AppTarget } from './app-link';

/** A place of the page's item, or `null` for the item itself (its likes, wants, counts). */
export type PlaceOrItem = AppPlace | null;

export interface OpenAppAt {
  /**
   * The one way every tap on a user, a tag, a mention, a comment or a count opens the app:
   * there, or wherever the open-in-app flow goes when the app is missing.
   */
  openAt: (place: PlaceOrItem, event?: MouseEvent<HTMLElement>) => void;
  /** The place's Universal Link: where its link points in the server's HTML, before the code. */
  hrefOf: (place: PlaceOrItem) => string;
}

/** The page's target, opened at a place of the same item (the image dropped for a place). */
export function placeTarget(target: AppTarget, place: PlaceOrItem): AppTarget {
  if (!target || !place) return target;
  return { kind: target.kind, id: target.id, place };
}

export function useOpenAppAt(): OpenAppAt {
  const { target, openInApp } = useAppPrompt();
  const linkOrigin = useLinkOrigin();
  return {
    openAt: (place, event) => {
      openInApp(placeTarget(target, place), event);
    },
    hrefOf: (place) => universalLink(linkOrigin, placeTarget(target, place)),
  };
}

/**
 * Where an @mention leads: the user of that nickname among those the page shows (author,
 * commenters), else the item itself (the app resolves the mention on its own page).
 */
export function mentionPlace(mention: string, users: readonly UserSummary[]): PlaceOrItem {
  const nickname = mention.replace(/^@/, '');
  const user = users.find((candidate) => candidate.nickname === nickname);
  return user ? { type: 'user', id: user.id } : null;
}

/** A #tag as written (`#吧唧` or `#出谷经验#`) as the tag's name. */
export function tagName(written: string): string {
  return written.replace(/^#/, '').replace(/#$/, '');
}
