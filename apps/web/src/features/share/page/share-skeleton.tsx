import type { ShareKind } from '@guquan/contract/share-paths';
import { useShareTexts } from '../texts/share-texts';
import shimmer from '../../../components/shimmer.module.css';
import styles from './share-skeleton.module.css';

/** The parts of each kind's page that the skeleton draws: hero picture, price row, grid of goods. */
const SHAPES: Readonly<
  Record<ShareKind, { hero: 'gallery' | 'cover'; price: boolean; grid: boolean }>
> = {
  goods: { hero: 'gallery', price: true, grid: false },
  cabinet: { hero: 'cover', price: false, grid: true },
  note: { hero: 'gallery', price: false, grid: false },
};

/**
 * What a share page shows while its item loads: grey shapes where the page's parts will be, of
 * their size, so nothing jumps when the item arrives.
 */
export function ShareSkeleton({ kind }: { kind: ShareKind }) {
  const text = useShareTexts();
  const shape = SHAPES[kind];
  return (
    <div className={styles.skeleton} aria-busy="true" data-kind={kind}>
      <p className="visually-hidden" role="status">
        {text.loading}
      </p>
      <div className={`${shimmer.shimmer} ${styles[shape.hero]}`} />
      <div className={styles.body} aria-hidden="true">
        <div className={`${shimmer.shimmer} ${styles.title}`} />
        {shape.price ? <div className={`${shimmer.shimmer} ${styles.price}`} /> : null}
        <div className={styles.owner}>
          <div className={`${shimmer.shimmer} ${styles.avatar}`} />
          <div className={`${shimmer.shimmer} ${styles.name}`} />
        </div>
        <div className={`${shimmer.shimmer} ${styles.line}`} />
        <div className={`${shimmer.shimmer} ${styles.line}`} />
        <div className={`${shimmer.shimmer} ${styles.short}`} />
        {shape.grid ? (
          <div className={styles.grid}>
            {Array.from({ length: 6 }, (_, index) => (
              <div key={index} className={`${shimmer.shimmer} ${styles.tile}`} />
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
