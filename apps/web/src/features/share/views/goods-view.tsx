import type { Goods } from '@guquan/contract/share';
import { OpenAppButton } from '../open-in-app/open-app-button';
import { PhotoGallery } from '../media/photo-gallery';
import { formatPrice } from '@guquan/contract/price';
import { ShareDate } from './share-date';
import { useShareTexts } from '../texts/share-texts';
import { StatList } from './stat-list';
import { StatusBadge } from './status-badge';
import { TagList } from './tag-list';
import { UserChip } from './user-chip';
import { UserText } from './user-text';
import shared from './share-view.module.css';
import styles from './goods-view.module.css';

/** A goods share: its images, what it is, its price and status, whose it is, what they wrote. */
export function GoodsView({ goods }: { goods: Goods }) {
  const text = useShareTexts();
  const facts: [string, string][] = [
    [text.work, goods.work],
    ...(goods.character ? [[text.character, goods.character] as [string, string]] : []),
    [text.category, goods.category],
  ];
  return (
    <article className={shared.layout} aria-labelledby="share-title">
      <PhotoGallery images={goods.images} name={goods.name} />
      <div className={shared.body}>
        <div className={styles.priceRow}>
          <StatusBadge status={goods.status} />
          {goods.priceFen === null ? (
            <p className={styles.noPrice}>{text.noPrice}</p>
          ) : (
            <p className={styles.price}>
              <span className="visually-hidden">{text.price}：</span>
              {formatPrice(goods.priceFen)}
            </p>
          )}
        </div>
        <h1 id="share-title" className={shared.title}>
          {goods.name}
        </h1>
        <dl className={styles.facts}>
          {facts.map(([label, value]) => (
            <div key={label} className={styles.fact}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <div className={styles.ownerRow}>
          <UserChip user={goods.owner} role={text.owner} avatarDefer="picture" />
          <StatList
            stats={[
              ['likes', goods.likes],
              ['wants', goods.wants],
            ]}
          />
        </div>
        {goods.text ? <UserText text={goods.text} className={shared.text} /> : null}
        <TagList tags={goods.tags} />
        <p className={shared.muted}>
          <ShareDate iso={goods.createdAt} posted />
        </p>
      </div>
      <OpenAppButton>{text.openInApp.goods}</OpenAppButton>
    </article>
  );
}
