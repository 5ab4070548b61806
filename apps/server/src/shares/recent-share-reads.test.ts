import { describe, expect, it } from 'vitest';
import type { ShareResult } from '@guquan/contract/share';
import { parseShareId, type PublicId, type ShareKind } from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { recentShareReads } from './recent-share-reads.ts';
import type { ShareReader } from './share-reader.ts';

const ID = parseShareId(DEMO_IDS.goods.gallery) as PublicId;

/** A reader that counts its reads and answers each with a new object (a private item). */
function countingReader(fail = false) {
  const reads: string[] = [];
  const reader: ShareReader = {
    read<K extends ShareKind>(kind: K, id: PublicId | undefined): Promise<ShareResult<K>> {
      reads.push(`${kind}/${id ?? ''}`);
      if (fail) return Promise.reject(new Error('the database is away'));
      return Promise.resolve({ state: id === undefined ? 'invalid_id' : 'private' });
    },
  };
  return { reader, reads };
}

describe('recentShareReads', () => {
  it('reads an item once per reuse period, however many ask, and hands out the same result', async () => {
    let clock = 1_000;
    const { reader, reads } = countingReader();
    const recent = recentShareReads(reader, 1_000, () => clock);
    const [first, overlapping] = await Promise.all([
      recent.read('goods', ID),
      recent.read('goods', ID),
    ]);
    clock += 999;
    const later = await recent.read('goods', ID);
    expect(reads).toEqual([`goods/${ID}`]);
    expect(overlapping).toBe(first);
    expect(later).toBe(first);
    // Another kind is another item.
    await recent.read('note', ID);
    expect(reads).toHaveLength(2);
    clock += 1;
    const fresh = await recent.read('goods', ID);
    expect(reads).toHaveLength(3);
    expect(fresh).not.toBe(first);
  });

  it('keeps no failed read, and passes a missing id through', async () => {
    const failing = countingReader(true);
    const recent = recentShareReads(failing.reader, 1_000, () => 0);
    await expect(recent.read('goods', ID)).rejects.toThrow('away');
    await expect(recent.read('goods', ID)).rejects.toThrow('away');
    expect(failing.reads).toHaveLength(2);
    const { reader, reads } = countingReader();
    const passing = recentShareReads(reader, 1_000, () => 0);
    await passing.read('goods', undefined);
    await passing.read('goods', undefined);
    expect(reads).toEqual(['goods/', 'goods/']);
  });
});
