import { Link, useLocation } from 'react-router';
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
  return (
    <nav className={styles.switch} aria-label={LABELS[language]}>
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm-9 9h18M12 3c2.5 2.6 3.7 5.6 3.7 9s-1.2 6.4-3.7 9c-2.5-2.6-3.7-5.6-3.7-9s1.2-6.4 3.7-9z" />
      </svg>
      <Link
        className={`${styles.link} ${tone === 'dark' ? styles.onDark : ''}`}
        to={pathInLanguage(pathname, search, target)}
        reloadDocument
        lang={target}
        hrefLang={target}
      >
        {LANGUAGE_NAMES[target]}
      </Link>
    </nav>
  );
}
