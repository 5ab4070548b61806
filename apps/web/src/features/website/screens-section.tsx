import type { WebsiteTexts } from './website-content';
import goodsUrl from './screens/screen-goods.webp';
import cabinetUrl from './screens/screen-cabinet.webp';
import notesUrl from './screens/screen-notes.webp';
import page from './website-page.module.css';
import styles from './screens-section.module.css';

/**
 * The real screen for each preview the content lists (by its id): the demo data's share pages as
 * a phone shows them, taken by scripts/make-screens.mjs (360 × 720, at twice the size).
 */
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
        {/* Every screen the intro promises in view, none behind a sideways scroll (issue 39). */}
        <div className={styles.screens} role="region" aria-label={text.listLabel}>
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
                        width={360}
                        height={720}
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
