import { posterApiPath, posterSchema, type Poster } from '@guquan/contract/poster';
import type { Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * The address of the item's current poster (only the server can name it: its QR code holds the
 * item's link, a server setting), checked with the contract's schema; undefined when it cannot be
 * had (offline, the item gone, a broken answer).
 */
export async function fetchPoster(
  kind: ShareKind,
  id: string,
  language: Language,
  signal: AbortSignal,
): Promise<Poster | undefined> {
  try {
    const response = await fetch(`${posterApiPath(kind, id)}?lang=${language}`, {
      headers: { accept: 'application/json' },
      signal,
    });
    if (!response.ok) return undefined;
    const checked = posterSchema.safeParse(await response.json());
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined;
  }
}
