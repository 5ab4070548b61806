import { useClientInfo } from '../../lib/client/client-info-context';
import { storeOrder, type WebsiteTexts } from './website-content';
import { StoreLink } from './store-link';
import heroUrl from './illustrations/hero-phone.svg';
import page from './website-page.module.css';
import styles from './hero-section.module.css';

export function HeroSection({
  text,
  stores,
  onNeedBrowser,
}: {
  text: WebsiteTexts['hero'];
  stores: WebsiteTexts['download'];
  onNeedBrowser: () => void;
}) {
  const [first, second] = storeOrder(useClientInfo().platform);
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <div className={`${page.container} ${styles.inner}`}>
        <div className={styles.copy}>
          <p className={styles.eyebrow}>{text.eyebrow}</p>
          <h1 id="hero-title" className={styles.title}>
            {text.title}
          </h1>
          <p className={styles.lead}>{text.lead}</p>
          <div className={styles.actions}>
            <StoreLink store={first} prominent onNeedBrowser={onNeedBrowser}>
              {stores[first].label}
            </StoreLink>
            <StoreLink store={second} prominent={false} onNeedBrowser={onNeedBrowser}>
              {stores[second].label}
            </StoreLink>
          </div>
          <p className={styles.note}>{text.note}</p>
        </div>
        <div className={styles.art}>
          <img
            className={styles.phone}
            src={heroUrl}
            width={300}
            height={600}
            alt={text.imageAlt}
            fetchPriority="high"
          />
        </div>
      </div>
    </section>
  );
}
