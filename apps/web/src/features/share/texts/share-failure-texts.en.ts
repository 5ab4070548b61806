import type { FailureTextsShape } from './text-shapes';

/** The failure states' texts in English (see share-failure-texts.zh-CN.ts). */
export const englishFailureTexts = {
  heading: {
    not_found: '{this} does not exist',
    removed: '{this} has been removed',
    private: '{this} is private',
    invalid_id: 'This share link is incomplete',
    network: 'Could not load',
  },
  why: {
    private:
      'The fan who posted it keeps it to themselves. If it is yours, open the Goods Circle app to see it.',
    removed:
      'Whoever posted it, or the platform, took it down: this link will not open it again. There is plenty more below.',
    not_found:
      'We could not find it: the link may have been copied only in part, or what it showed is gone. Ask whoever shared it to send it again.',
    invalid_id:
      'This link is missing a part, or has one too many, so it cannot open what was shared. Ask whoever shared it to tap "Share" in the Goods Circle app again.',
    network: 'The network seems unstable. Check your connection and try again.',
  },
  download: 'Get the Goods Circle app',
  code: 'Error code {code}',
} as const satisfies FailureTextsShape;
