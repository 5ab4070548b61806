import { describe, expect, it, vi } from 'vitest';
import { goodsFixture } from '../../test-support/share-fixtures';
import { describeFirstLaunch, firstLaunchAfterInstall, universalLinkTarget } from './first-launch';

const LINK = 'http://127.0.0.1:8081';
const ID = goodsFixture.id;
const INSTALL = '6f1c2a4e-0000-4000-8000-000000000001';

function server(claimStatus: number) {
  const calls: { url: string; body?: unknown }[] = [];
  const fetchFn = vi.fn((url: string, init?: RequestInit) => {
    calls.push({
      url,
      ...(init?.body ? { body: JSON.parse(init.body as string) as unknown } : {}),
    });
    if (url.endsWith('/app-links/claims'))
      return Promise.resolve(
        new Response(
          JSON.stringify(
            claimStatus === 200
              ? { target: { kind: 'goods', id: ID, image: 2 }, appPath: `goods/${ID}?image=2` }
              : { error: { code: 'x', message: 'x' } },
          ),
          { status: claimStatus },
        ),
      );
    return Promise.resolve(new Response(JSON.stringify(goodsFixture), { status: 200 }));
  });
  return { fetchFn: fetchFn as unknown as typeof fetch, calls };
}

describe('the simulated first launch', () => {
  it('claims the code of a share text and names where the app opens', async () => {
    const { fetchFn, calls } = server(200);
    const launch = await firstLaunchAfterInstall({
      clipboardText: `【谷圈】${goodsFixture.name} ￥AB12CD34EF56￥ ${LINK}/goods/${ID}?image=2`,
      linkOrigin: LINK,
      installId: INSTALL,
      fetchFn,
    });
    expect(calls[0]).toEqual({
      url: '/anime_merch_web/api/v1/app-links/claims',
      body: { code: 'AB12CD34EF56', installId: INSTALL },
    });
    expect(launch).toMatchObject({ outcome: 'opens', by: 'code', name: goodsFixture.name });
    expect(describeFirstLaunch(launch)).toBe(
      `First launch: the app claimed the code and opens goods ${ID} “${goodsFixture.name}”, at image 3.`,
    );
    // The image is named one way: as the share page counts it, never also as the path's index.
    expect(describeFirstLaunch(launch)).not.toContain('image=');
  });

  it('a text with the Universal Link alone needs no claim', async () => {
    const { fetchFn, calls } = server(200);
    const launch = await firstLaunchAfterInstall({
      clipboardText: `【谷圈】x ${LINK}/goods/${ID}?image=1`,
      linkOrigin: LINK,
      installId: INSTALL,
      fetchFn,
    });
    expect(calls.some((call) => call.url.endsWith('/claims'))).toBe(false);
    expect(launch).toMatchObject({
      outcome: 'opens',
      by: 'link',
      target: { kind: 'goods', id: ID, image: 1 },
    });
    expect(describeFirstLaunch(launch)).toMatch(
      /^First launch: the app read the link \(no claim needed\) and opens goods \S+ “.+”, at image 2\.$/,
    );
  });

  it('anything else: the start screen; a refused claim says why', async () => {
    const { fetchFn } = server(410);
    expect(
      await firstLaunchAfterInstall({
        clipboardText: 'hello',
        linkOrigin: LINK,
        installId: INSTALL,
        fetchFn,
      }),
    ).toEqual({ outcome: 'nothing' });
    const refused = await firstLaunchAfterInstall({
      clipboardText: '￥AB12CD34EF56￥',
      linkOrigin: LINK,
      installId: INSTALL,
      fetchFn,
    });
    expect(describeFirstLaunch(refused)).toContain('the code has expired');
    // A link on another domain is not the app's.
    expect(universalLinkTarget(`https://evil.example/goods/${ID}`, LINK)).toBeUndefined();
  });

  it('reads the platform’s ids in a Universal Link: 1 to 64 characters, never part of a longer one', () => {
    const longest = 'x'.repeat(64);
    for (const id of ['7', 'goods_42-a', longest]) {
      expect(universalLinkTarget(`【谷圈】x ${LINK}/note/${id} more`, LINK), id).toEqual({
        kind: 'note',
        id,
      });
    }
    expect(universalLinkTarget(`${LINK}/goods/a?image=3`, LINK)).toEqual({
      kind: 'goods',
      id: 'a',
      image: 3,
    });
    expect(universalLinkTarget(`${LINK}/goods/${longest}y`, LINK)).toBeUndefined();
  });
});
