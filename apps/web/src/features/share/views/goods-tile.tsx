import type { ComponentProps, ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { formatPrice } from '@guquan/contract/price';
import type { GoodsStatus, Image } from '@guquan/contract/share';
import type { DeferUntil } from '../../../lib/dom/deferred-images';
import { TILE_SLOT } from '../media/image-slots';
import { ShareImage } from '../media/share-image';
import { goodsSharePath } from '../page/share-links';
import { useShareTexts } from '../texts/share-texts';
import { StatusBadge } from './status-badge';
import styles from './goods-tile.module.css';

/** What a goods tile shows of a goods: a cabinet's item or a shelf's goods. */
export interface TileGoods {
  id: string;
  name: string;
  cover: Image;
  status: GoodsStatus;
  /** Shown only while the goods is for sale; null or absent: none set. */
  priceFen?: number | null;
}

/** The list goods tiles stand in, three to a row. */
export function GoodsTiles({ className, ...list }: ComponentProps<'ul'>) {
  return <ul className={className ? `${styles.grid} ${className}` : styles.grid} {...list} />;
}

/**
 * One goods as a tile, a link to its own share page (the page's `?lang=` kept): its picture with
 * its status, its name, and its price when for sale. `children` follow (a cabinet names the work).
 */
export function GoodsTile({
  goods,
  defer,
  lightPrice = false,
  children,
}: {
  goods: TileGoods;
  /**
   * When its picture loads: once the page's picture is on the screen (the first screen's tiles),
   * or as it nears the screen.
   */
  defer: DeferUntil;
  /**
   * The price semi-bold, its digits proportional: as the "more from this work" shelf has drawn it
   * since it came. Otherwise bold with tabular digits, as the goods' own page shows it.
   */
  lightPrice?: boolean;
  children?: ReactNode;
}) {
  const text = useShareTexts();
  const { search } = useLocation();
  return (
    <Link className={styles.tile} to={goodsSharePath(goods.id, search)}>
      <span className={styles.imageBox}>
        <ShareImage
          image={goods.cover}
          slot={TILE_SLOT}
          defer={defer}
          fallbackAlt=""
          className={styles.image}
        />
        <StatusBadge status={goods.status} className={styles.badge} />
      </span>
      <span className={styles.name}>{goods.name}</span>
      {goods.status === 'selling' && goods.priceFen != null ? (
        <span className={lightPrice ? `${styles.price} ${styles.light}` : styles.price}>
          <span className="visually-hidden">{text.price}：</span>
          {formatPrice(goods.priceFen)}
        </span>
      ) : null}
      {children}
    </Link>
  );
}
