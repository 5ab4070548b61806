import { z } from 'zod';
import type { Visibility } from '../db/schema.ts';

/** A share as a repository found it, before anyone decided whether it may be shown. */
export interface StoredShare<T> {
  item: T;
  visibility: Visibility;
  removedAt: string | null;
  /** The owner or author asked to delete their account and is in the cool-off. */
  ownerLeaving: boolean;
}

const tagsSchema = z.array(z.string());

/** Tags are kept as a JSON array in a text column (portable across databases). */
export function parseTags(json: string): string[] {
  return tagsSchema.parse(JSON.parse(json));
}
