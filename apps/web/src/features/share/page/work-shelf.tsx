import { Suspense, use } from 'react';
import type { WorkShelf as Shelf } from '@guquan/contract/share-shelf';
import { GoodsTile, GoodsTiles } from '../views/goods-tile';
import { fill } from '../texts/share-texts';
import shared from '../views/share-view.module.css';
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
  const heading = shelf.work === null ? text.newest : fill(text.ofWork, { work: shelf.work });
  return (
    <section className={`${shared.section} ${styles.shelf}`} aria-labelledby="work-shelf-title">
      <h2 id="work-shelf-title" className={shared.sectionTitle}>
        {heading}
      </h2>
      <GoodsTiles data-work-shelf="">
        {shelf.goods.map((goods) => (
          <li key={goods.id}>
            <GoodsTile goods={goods} defer="near" lightPrice />
          </li>
        ))}
      </GoodsTiles>
    </section>
  );
}
