import {
  APP_LINK_HANDOFFS_PATH,
  HANDOFF_CODE_PATTERN,
  shareText,
  universalLink,
  type AppTarget,
} from '@guquan/contract/app-link-paths';
import type { Language } from '@guquan/contract/language';

/** A code that has not come by then is given up: the store must not wait on it. */
const MINT_TIMEOUT_MS = 3_000;

/**
 * The share text for a target with a code the server minted for it (docs/decisions/0017-app-links-and-handoffs.md), or, when no code
 * can be had (the server is away, slow, or says no), with the item's Universal Link alone, which
 * the app opens without a claim. Never rejects. Loaded only when a visitor heads for the store:
 * no share page needs it to start.
 */
export async function mintedShareText(
  target: Exclude<AppTarget, null>,
  title: string,
  linkOrigin: string,
  language: Language,
): Promise<string> {
  const plain = shareText(title, universalLink(linkOrigin, target), undefined, language);
  try {
    const response = await fetch(APP_LINK_HANDOFFS_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ target }),
      signal: AbortSignal.timeout(MINT_TIMEOUT_MS),
    });
    if (response.status !== 201) return plain;
    const answer = (await response.json()) as { code?: unknown; link?: unknown } | null;
    // A hand check instead of the contract's schema (zod stays out of share pages): the code as
    // the app looks for it, and a link on the link domain this page knows. Anything else: none.
    const { code, link } = answer ?? {};
    if (typeof code !== 'string' || !HANDOFF_CODE_PATTERN.test(code)) return plain;
    const known = typeof link === 'string' && link.startsWith(`${linkOrigin}/`);
    return shareText(title, known ? link : universalLink(linkOrigin, target), code, language);
  } catch {
    return plain;
  }
}
