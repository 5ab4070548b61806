import { afterEach, describe, expect, it } from 'vitest';
import { takeReturnSpot } from '../missing-app-sheet/take-return-spot';
import { RETURN_SPOT_KEY, saveReturnSpot } from './return-spot';

const ID = 'XT9gwR1a_mH_vtRA';

afterEach(() => {
  sessionStorage.clear();
});

describe('return spot', () => {
  it('gives the saved spot back once, to the same item only', () => {
    saveReturnSpot('goods', ID, { scrollY: 640, image: 2 });
    expect(takeReturnSpot('goods', ID)).toEqual({ scrollY: 640, image: 2 });
    expect(takeReturnSpot('goods', ID)).toBeUndefined();
    saveReturnSpot('note', ID, { scrollY: 10 });
    expect(takeReturnSpot('goods', ID)).toBeUndefined();
  });

  it('keeps only the item, the scroll position and the image', () => {
    saveReturnSpot('cabinet', ID, { scrollY: 5 });
    expect(JSON.parse(sessionStorage.getItem(RETURN_SPOT_KEY) ?? '')).toEqual({
      item: `cabinet:${ID}`,
      scrollY: 5,
    });
  });

  it('ignores what is not a spot', () => {
    for (const raw of ['{', 'null', `{"item":"goods:${ID}","scrollY":-1}`, '[]']) {
      sessionStorage.setItem(RETURN_SPOT_KEY, raw);
      expect(takeReturnSpot('goods', ID)).toBeUndefined();
    }
    sessionStorage.setItem(RETURN_SPOT_KEY, `{"item":"goods:${ID}","scrollY":3,"image":"2"}`);
    expect(takeReturnSpot('goods', ID)).toEqual({ scrollY: 3 });
  });
});
