import { describe, expect, it } from 'vitest';
import { cabinetSchema, goodsSchema, noteSchema } from '@guquan/contract/share';
import { cabinetFixture, goodsFixture, noteFixture } from './fixtures';

describe('share fixtures', () => {
  it('are what the API may answer', () => {
    expect(goodsSchema.parse(goodsFixture)).toEqual(goodsFixture);
    expect(cabinetSchema.parse(cabinetFixture)).toEqual(cabinetFixture);
    expect(noteSchema.parse(noteFixture)).toEqual(noteFixture);
  });
});
