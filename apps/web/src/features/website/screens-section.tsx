import type { WebsiteTexts } from './website-content';
import goodsUrl from './illustrations/screen-goods.svg';
import cabinetUrl from './illustrations/screen-cabinet.svg';
import notesUrl from './illustrations/screen-notes.svg';
import page from './website-page.module.css';
import styles from './screens-section.module.css';

/** The screen drawn for each preview the content lists (by its id). */
const screens: Readonly<Record<string, string>> = {
  goods: goodsUrl,
  cabinet: cabinetUrl,
  notes: notesUrl,
};

export function ScreensSection({ text }: { text: WebsiteTexts['screens'] }) {
  return (
    <section
      id="screens"
      className={`${page.section} ${styles.section}`}
      aria-labelledby="screens-title"
    >
      <div className={page.container}>
        <h2 id="screens-title" className={page.sectionTitle}>
          {text.heading}
        </h2>
        <p className={page.sectionIntro}>{text.intro}</p>
        {/* Scrolls sideways on phones: focusable so the keyboard can scroll it too. */}
        <div className={styles.scroller} role="region" aria-label={text.listLabel} tabIndex={0}>
          <ul className={styles.list}>
            {text.items.map((item) => {
              const screen = screens[item.id];
              return (
                <li key={item.id} className={styles.item}>
                  <figure className={styles.figure}>
                    {screen ? (
                      <img
                        className={styles.image}
                        src={screen}
                        width={180}
                        height={360}
                        alt={item.alt}
                        loading="lazy"
                      />
                    ) : null}
                    <figcaption className={styles.caption}>{item.caption}</figcaption>
                  </figure>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </section>
  );
}
