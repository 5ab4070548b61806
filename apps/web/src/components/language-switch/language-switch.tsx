import { Link, useLocation } from 'react-router';
import { useHydrated } from '../../lib/dom/use-hydrated';
import { useLanguage } from '../../lib/i18n/language-context';
import { LANGUAGE_NAMES, otherLanguage, pathInLanguage } from '../../lib/i18n/language-switch';
import styles from './language-switch.module.css';

const LABELS = { 'zh-CN': '语言', en: 'Language' } as const;

/**
 * The same page in the other language: a real link (it works before the page's code, and opens in
 * a new tab), its name in the language it leads to. A whole page load, as the server chooses the
 * language once per load. `tone` fits it on a light footer or the website's dark one.
 */
export function LanguageSwitch({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const language = useLanguage();
  const { pathname, search } = useLocation();
  const target = otherLanguage(language);
  // A page rendered once for many addresses (a share page's cacheable one, the not-found page)
  // has the server's address in its link; hydration keeps that attribute, so the link is made
  // again once hydrated, with this address's path and parameters.
  const hydrated = useHydrated();
  return (
    <nav className={styles.switch} aria-label={LABELS[language]}>
      <Link
        key={hydrated ? 'here' : 'served'}
        className={`${styles.link} ${tone === 'dark' ? styles.onDark : ''}`}
        to={pathInLanguage(pathname, search, target)}
        reloadDocument
        // Said in the markup too: a share page's start-up script lets the browser follow it before
        // React is here, instead of holding it for the router (start/start-on-intent.ts).
        data-reload-document
        lang={target}
        hrefLang={target}
      >
        {LANGUAGE_NAMES[target]}
      </Link>
    </nav>
  );
}
