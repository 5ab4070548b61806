import { Suspense, use } from 'react';
import { Link, useLocation } from 'react-router';
import type { WorkShelf as Shelf } from '@guquan/contract/share-shelf';
import { formatPrice } from '@guquan/contract/price';
import { TILE_SLOT } from '../share-image/image-slots';
import { ShareImage } from '../share-image/share-image';
import { goodsSharePath } from '../share-links';
import { fill } from '../share-texts';
import { StatusBadge } from '../status-badge/status-badge';
import shared from '../share-view.module.css';
import { useWorkShelfTexts } from './work-shelf-texts';
import styles from './work-shelf.module.css';

type ShelfData = Shelf | null | Promise<Shelf | null>;

/**
 * "More from this work": public goods of the item's work (or, where the page names none, the
 * newest of any), each a tile to its own share page: its image, name, and price when for sale.
 * Nothing when there is no shelf: the page ends without it. While the browser fetches it, nothing
 * either (it comes below what the visitor reads first).
 */
export function WorkShelf({ shelf }: { shelf: ShelfData }) {
  return (
    <Suspense fallback={null}>
      <ResolvedShelf shelf={shelf} />
    </Suspense>
  );
}

function ResolvedShelf({ shelf }: { shelf: ShelfData }) {
  const resolved = shelf instanceof Promise ? use(shelf) : shelf;
  if (!resolved || resolved.goods.length === 0) return null;
  return <ShelfSection shelf={resolved} />;
}

function ShelfSection({ shelf }: { shelf: Shelf }) {
  const text = useWorkShelfTexts();
  const { search } = useLocation();
  const heading = shelf.work === null ? text.newest : fill(text.ofWork, { work: shelf.work });
  return (
    <section className={`${shared.section} ${styles.shelf}`} aria-labelledby="work-shelf-title">
      <h2 id="work-shelf-title" className={shared.sectionTitle}>
        {heading}
      </h2>
      <ul className={styles.grid} data-work-shelf="">
        {shelf.goods.map((goods) => (
          <li key={goods.id}>
            <Link className={styles.tile} to={goodsSharePath(goods.id, search)}>
              <span className={styles.imageBox}>
                <ShareImage
                  image={goods.cover}
                  slot={TILE_SLOT}
                  defer="near"
                  fallbackAlt=""
                  className={styles.tileImage}
                />
                <StatusBadge status={goods.status} className={styles.badge} />
              </span>
              <span className={styles.name}>{goods.name}</span>
              {goods.status === 'selling' && goods.priceFen !== null ? (
                <span className={styles.price}>
                  <span className="visually-hidden">{text.price}：</span>
                  {formatPrice(goods.priceFen)}
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
