import { Link } from 'react-router';
import type { Language } from '@guquan/contract/language';
import { LanguageSwitch } from '../../components/language-switch/language-switch';
import { copyrightYears } from '../../lib/format/dates';
import { company, routePathById, telHref, type WebsiteTexts } from './website-content';
import page from './website-page.module.css';
import styles from './site-footer.module.css';

export function SiteFooter({
  text,
  brand,
  language,
}: {
  text: WebsiteTexts['footer'];
  brand: string;
  language: Language;
}) {
  const companyName = language === 'zh-CN' ? company.name : company.nameEn;
  // The address and the filing numbers are official Chinese texts: marked as such in English.
  const chinese = language === 'zh-CN' ? undefined : 'zh-CN';
  return (
    <footer className={styles.footer}>
      <div className={`${page.container} ${styles.grid}`}>
        <div className={styles.company}>
          <p className={styles.brand}>{brand}</p>
          <dl className={styles.facts}>
            <div>
              <dt>{text.companyLabel}</dt>
              <dd>{companyName}</dd>
            </div>
            <div>
              <dt>{text.addressLabel}</dt>
              <dd lang={chinese}>{company.address}</dd>
            </div>
            <div>
              <dt>{text.emailLabel}</dt>
              <dd>
                <a className={styles.link} href={`mailto:${company.email}`}>
                  {company.email}
                </a>
              </dd>
            </div>
            <div>
              <dt>{text.phoneLabel}</dt>
              <dd>
                <a className={styles.link} href={telHref(company.phone)}>
                  {company.phone}
                </a>
              </dd>
            </div>
          </dl>
        </div>
        <nav className={styles.agreements} aria-label={text.agreementsLabel}>
          <p className={styles.heading}>{text.agreementsLabel}</p>
          <ul className={styles.links}>
            {text.agreements.map((agreement) => {
              const path = routePathById(agreement.route);
              return path ? (
                <li key={agreement.route}>
                  <Link className={styles.link} to={path}>
                    {agreement.label}
                  </Link>
                </li>
              ) : null;
            })}
          </ul>
        </nav>
        <div className={styles.filings}>
          <p className={styles.heading}>{text.filingLabel}</p>
          <ul className={styles.links}>
            <li>
              <a className={styles.link} href={company.icpUrl} lang={chinese}>
                {company.icp}
              </a>
            </li>
            <li>
              <a className={styles.link} href={company.publicSecurityUrl} lang={chinese}>
                {company.publicSecurity}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className={`${page.container} ${styles.bottom}`}>
        {/* The years end at the render's clock; a page built last year keeps its own text. */}
        <p className={styles.copyright} suppressHydrationWarning>
          © {copyrightYears(text.copyrightYear)} {companyName} {text.rightsReserved}
        </p>
        <LanguageSwitch tone="dark" />
      </div>
    </footer>
  );
}
