import { Link } from 'react-router';
import { PageColumn } from '../../components/page-column/page-column';
import { PageFooter } from '../../components/page-footer/page-footer';
import { useLanguage } from '../../lib/i18n/language-context';
import type { LegalDocument } from './legal-document';
import { formatCalendarDate } from '../../lib/format/dates';
import { legalTexts } from './legal-texts';
import { versionsOf } from '../../config/legal-versions';
import styles from './legal-document-page.module.css';

function DocumentBody({ html }: { html: string }) {
  // The HTML is our own Markdown, rendered at build time with raw HTML disabled
  // (build/legal-markdown.ts): no user content ever reaches this element.
  // eslint-disable-next-line no-restricted-syntax
  return <div className={styles.body} dangerouslySetInnerHTML={{ __html: html }} />;
}

export function LegalDocumentPage({ document }: { document: LegalDocument }) {
  const language = useLanguage();
  const text = legalTexts(language);
  const versions = versionsOf(document.document);
  const latest = versions[0];
  const superseded = latest !== undefined && latest.version !== document.version;
  return (
    <PageColumn wide>
      <header className={styles.topBar}>
        <Link className={styles.brand} to="/website">
          <span className={styles.brandMark} aria-hidden="true">
            谷
          </span>
          {text.brandHome}
        </Link>
      </header>
      <article className={styles.article} aria-labelledby="document-title">
        <header className={styles.header}>
          <h1 id="document-title" className={styles.title}>
            {document.title}
          </h1>
          <dl className={styles.dates}>
            <div>
              <dt>{text.effective}</dt>
              <dd>
                <time dateTime={document.effective}>
                  {formatCalendarDate(document.effective, language)}
                </time>
              </dd>
            </div>
            <div>
              <dt>{text.updated}</dt>
              <dd>
                <time dateTime={document.updated}>
                  {formatCalendarDate(document.updated, language)}
                </time>
              </dd>
            </div>
          </dl>
        </header>

        {superseded ? (
          <p className={styles.notice} role="note">
            {text.supersededNotice(formatCalendarDate(document.version, language))}{' '}
            <Link to={latest.path}>
              {text.readLatest(formatCalendarDate(latest.version, language))}
            </Link>
          </p>
        ) : null}
        {text.chineseAuthoritative ? (
          <p className={styles.notice} role="note" lang="en">
            {text.chineseAuthoritative}
          </p>
        ) : null}

        <section className={styles.summary} aria-labelledby="document-summary">
          <h2 id="document-summary" className={styles.sectionHeading}>
            {text.summary}
          </h2>
          <p lang="zh-CN">{document.summary}</p>
        </section>

        {document.toc.length > 0 ? (
          <nav className={styles.toc} aria-labelledby="document-contents">
            <h2 id="document-contents" className={styles.sectionHeading}>
              {text.contents}
            </h2>
            <ol>
              {document.toc.map((entry) => (
                <li key={entry.id}>
                  <a href={`#${entry.id}`} lang="zh-CN">
                    {entry.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}

        <div lang="zh-CN">
          <DocumentBody html={document.html} />
        </div>

        <section className={styles.versions} aria-labelledby="document-versions">
          <h2 id="document-versions" className={styles.sectionHeading}>
            {text.versions}
          </h2>
          <ul>
            {versions.map((version) => {
              const here = version.version === document.version;
              const label = `${document.title} · ${formatCalendarDate(version.version, language)}`;
              return (
                <li key={version.version}>
                  {here ? (
                    <span aria-current="page">{label}</span>
                  ) : (
                    <Link to={version.path}>{label}</Link>
                  )}
                  {version === latest ? (
                    <span className={styles.tag}>{text.currentVersion}</span>
                  ) : null}
                  {here ? <span className={styles.tag}>{text.viewing}</span> : null}
                </li>
              );
            })}
          </ul>
        </section>
        <p className={styles.backToTop}>
          <a href="#document-title">{text.backToTop}</a>
        </p>
      </article>
      <PageFooter />
    </PageColumn>
  );
}
