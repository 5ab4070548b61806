/**
 * Splits what a user wrote into pieces the page renders as React text: line breaks, #tags,
 * @mentions and web links. Nothing here produces or parses HTML; `<b>` stays the four characters.
 */
export type TextToken =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'break' }
  | { readonly type: 'tag'; readonly text: string }
  | { readonly type: 'mention'; readonly text: string }
  | { readonly type: 'link'; readonly text: string; readonly href: string };

export interface TokenizeOptions {
  /** Also find #tags, @mentions and links (notes, comments); otherwise only line breaks. */
  rich: boolean;
}

// Characters that end a tag or a mention: spaces, the other markers, and punctuation (ASCII and
// the full-width forms Chinese text uses). No lookbehind: older iOS Safari cannot parse it.
const STOP = String.raw`\s#@<>,.!?;:()\[\]{}'"，。！？、；：（）【】《》「」『』“”‘’…`;
const TOKENS = new RegExp(
  [
    String.raw`(\r\n|\r|\n)`,
    String.raw`(https?:\/\/[^\s<>"'，。！？、；：（）【】《》「」『』“”‘’]+)`,
    String.raw`(#[^${STOP}]{1,30}#?)`,
    String.raw`(@[^${STOP}]{1,40})`,
  ].join('|'),
  'giu',
);
const LINE_BREAKS = /\r\n|\r|\n/g;

/** A # right after a letter or digit is not a tag (C#, &#39;); an @ after one is an e-mail. */
const TAG_BLOCKED_AFTER = /[A-Za-z0-9&]/;
const MENTION_BLOCKED_AFTER = /[A-Za-z0-9._%+-]/;
/** Punctuation that ends a sentence rather than the link: "see https://a.cn/x." */
const TRAILING = /[.,;:!?)\]}]+$/;

function safeHref(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function tokenize(text: string, { rich }: TokenizeOptions): TextToken[] {
  const tokens: TextToken[] = [];
  let plain = '';
  const flush = () => {
    if (plain) tokens.push({ type: 'text', text: plain });
    plain = '';
  };
  const pattern = rich ? TOKENS : LINE_BREAKS;
  pattern.lastIndex = 0;
  let cursor = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [whole] = match;
    const before = text.slice(cursor, match.index);
    const previous = text[match.index - 1] ?? '';
    plain += before;
    cursor = match.index + whole.length;
    if (!rich || match[1] !== undefined) {
      flush();
      tokens.push({ type: 'break' });
    } else if (match[2] !== undefined) {
      const link = whole.replace(TRAILING, '');
      const href = safeHref(link);
      if (href) {
        flush();
        tokens.push({ type: 'link', text: link, href });
        cursor = match.index + link.length;
        pattern.lastIndex = cursor;
      } else {
        plain += whole;
      }
    } else if (match[3] !== undefined && !TAG_BLOCKED_AFTER.test(previous) && whole.length > 1) {
      flush();
      tokens.push({ type: 'tag', text: whole });
    } else if (match[4] !== undefined && !MENTION_BLOCKED_AFTER.test(previous)) {
      flush();
      tokens.push({ type: 'mention', text: whole });
    } else {
      plain += whole;
    }
  }
  plain += text.slice(cursor);
  flush();
  return tokens;
}
