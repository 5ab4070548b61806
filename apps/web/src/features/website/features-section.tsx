import type { WebsiteTexts } from './website-content';
import collectUrl from './illustrations/feature-collect.svg';
import cabinetUrl from './illustrations/feature-cabinet.svg';
import notesUrl from './illustrations/feature-notes.svg';
import tradeUrl from './illustrations/feature-trade.svg';
import exposeUrl from './illustrations/feature-expose.svg';
import page from './website-page.module.css';
import styles from './features-section.module.css';

/** The icon drawn for each feature the content lists (by its id). */
const icons: Readonly<Record<string, string>> = {
  collect: collectUrl,
  cabinet: cabinetUrl,
  notes: notesUrl,
  trade: tradeUrl,
  expose: exposeUrl,
};

export function FeaturesSection({ text }: { text: WebsiteTexts['features'] }) {
  return (
    <section id="features" className={page.section} aria-labelledby="features-title">
      <div className={page.container}>
        <h2 id="features-title" className={page.sectionTitle}>
          {text.heading}
        </h2>
        <p className={page.sectionIntro}>{text.intro}</p>
        <ul className={styles.list}>
          {text.items.map((item) => {
            const icon = icons[item.id];
            return (
              <li key={item.id} className={styles.card}>
                {icon ? (
                  <img className={styles.icon} src={icon} width={48} height={48} alt="" />
                ) : null}
                <div>
                  <h3 className={styles.title}>{item.title}</h3>
                  <p className={styles.text}>{item.text}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
