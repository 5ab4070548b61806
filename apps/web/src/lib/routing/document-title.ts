import { useEffect } from 'react';
import { useMatches, type UIMatch } from 'react-router';
import type { Language } from '@guquan/contract/language';
import { DEFAULT_TITLES, type Titles } from '../../config/route-table';
import { useLanguage } from '../i18n/language-context';

export interface RouteHandle {
  titles?: Titles;
}

interface MatchWithHandle {
  handle?: unknown;
}

function titlesOf(match: MatchWithHandle): Titles | undefined {
  const handle = match.handle as RouteHandle | undefined;
  return handle?.titles;
}

/** The title rule: the deepest matched route's title, else the app's default title. */
export function titleForMatches(matches: readonly MatchWithHandle[], language: Language): string {
  const titled = matches.findLast((match) => titlesOf(match) !== undefined);
  return (titled ? titlesOf(titled) : undefined)?.[language] ?? DEFAULT_TITLES[language];
}

/** Keeps document.title in step with the current route (every navigation, back and forward). */
export function useDocumentTitle(): void {
  const matches: UIMatch[] = useMatches();
  const language = useLanguage();
  const title = titleForMatches(matches, language);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
