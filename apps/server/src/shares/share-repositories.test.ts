import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabinetSchema, goodsSchema, noteSchema, TOP_COMMENTS_LIMIT } from '@guquan/contract/share';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { findCabinet } from './cabinet-repository.ts';
import { findGoods } from './goods-repository.ts';
import { findNote } from './note-repository.ts';

let data: TestDatabase;
beforeAll(async () => {
  data = await openTestDatabase();
});
afterAll(async () => {
  await data.close();
});

describe('goods repository', () => {
  it('reads a goods with its owner, its images in order, its tags', async () => {
    const stored = await findGoods(data.db, DEMO_IDS.goods.gallery);
    expect(stored).toMatchObject({ visibility: 'public', removedAt: null });
    const goods = goodsSchema.parse(stored?.item);
    expect(goods).toMatchObject({ id: DEMO_IDS.goods.gallery, status: 'selling', priceFen: 3500 });
    expect(goods.images.length).toBeGreaterThanOrEqual(4);
    const ratios = new Set(goods.images.map((image) => (image.width / image.height).toFixed(2)));
    expect(ratios.size).toBeGreaterThanOrEqual(4);
    expect(goods.images[0]?.alt).toBe('五条悟的吧唧');
    expect(goods.text).toContain('\n');
    expect(goods.tags).toContain('五条悟');
    expect(goods.owner.nickname).toBe('芋圆不加冰');
    expect(goods.owner.avatar?.width).toBeGreaterThan(0);
  });

  it('gives the state of private and removed goods, and nothing for an unknown id', async () => {
    expect((await findGoods(data.db, DEMO_IDS.goods.private))?.visibility).toBe('private');
    expect((await findGoods(data.db, DEMO_IDS.goods.removed))?.removedAt).toEqual(
      expect.any(String),
    );
    expect(await findGoods(data.db, DEMO_IDS.unknown)).toBeUndefined();
  });

  it('keeps a goods without a price as null, not 0', async () => {
    const goods = (await findGoods(data.db, DEMO_IDS.goods.noPrice))?.item;
    expect(goods).toMatchObject({ priceFen: null, status: 'display' });
    expect(goods?.images).toHaveLength(1);
  });
});

describe('cabinet repository', () => {
  it('counts every goods but lists only the public ones still there, in order', async () => {
    const cabinet = cabinetSchema.parse((await findCabinet(data.db, DEMO_IDS.cabinets.main))?.item);
    expect(cabinet.itemCount).toBeGreaterThanOrEqual(20);
    expect(cabinet.items.length).toBe(cabinet.itemCount - 2);
    const ids = cabinet.items.map((item) => item.id);
    expect(ids).not.toContain(DEMO_IDS.goods.private);
    expect(ids).not.toContain(DEMO_IDS.goods.removed);
    expect(ids.slice(0, 2)).toEqual([DEMO_IDS.goods.gallery, DEMO_IDS.goods.noPrice]);
    // Each tile's cover is its goods' first image.
    const gallery = (await findGoods(data.db, DEMO_IDS.goods.gallery))?.item;
    expect(cabinet.items[0]?.cover).toEqual(gallery?.images[0]);
    // Each tile carries its goods' price (null where none is set), for the tiles of goods for sale.
    expect(cabinet.items.slice(0, 2).map((item) => item.priceFen)).toEqual([3500, null]);
    expect(cabinet.cover.width).toBeGreaterThan(cabinet.cover.height);
  });

  it('gives the state of private and removed cabinets', async () => {
    expect((await findCabinet(data.db, DEMO_IDS.cabinets.private))?.visibility).toBe('private');
    expect((await findCabinet(data.db, DEMO_IDS.cabinets.removed))?.removedAt).not.toBeNull();
    expect(await findCabinet(data.db, DEMO_IDS.unknown)).toBeUndefined();
  });
});

describe('note repository', () => {
  it('counts the comments still there and brings the top ones by likes, then age', async () => {
    const note = noteSchema.parse((await findNote(data.db, DEMO_IDS.notes.rich))?.item);
    // Seven written, one removed.
    expect(note.comments).toBe(6);
    expect(note.topComments).toHaveLength(TOP_COMMENTS_LIMIT);
    expect(note.topComments.map((comment) => comment.likes)).toEqual([88, 65, 65]);
    // Of the two with 65 likes, the older comes first.
    const [, second, third] = note.topComments;
    expect(Date.parse(second?.createdAt ?? '')).toBeLessThan(Date.parse(third?.createdAt ?? ''));
    expect(note.topComments.map((comment) => comment.text).join()).not.toContain('低价出谷');
    expect(note.images).toHaveLength(3);
    for (const part of ['\n', '#痛柜', '@列车长的票夹', 'https://', 'http://', 'javascript:']) {
      expect(note.text).toContain(part);
    }
  });

  it('keeps hostile text exactly as written', async () => {
    const note = noteSchema.parse((await findNote(data.db, DEMO_IDS.notes.hostile))?.item);
    expect(note.title).toContain('<script>alert(1)</script>');
    expect(note.title).toContain('</title>');
    expect(note.text).toContain('<img src=x onerror=alert(1)>');
    expect(note.text).toContain('\u202E');
    expect(note.text).toContain('\u200B');
    expect(note.text).toContain('👨‍👩‍👧‍👦');
    expect(note.text).toMatch(/\S{300,}/);
    expect(note.topComments.some((comment) => comment.text.includes('<script>'))).toBe(true);
  });

  it('reads a note without images, and the states of the others', async () => {
    const note = noteSchema.parse((await findNote(data.db, DEMO_IDS.notes.noImages))?.item);
    expect(note.images).toEqual([]);
    expect((await findNote(data.db, DEMO_IDS.notes.private))?.visibility).toBe('private');
    expect((await findNote(data.db, DEMO_IDS.notes.removed))?.removedAt).not.toBeNull();
    expect(await findNote(data.db, DEMO_IDS.unknown)).toBeUndefined();
  });
});
