import { useEffect, useEffectEvent, useRef } from 'react';
import type { Image } from '@guquan/contract/share';
import { ImageSlides } from './image-slide';
import { HERO_SLOT } from './image-slots';
import { ShareImage } from './share-image';
import { fill, useShareTexts } from '../texts/share-texts';
import shared from '../views/share-view.module.css';
import styles from './image-gallery.module.css';

/**
 * The swipeable images at the top of a goods or note page: CSS scroll snap does the swipe, the
 * "2/5" counter follows the scroll, a tap opens the image full screen. The first image is the
 * page's largest paint: loaded at once, with the srcset and sizes the server preloaded. For a
 * mouse (and the keyboard), arrows go to the previous and next image; a touch screen hides them.
 */
export function ImageGallery({
  images,
  name,
  index,
  onIndexChange,
  onOpen,
}: {
  images: readonly Image[];
  name: string;
  index: number;
  onIndexChange: (index: number) => void;
  onOpen: (index: number) => void;
}) {
  const text = useShareTexts();
  const trackRef = useRef<HTMLDivElement>(null);
  /** The index the scroll position last reported: not scrolled to again by the effect below. */
  const scrolledIndex = useRef(index);
  const total = images.length;

  useEffect(() => {
    // The index changed elsewhere (the full-screen viewer): show the same image here.
    const track = trackRef.current;
    if (!track || scrolledIndex.current === index) return;
    scrolledIndex.current = index;
    track.scrollTo({ left: index * track.clientWidth });
  }, [index]);

  function onScroll() {
    const track = trackRef.current;
    if (!track || track.clientWidth === 0) return;
    const next = Math.min(total - 1, Math.max(0, Math.round(track.scrollLeft / track.clientWidth)));
    if (next === scrolledIndex.current) return;
    scrolledIndex.current = next;
    onIndexChange(next);
  }

  // A swipe before the app was here (a share page is the server's until the visitor's first
  // intent, docs/decisions/0031-share-pages-start-without-react.md, and a swipe is one) left the
  // track scrolled, and no scroll event follows: read it once, on hydration. After the effect
  // above, which would otherwise scroll back to `index`.
  const readScroll = useEffectEvent(onScroll);
  useEffect(() => {
    readScroll();
  }, []);

  /**
   * Scrolls to the image `step` away (smoothly where the CSS says so); the scroll reports the new
   * index (onScroll).
   */
  function go(step: -1 | 1) {
    const track = trackRef.current;
    const next = index + step;
    if (track && next >= 0 && next < total) track.scrollTo({ left: next * track.clientWidth });
  }
  const goBack = () => {
    go(-1);
  };
  const goOn = () => {
    go(1);
  };

  return (
    <section
      className={`${styles.gallery} ${shared.media}`}
      aria-roledescription="carousel"
      aria-label={text.gallery}
    >
      <div ref={trackRef} className={styles.track} onScroll={onScroll}>
        <ImageSlides images={images} className={styles.slide}>
          {(image, position) => (
            <button
              type="button"
              className={styles.open}
              aria-haspopup="dialog"
              onClick={() => {
                onOpen(position);
              }}
            >
              <ShareImage
                image={image}
                slot={HERO_SLOT}
                priority={position === 0}
                defer={position === 0 ? undefined : 'settled'}
                fallbackAlt={fill(text.imageAlt, { name, n: position + 1 })}
                className={position === 0 ? styles.image : `${styles.image} ${styles.fitted}`}
              />
              <span className="visually-hidden">{text.viewLarge}</span>
            </button>
          )}
        </ImageSlides>
      </div>
      {total > 1
        ? ([-1, 1] as const).map((step) => (
            <button
              key={step}
              type="button"
              className={`${styles.arrow} ${step < 0 ? styles.previous : styles.next}`}
              aria-label={step < 0 ? text.viewerPrevious : text.viewerNext}
              aria-disabled={index + step < 0 || index + step >= total}
              onClick={step < 0 ? goBack : goOn}
            />
          ))
        : null}
      {total > 1 ? (
        <p className={styles.counter} aria-hidden="true">
          {index + 1}/{total}
        </p>
      ) : null}
    </section>
  );
}
