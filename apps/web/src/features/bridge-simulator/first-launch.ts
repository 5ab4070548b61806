import {
  APP_LINK_CLAIMS_PATH,
  APP_PATH_SEGMENTS,
  appPath,
  kindOfAppSegment,
  opensAtImage,
  parseImageIndex,
  SHARE_TEXT_CODE_PATTERN,
  type AppTarget,
} from '@guquan/contract/app-link-paths';
import { claimedHandoffSchema } from '@guquan/contract/app-links';
import { shareSchemas } from '@guquan/contract/share';
import { parseShareId, SHARE_KINDS, shareApiPath } from '@guquan/contract/share-paths';
import { shareTitle } from '@guquan/contract/share-titles';

/**
 * The simulated app's first launch after its installation (docs/app-links.md): it reads the
 * clipboard once (the browser asks, as iOS asks before a paste), looks for a share text's code,
 * claims it, and says where the app would open; a text with the item's Universal Link alone needs
 * no claim. What a real app does, minus the screen it would then show.
 */

/** The install's own random id, made at its installation: one per simulated install (the tab). */
export const INSTALL_ID_KEY = 'guquan.bridgeSimulator.installId';

export function simulatedInstallId(storage: Storage): string {
  const known = storage.getItem(INSTALL_ID_KEY);
  if (known) return known;
  const made = crypto.randomUUID();
  storage.setItem(INSTALL_ID_KEY, made);
  return made;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first path segment of every kind, as a regular expression's alternatives. */
const SEGMENTS = SHARE_KINDS.map((kind) => escapeRegExp(APP_PATH_SEGMENTS[kind])).join('|');

/**
 * The target of a Universal Link on the link domain in a text, if there is one. The id is every
 * id character after the kind's segment, judged by the contract's rule (1 to 64 of them): a
 * longer run is no id, never the first 64 characters of one.
 */
export function universalLinkTarget(text: string, linkOrigin: string): AppTarget | undefined {
  if (!linkOrigin) return undefined;
  const found = new RegExp(
    `${escapeRegExp(linkOrigin)}/(${SEGMENTS})/([A-Za-z0-9_-]+)(\\?image=(\\d+))?`,
  ).exec(text);
  const kind = found ? kindOfAppSegment(found[1] ?? '') : undefined;
  const id = parseShareId(found?.[2]);
  if (!kind || !id) return undefined;
  const image = opensAtImage(kind) ? parseImageIndex(found?.[4]) : undefined;
  return { kind, id, image };
}

export type FirstLaunch =
  | {
      outcome: 'opens';
      target: Exclude<AppTarget, null>;
      appPath: string;
      by: 'code' | 'link';
      name?: string;
    }
  | { outcome: 'nothing' }
  | { outcome: 'refused'; reason: string };

/** The item's name, to show which one the app would open (none when it cannot be read). */
async function itemName(
  fetchFn: typeof fetch,
  target: Exclude<AppTarget, null>,
): Promise<string | undefined> {
  try {
    const response = await fetchFn(shareApiPath(target.kind, target.id));
    if (!response.ok) return undefined;
    const item = shareSchemas[target.kind].safeParse(await response.json());
    if (!item.success) return undefined;
    return shareTitle(target.kind, item.data);
  } catch {
    return undefined;
  }
}

const REFUSALS: Readonly<Record<number, string>> = {
  404: 'the server knows no such code',
  410: 'the code has expired',
  429: 'too many claims just now: the app would try again a little later',
  400: 'the code is malformed',
};

/** Reads the clipboard text once and works out where the app opens, claiming a code if any. */
export async function firstLaunchAfterInstall({
  clipboardText,
  linkOrigin,
  installId,
  fetchFn,
}: {
  clipboardText: string;
  linkOrigin: string;
  installId: string;
  fetchFn: typeof fetch;
}): Promise<FirstLaunch> {
  const code = SHARE_TEXT_CODE_PATTERN.exec(clipboardText)?.[1];
  if (!code) {
    const target = universalLinkTarget(clipboardText, linkOrigin);
    if (!target) return { outcome: 'nothing' };
    const name = await itemName(fetchFn, target);
    return {
      outcome: 'opens',
      target,
      appPath: appPath(target),
      by: 'link',
      name,
    };
  }
  let response: Response;
  try {
    response = await fetchFn(APP_LINK_CLAIMS_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, installId }),
    });
  } catch {
    return { outcome: 'refused', reason: 'the server could not be reached' };
  }
  if (!response.ok)
    return { outcome: 'refused', reason: REFUSALS[response.status] ?? `HTTP ${response.status}` };
  const claimed = claimedHandoffSchema.safeParse(await response.json().catch(() => undefined));
  if (!claimed.success)
    return { outcome: 'refused', reason: 'the server’s answer was not a claim' };
  const { target } = claimed.data;
  const name = await itemName(fetchFn, target);
  return {
    outcome: 'opens',
    target,
    appPath: claimed.data.appPath,
    by: 'code',
    name,
  };
}

/**
 * What the simulator says about a first launch. The image is named one way only, as the share
 * page counts its pictures (image 3 is the third; the app path's `image=2` counts from 0).
 */
export function describeFirstLaunch(launch: FirstLaunch): string {
  if (launch.outcome === 'nothing')
    return 'First launch: no share text on the clipboard, so the app opens on its start screen.';
  if (launch.outcome === 'refused')
    return `First launch: the share text’s code was not claimed (${launch.reason}); the app opens on its start screen.`;
  const { target } = launch;
  const name = launch.name ? ` “${launch.name}”` : '';
  const image = target.image === undefined ? '' : `, at image ${target.image + 1}`;
  const how = launch.by === 'code' ? 'claimed the code' : 'read the link (no claim needed)';
  return `First launch: the app ${how} and opens ${target.kind} ${target.id}${name}${image}.`;
}
