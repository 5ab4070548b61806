import { AppMark } from '../../components/app-mark/app-mark';
import type { WebsiteTexts } from './website-content';
import page from './website-page.module.css';
import styles from './site-header.module.css';

export function SiteHeader({ text }: { text: WebsiteTexts['header'] }) {
  return (
    <header className={styles.header}>
      <div className={`${page.container} ${styles.bar}`}>
        <p className={styles.brand}>
          <AppMark className={styles.logo} />
          <span>{text.brand}</span>
        </p>
        <nav className={styles.nav} aria-label={text.navLabel}>
          <ul className={styles.navList}>
            {text.nav.map((item) => (
              <li key={item.target}>
                <a className={styles.navLink} href={`#${item.target}`}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
