import { LanguageSwitch } from '../language-switch/language-switch';
import styles from './page-footer.module.css';

/** The end of a share, legal or not-found page: the way to the same page in the other language. */
export function PageFooter() {
  return (
    <footer className={styles.footer}>
      <LanguageSwitch />
    </footer>
  );
}
