import { describe, expect, it } from 'vitest';
import type { Goods, ShareItems } from '@guquan/contract/share';
import { parseShareId, type PublicId, type ShareKind } from '@guquan/contract/share-paths';
import { createShareReader, ShareContractError, type ShareRepositories } from './share-reader.ts';
import type { StoredShare } from './stored-share.ts';

const ID = parseShareId('AbCdEfGhIjKlMnOp') as PublicId;

const goods: Goods = {
  id: ID,
  name: '五条悟 吧唧',
  work: '咒术回战',
  character: '五条悟',
  category: '吧唧',
  priceFen: 3500,
  status: 'selling',
  owner: { id: 'OwnerOwnerOwner1', nickname: '芋圆', avatar: null },
  images: [{ id: 'ImageImageImage1', width: 900, height: 900, alt: '' }],
  likes: 1,
  wants: 2,
  text: '出',
  tags: ['咒术回战'],
  createdAt: '2025-11-02T08:30:00.000Z',
};

function readerWith(stored: StoredShare<Goods> | undefined) {
  const seen: string[] = [];
  const none = () => Promise.resolve(undefined);
  const repositories: ShareRepositories = {
    goods: (id) => {
      seen.push(id);
      return Promise.resolve(stored);
    },
    cabinet: none,
    note: none,
  };
  return { reader: createShareReader(repositories), seen };
}

const publicGoods = {
  item: goods,
  visibility: 'public',
  removedAt: null,
  ownerLeaving: false,
} as const;

describe('createShareReader', () => {
  it('answers invalid_id for a missing or malformed id (parseShareId), without asking the database', async () => {
    const { reader, seen } = readerWith(publicGoods);
    expect(await reader.read('goods', parseShareId('AbCdEfGh/jKlMn.p'))).toEqual({
      state: 'invalid_id',
    });
    expect(await reader.read('goods', undefined)).toEqual({ state: 'invalid_id' });
    expect(seen).toEqual([]);
  });

  it('maps what the repository found to the states of the contract', async () => {
    expect(await readerWith(undefined).reader.read('goods', ID)).toEqual({ state: 'not_found' });
    expect(
      await readerWith({ ...publicGoods, visibility: 'private' }).reader.read('goods', ID),
    ).toEqual({ state: 'private' });
    // Removed wins over private: the item is gone whoever asks.
    const removed = {
      item: goods,
      visibility: 'private',
      removedAt: '2025-11-03T00:00:00.000Z',
      ownerLeaving: false,
    } as const;
    expect(await readerWith(removed).reader.read('goods', ID)).toEqual({ state: 'removed' });
    // During the owner's deletion cool-off the item is out of public view.
    expect(
      await readerWith({ ...publicGoods, ownerLeaving: true }).reader.read('goods', ID),
    ).toEqual({ state: 'not_found' });
    expect(await readerWith(publicGoods).reader.read('goods', ID)).toEqual({
      state: 'ok',
      item: goods,
    });
  });

  it('refuses to hand out an item that breaks the contract', async () => {
    const broken = { ...publicGoods, item: { ...goods, images: [] } };
    await expect(readerWith(broken).reader.read('goods', ID)).rejects.toThrow(ShareContractError);
    const negativePrice = { ...publicGoods, item: { ...goods, priceFen: -1 } };
    await expect(readerWith(negativePrice).reader.read('goods', ID)).rejects.toThrow(
      /priceFen|contract/,
    );
  });

  it('reads each kind from its own repository', async () => {
    const kinds: ShareKind[] = [];
    const track =
      <K extends ShareKind>(kind: K) =>
      (): Promise<StoredShare<ShareItems[K]> | undefined> => {
        kinds.push(kind);
        return Promise.resolve(undefined);
      };
    const reader = createShareReader({
      goods: track('goods'),
      cabinet: track('cabinet'),
      note: track('note'),
    });
    await reader.read('note', ID);
    await reader.read('cabinet', ID);
    await reader.read('goods', ID);
    expect(kinds).toEqual(['note', 'cabinet', 'goods']);
  });
});
