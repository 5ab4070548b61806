import { describe, expect, it } from 'vitest';
import { deletionTexts } from '../features/account-deletion/deletion-texts';
import { legalTexts } from '../features/legal/legal-texts';
import { membershipTexts } from '../features/membership/membership-texts';
import { DESIGN_USES } from '@guquan/contract/design';
import { redeemTexts } from '../features/redeem-design/redeem-texts';
import { shareTexts } from '../features/share/texts/all-share-texts';
import { websiteTexts } from '../features/website/website-content';
import { shellTexts } from '../lib/i18n/shell-texts';
import { pluralText, type PluralTexts } from '../lib/i18n/plural';

/**
 * Every English text of every page, with each count it takes set to 1, must read "1 item", never
 * "1 items": texts with a count go through pluralText (lib/i18n/plural.ts).
 */
// Texts about a file, a use or a plan's name, not a count: called below with such values.
const { getsFile, getsUse, ...redeemWalked } = redeemTexts('en');
const { awaitingApproval, ...membershipWalked } = membershipTexts('en');

const ENGLISH_TEXTS = {
  shell: shellTexts('en'),
  share: shareTexts('en'),
  redeem: redeemWalked,
  membership: membershipWalked,
  deletion: deletionTexts('en'),
  legal: legalTexts('en'),
  website: websiteTexts('en'),
};

/** "1 items", "1 more items", "1 unused points": the count one with a plural noun after it. */
const ONE_WITH_PLURAL = /\b1 (?:[a-z]+ )?[a-z]+s\b/i;

function isPluralTexts(value: object): value is PluralTexts {
  return 'other' in value && typeof value.other === 'string';
}

/** Every string reachable from `value`: functions are called with 1 for each argument. */
function textsOf(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') {
    const ones: unknown[] = Array.from({ length: value.length }, () => 1);
    return textsOf((value as (...args: unknown[]) => unknown)(...ones), `${path}(1)`);
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) => textsOf(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) {
    if (isPluralTexts(value))
      return [1, 2].map((n) => [`${path} with ${n}`, pluralText('en', n, value)]);
    return Object.entries(value).flatMap(([key, item]) => textsOf(item, `${path}.${key}`));
  }
  return [];
}

function pluralObjectsOf(value: unknown, path: string): [string, PluralTexts][] {
  if (typeof value !== 'object' || value === null) return [];
  if (!Array.isArray(value) && isPluralTexts(value)) return [[path, value]];
  return Object.entries(value).flatMap(([key, item]) => pluralObjectsOf(item, `${path}.${key}`));
}

describe('English texts', () => {
  const texts: [string, string][] = [
    ...textsOf(ENGLISH_TEXTS, 'en'),
    // Texts whose count sits in an object or needs a whole year, which the walk cannot guess.
    ...deletionTexts('en')
      .deletedItems({ goods: 1, cabinets: 1, notes: 1, comments: 1 })
      .map((text): [string, string] => ['deletion.deletedItems', text]),
    // What a redemption gives: a file's size and pixels (no count) and each use, or nothing said.
    ['redeem.getsFile', getsFile({ format: 'png', width: 2048, height: 4096, bytes: 1_500_000 })],
    ['redeem.getsFile(null)', getsFile(null)],
    ['membership.awaitingApproval', awaitingApproval('Monthly membership')],
    ...[...DESIGN_USES, null].map((use): [string, string] => [
      `redeem.getsUse(${use})`,
      getsUse(use),
    ]),
    ...Object.values(deletionTexts('en').kept).map((kept): [string, string] => [
      'deletion.kept(12)',
      kept(12),
    ]),
  ];

  it('are found by the walk', () => {
    expect(texts.length).toBeGreaterThan(150);
    expect(texts.map(([, text]) => text)).toContain('1 item');
    expect(texts.map(([, text]) => text)).toContain('1 point');
  });

  it('never put a plural noun after the count one', () => {
    const wrong = texts.filter(([, text]) => ONE_WITH_PLURAL.test(text));
    expect(wrong).toEqual([]);
  });

  it('give every count text a form for one that differs from the form for many', () => {
    const counted = pluralObjectsOf(ENGLISH_TEXTS, 'en');
    expect(counted.length).toBeGreaterThan(5);
    for (const [path, forms] of counted) {
      expect(forms.one, path).toBeDefined();
      expect(pluralText('en', 1, forms), path).not.toBe(pluralText('en', 2, forms));
    }
  });

  it('name the app one way: Goods Circle (the spec’s titles aside, which are titles)', () => {
    const names = texts.flatMap(([path, text]) =>
      [...text.matchAll(/goods[- ]circle|谷圈/gi)].map((match): [string, string] => [
        path,
        match[0],
      ]),
    );
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter(([, name]) => name !== 'Goods Circle')).toEqual([]);
  });

  it('read right for one and for many', () => {
    const share = shareTexts('en');
    expect(pluralText('en', 1, share.itemCount)).toBe('1 item');
    expect(pluralText('en', 2, share.likes)).toBe('likes');
    expect(pluralText('en', 1, share.likes)).toBe('like');
    expect(redeemTexts('en').points(1)).toBe('1 point');
    expect(redeemTexts('en').points(500)).toBe('500 points');
    expect(membershipTexts('en').restored(1)).toBe('Restored 1 purchase.');
    expect(deletionTexts('en').wrongCode(1)).toBe('The code is wrong. 1 try left.');
    expect(deletionTexts('en').kept.network_logs(12)).toContain('1 year (');
    expect(deletionTexts('en').kept.network_logs(6)).toContain('6 months (');
  });
});
