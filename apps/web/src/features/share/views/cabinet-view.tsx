import type { Cabinet } from '@guquan/contract/share';
import { useLanguage } from '../../../lib/i18n/language-context';
import { pluralText } from '../../../lib/i18n/plural';
import { OpenAppButton } from '../open-in-app/open-app-button';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { GoodsTile, GoodsTiles } from './goods-tile';
import { PhotoGallery } from '../media/photo-gallery';
import { fill, useShareTexts } from '../texts/share-texts';
import { StatList } from './stat-list';
import { UserChip } from './user-chip';
import { UserText } from './user-text';
import shared from './share-view.module.css';
import styles from './cabinet-view.module.css';

/**
 * The tiles a phone shows without scrolling, about two rows: their images load once the cover is
 * on the screen (before it, they would share a slow line with it). The rest wait until they come
 * near the screen (a cabinet can hold 200 goods).
 */
const TILES_IN_FIRST_SCREEN = 6;

/** A cabinet share: its cover, whose it is, how many goods, and the goods, each to its own page. */
export function CabinetView({ cabinet }: { cabinet: Cabinet }) {
  const text = useShareTexts();
  const language = useLanguage();
  const { openApp } = useAppPrompt();
  const hidden = cabinet.itemCount - cabinet.items.length;
  return (
    <article className={shared.layout} aria-labelledby="share-title">
      {/* The cover, tapped, opens full screen in the viewer, as a goods' images do. */}
      <PhotoGallery
        images={[
          cabinet.cover.alt
            ? cabinet.cover
            : { ...cabinet.cover, alt: fill(text.cover, { name: cabinet.name }) },
        ]}
        name={cabinet.name}
      />
      <div className={shared.body}>
        <h1 id="share-title" className={shared.title}>
          {cabinet.name}
        </h1>
        <div className={styles.meta}>
          <UserChip user={cabinet.owner} role={text.owner} avatarDefer="picture" />
          <p className={styles.count}>{pluralText(language, cabinet.itemCount, text.itemCount)}</p>
        </div>
        <StatList stats={[['likes', cabinet.likes]]} />
        {cabinet.text ? <UserText text={cabinet.text} className={shared.text} /> : null}
      </div>
      <section className={shared.section} aria-labelledby="cabinet-items">
        <h2 id="cabinet-items" className={shared.sectionTitle}>
          {text.itemsHeading}
        </h2>
        {cabinet.items.length === 0 ? <p className={shared.muted}>{text.noItems}</p> : null}
        <GoodsTiles className={styles.tiles}>
          {cabinet.items.map((item, index) => (
            <li key={`${item.id}-${index}`}>
              <GoodsTile goods={item} defer={index >= TILES_IN_FIRST_SCREEN ? 'near' : 'picture'}>
                <span className={styles.work}>{item.work}</span>
              </GoodsTile>
            </li>
          ))}
        </GoodsTiles>
        {hidden > 0 ? (
          <button type="button" className={shared.more} onClick={openApp}>
            {pluralText(language, hidden, text.itemsMore)}
          </button>
        ) : null}
      </section>
      <OpenAppButton>{text.openInApp.cabinet}</OpenAppButton>
    </article>
  );
}
