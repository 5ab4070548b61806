import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { GoodsView } from '../views/goods-view';
import { SharePage } from './share-page';
import type { ShareFailureState } from '../share-types';
import { shareFailureTexts } from '../texts/all-failure-texts';

const failureStyles = readFileSync(join(__dirname, 'share-failure-view.module.css'), 'utf8');

beforeEach(stubLayoutApis);
afterEach(cleanup);

function renderFailure(state: Exclude<ShareFailureState, 'network'>, language: Language) {
  return renderShareRoute({
    path: '/AppShare/goodsShare',
    url: `/AppShare/goodsShare?id=x${language === 'en' ? '&lang=en' : ''}`,
    element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
    loader: () => ({ kind: 'goods', result: { state }, shelf: null }),
    language,
  });
}

const STATES = [
  ['private', '403'],
  ['removed', '410'],
  ['not_found', '404'],
  ['invalid_id', '400'],
] as const;

describe('a share page that cannot show its item', () => {
  for (const language of ['zh-CN', 'en'] as const) {
    for (const [state, code] of STATES) {
      it(`${state} (${language}): a picture, a sentence, the app, the download and the website; the code last, labelled`, async () => {
        renderFailure(state, language);
        const text = shareFailureTexts(language);
        const failure = (await screen.findByRole('heading', { level: 1 })).closest('[data-state]');
        expect(failure?.getAttribute('data-state')).toBe(state);
        // The picture: a line drawing per state, in the stylesheet (share-failure-view.module.css).
        expect(failure?.querySelector('span[aria-hidden="true"]')).not.toBeNull();
        expect(failureStyles).toContain(`.failure[data-state='${state}'] .icon {`);
        expect(screen.getByText(text.why[state])).toBeDefined();
        const download = screen.getByRole('link', { name: text.download });
        expect(download.getAttribute('href')).toBe(
          `${BASE_PATH}/website${language === 'en' ? '?lang=en' : ''}#download`,
        );
        const section = screen.getByRole('heading', { level: 1 }).closest('section');
        expect(section?.lastElementChild?.textContent).toBe(text.code.replace('{code}', code));
      });
    }
  }
});
