import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyHandoffText } from './handoff-clipboard';

const TARGET = { kind: 'goods', id: 'goodsAAAAAAAAAA1', image: 0 } as const;
const LINK_ORIGIN = 'https://link.example';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A browser whose clipboard takes text only (no ClipboardItem): the text without a code. */
function plainClipboard(): string[] {
  const written: string[] = [];
  vi.stubGlobal('ClipboardItem', undefined);
  vi.stubGlobal('navigator', {
    clipboard: {
      writeText: (text: string) => {
        written.push(text);
        return Promise.resolve();
      },
    },
  });
  return written;
}

describe('copyHandoffText', () => {
  it.each([
    ['zh-CN', '【谷圈】五条悟 吧唧'],
    ['en', '[Goods Circle] 五条悟 吧唧'],
  ] as const)('writes the share text in the page’s language (%s)', async (language, start) => {
    const written = plainClipboard();
    await copyHandoffText({
      target: TARGET,
      title: '五条悟 吧唧',
      linkOrigin: LINK_ORIGIN,
      language,
    });
    expect(written).toEqual([`${start} ${LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=0`]);
  });
});
