import { describe, expect, it } from 'vitest';
import type { ShareResult } from '@guquan/contract/share';
import { parseShareId, type PublicId, type ShareKind } from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { recentShareReads } from '../shares/recent-share-reads.ts';
import type { ShareReader } from '../shares/share-reader.ts';
import { createRenderedPageCache } from './rendered-page-cache.ts';
import { createSharePages } from './share-page-cache.ts';

const ID = parseShareId(DEMO_IDS.goods.gallery) as PublicId;

describe('share pages read through the one reader', () => {
  it('reads an item once a second for every page of it, each page versioned once per read', async () => {
    let clock = 0;
    let reads = 0;
    let state: 'private' | 'removed' = 'private';
    const reader: ShareReader = {
      read<K extends ShareKind>(): Promise<ShareResult<K>> {
        reads += 1;
        return Promise.resolve({ state });
      },
    };
    const pages = createSharePages({
      buildId: 'build',
      shares: recentShareReads(reader, 1_000, () => clock),
      cache: createRenderedPageCache({ maxBytes: 1_000_000 }),
      render: () => Promise.reject(new Error('not rendered here')),
    });
    const page = (language: 'zh-CN' | 'en', appMissing = false) =>
      pages.read({ kind: 'goods', id: ID, language, appMissing });

    const chinese = await page('zh-CN');
    expect(await page('zh-CN')).toBe(chinese);
    const english = await page('en');
    const appMissing = await page('zh-CN', true);
    expect(reads).toBe(1);
    expect(new Set([chinese.version, english.version, appMissing.version]).size).toBe(3);

    // A change shows once the read is a second old, in every page of the item.
    state = 'removed';
    clock += 1_000;
    const changed = await page('zh-CN');
    expect(reads).toBe(2);
    expect(changed.version).not.toBe(chinese.version);
    expect(changed.data.result.state).toBe('removed');
    expect((await page('en')).data.result.state).toBe('removed');
    expect(reads).toBe(2);
  });
});
