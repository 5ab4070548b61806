import { shareText, universalLink, type AppTarget } from '@guquan/contract/app-link-paths';
import type { Language } from '@guquan/contract/language';

/** How long the store waits for the clipboard at most: the visitor tapped to go there. */
const CLIPBOARD_WAIT_MS = 1_500;

export interface HandoffFacts {
  target: AppTarget;
  /** The item's title, for the share text ('' when the page could not show the item). */
  title: string;
  linkOrigin: string;
  /** The page's language: the share text is written in it. */
  language: Language;
}

/**
 * Copies the share text the app claims after its installation (docs/decisions/0017-app-links-and-handoffs.md), from inside the tap:
 * browsers let a page write the clipboard only within a user's gesture, and Safari only when the
 * write starts in it. So the write starts here, at once, with a `ClipboardItem` whose text is a
 * promise; the text itself (its code comes from the server) follows when it is ready. Where
 * `ClipboardItem` is missing, the text without a code is written at once. Resolves (never rejects)
 * when the clipboard has it (true) or could not get it (false), or after CLIPBOARD_WAIT_MS
 * (false: not known to be there), whichever is first. Must be called synchronously in the tap's
 * event handler.
 */
export function copyHandoffText({
  target,
  title,
  linkOrigin,
  language,
}: HandoffFacts): Promise<boolean> {
  if (!target || typeof navigator === 'undefined' || !('clipboard' in navigator))
    return Promise.resolve(false);
  const clipboard = navigator.clipboard;
  const plain = shareText(title, universalLink(linkOrigin, target), undefined, language);
  let written: Promise<void>;
  try {
    written = startWrite(clipboard, plain, { target, title, linkOrigin, language });
  } catch {
    // Refused at once (no permission, an old browser's own rules): the store opens anyway.
    return Promise.resolve(false);
  }
  const settled = written.then(
    () => true,
    () => false,
  );
  const waited = new Promise<boolean>((resolve) => {
    setTimeout(() => {
      resolve(false);
    }, CLIPBOARD_WAIT_MS);
  });
  return Promise.race([settled, waited]);
}

function startWrite(
  clipboard: Clipboard,
  plain: string,
  { target, title, linkOrigin, language }: HandoffFacts & { target: Exclude<AppTarget, null> },
): Promise<void> {
  if (typeof ClipboardItem === 'function' && typeof clipboard.write === 'function') {
    const text = import('./mint-handoff').then(
      ({ mintedShareText }) => mintedShareText(target, title, linkOrigin, language),
      // The code's module could not be loaded: the link alone.
      () => plain,
    );
    const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
    return clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
  }
  if (typeof clipboard.writeText === 'function') return clipboard.writeText(plain);
  return Promise.reject(new Error('No way to write the clipboard'));
}
