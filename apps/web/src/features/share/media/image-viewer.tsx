import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type PointerEvent,
} from 'react';
import type { Image } from '@guquan/contract/share';
import { ImageSlides } from './image-slide';
import { FULL_SCREEN_SLOT } from './image-slots';
import { ShareImage } from './share-image';
import { fill, useShareTexts } from '../texts/share-texts';
import {
  clampTransform,
  containedSize,
  IDENTITY,
  pinch,
  toCss,
  toggleZoom,
  type Point,
  type Size,
  type Transform,
} from './zoom';
import { ModalDialog } from '../../../components/modal-dialog/modal-dialog';
import styles from './image-viewer.module.css';

/** Farther than this (CSS px) down, or faster than DISMISS_SPEED, closes the viewer. */
const DISMISS_DISTANCE = 120;
const DISMISS_SPEED = 0.6;
/** A flick must still travel this far: a small jitter is not a swipe. */
const DISMISS_FLICK = 48;
const TAP_SLOP = 10;
const DOUBLE_TAP_MS = 300;
const LONG_PRESS_MS = 500;

type Gesture =
  | { type: 'none' }
  | { type: 'press'; origin: Point; time: number }
  | { type: 'dismiss'; origin: Point; time: number; dy: number }
  | { type: 'pan'; origin: Point; time: number; start: Transform }
  | { type: 'pinch'; start: Transform; startPointers: readonly [Point, Point] };

const FOCUSABLE = 'button:not([disabled])';

/**
 * The full-screen viewer: a modal dialog over the page. Swipe sideways between images (CSS scroll
 * snap), pinch or double-tap to zoom, drag to look around, swipe down, Escape or the close
 * button to close. The caller decides what closing means (going back in history).
 */
export interface ImageViewerProps {
  images: readonly Image[];
  name: string;
  startIndex: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

export function ImageViewer({
  images,
  name,
  startIndex,
  onIndexChange,
  onClose,
}: ImageViewerProps) {
  const text = useShareTexts();
  const titleId = useId();
  const trackRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const imageRefs = useRef<(HTMLImageElement | null)[]>([]);
  const [index, setIndex] = useState(startIndex);
  const indexRef = useRef(startIndex);
  const [zoomed, setZoomed] = useState(false);
  const transform = useRef<Transform>(IDENTITY);
  const gesture = useRef<Gesture>({ type: 'none' });
  const pointers = useRef(new Map<number, Point>());
  const lastTap = useRef<{ time: number; point: Point } | null>(null);
  const total = images.length;

  useLayoutEffect(() => {
    const track = trackRef.current;
    if (track) track.scrollLeft = startIndex * track.clientWidth;
  }, [startIndex]);

  function goTo(next: number) {
    const track = trackRef.current;
    if (!track || next < 0 || next >= total) return;
    track.scrollTo({ left: next * track.clientWidth, behavior: 'smooth' });
  }

  // The arrows go between the images wherever the focus is (ModalDialog handles Escape).
  const onKeyDown = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      goTo(indexRef.current + (event.key === 'ArrowLeft' ? -1 : 1));
    }
  });

  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => {
      onKeyDown(event);
    };
    document.addEventListener('keydown', listener);
    return () => {
      document.removeEventListener('keydown', listener);
    };
  }, []);

  function viewport(): Size {
    const track = trackRef.current;
    return { width: track?.clientWidth ?? 1, height: track?.clientHeight ?? 1 };
  }

  function contentSize(): Size {
    const image = images[indexRef.current];
    return image ? containedSize(image, viewport()) : viewport();
  }

  /** A point of the screen, relative to the viewport's centre. */
  function pointOf(event: { clientX: number; clientY: number }): Point {
    const rect = trackRef.current?.getBoundingClientRect();
    const left = rect?.left ?? 0;
    const top = rect?.top ?? 0;
    const { width, height } = viewport();
    return { x: event.clientX - left - width / 2, y: event.clientY - top - height / 2 };
  }

  function apply(next: Transform, animate = false) {
    transform.current = next;
    const image = imageRefs.current[indexRef.current];
    if (image) {
      image.style.transition = animate ? 'transform 0.2s ease-out' : 'none';
      image.style.transform = toCss(next);
    }
    setZoomed(next.scale > 1.01);
  }

  function setBackdrop(progress: number, animate = false) {
    const dialog = trackRef.current?.closest('dialog');
    if (!dialog) return;
    dialog.style.transition = animate ? 'background-color 0.2s ease-out' : 'none';
    dialog.style.backgroundColor = `rgb(0 0 0 / ${Math.max(0.2, 1 - progress)})`;
  }

  function onScroll() {
    const track = trackRef.current;
    if (!track) return;
    const next = Math.min(total - 1, Math.max(0, Math.round(track.scrollLeft / track.clientWidth)));
    if (next === indexRef.current) return;
    apply(IDENTITY);
    indexRef.current = next;
    setIndex(next);
    onIndexChange(next);
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    const point = pointOf(event);
    pointers.current.set(event.pointerId, point);
    const [first, second] = [...pointers.current.values()];
    if (first && second) {
      event.currentTarget.setPointerCapture(event.pointerId);
      gesture.current = { type: 'pinch', start: transform.current, startPointers: [first, second] };
    } else if (transform.current.scale > 1.01) {
      event.currentTarget.setPointerCapture(event.pointerId);
      gesture.current = {
        type: 'pan',
        origin: point,
        time: event.timeStamp,
        start: transform.current,
      };
    } else {
      gesture.current = { type: 'press', origin: point, time: event.timeStamp };
    }
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!pointers.current.has(event.pointerId)) return;
    const point = pointOf(event);
    pointers.current.set(event.pointerId, point);
    const current = gesture.current;
    if (current.type === 'pinch') {
      const [first, second] = [...pointers.current.values()];
      if (first && second) apply(pinch(current.start, current.startPointers, [first, second]));
    } else if (current.type === 'pan') {
      const moved = {
        ...current.start,
        x: current.start.x + point.x - current.origin.x,
        y: current.start.y + point.y - current.origin.y,
      };
      apply(clampTransform(moved, viewport(), contentSize()));
    } else if (current.type === 'press' || current.type === 'dismiss') {
      const dx = point.x - current.origin.x;
      const dy = point.y - current.origin.y;
      if (current.type === 'press' && dy > TAP_SLOP && dy > Math.abs(dx)) {
        event.currentTarget.setPointerCapture(event.pointerId);
        gesture.current = { type: 'dismiss', origin: current.origin, time: current.time, dy };
      }
      if (gesture.current.type === 'dismiss') {
        gesture.current = { ...gesture.current, dy };
        const image = imageRefs.current[indexRef.current];
        if (image) {
          image.style.transition = 'none';
          image.style.transform = `translate3d(${dx * 0.3}px, ${Math.max(0, dy)}px, 0) scale(${Math.max(0.8, 1 - dy / 1500)})`;
        }
        setBackdrop(Math.max(0, dy) / 400);
      }
    }
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    if (!pointers.current.has(event.pointerId)) return;
    const point = pointOf(event);
    pointers.current.delete(event.pointerId);
    const current = gesture.current;
    if (current.type === 'pinch') {
      apply(clampTransform(transform.current, viewport(), contentSize()), true);
      const [rest] = [...pointers.current.entries()];
      gesture.current = rest
        ? { type: 'pan', origin: rest[1], time: Number.NEGATIVE_INFINITY, start: transform.current }
        : { type: 'none' };
      return;
    }
    gesture.current = { type: 'none' };
    if (current.type === 'dismiss') {
      const speed = current.dy / Math.max(1, event.timeStamp - current.time);
      if (current.dy > DISMISS_DISTANCE || (current.dy > DISMISS_FLICK && speed > DISMISS_SPEED)) {
        onClose();
      } else {
        apply(IDENTITY, true);
        setBackdrop(0, true);
      }
      return;
    }
    if (current.type !== 'press' && current.type !== 'pan') return;
    const moved = Math.hypot(point.x - current.origin.x, point.y - current.origin.y);
    if (moved < TAP_SLOP && event.timeStamp - current.time < LONG_PRESS_MS) {
      const previous = lastTap.current;
      const now = event.timeStamp;
      if (
        previous &&
        now - previous.time < DOUBLE_TAP_MS &&
        Math.hypot(point.x - previous.point.x, point.y - previous.point.y) < 40
      ) {
        lastTap.current = null;
        apply(toggleZoom(transform.current, point, viewport(), contentSize()), true);
      } else {
        lastTap.current = { time: now, point };
      }
    }
  }

  function onPointerCancel(event: PointerEvent<HTMLDivElement>) {
    // The browser took the gesture over (a sideways swipe scrolls to the next image).
    pointers.current.delete(event.pointerId);
    if (gesture.current.type === 'dismiss') {
      apply(IDENTITY, true);
      setBackdrop(0, true);
    }
    gesture.current = { type: 'none' };
  }

  const counter = `${index + 1} / ${total}`;
  return (
    <ModalDialog
      labelledBy={titleId}
      onClose={onClose}
      initialFocus={closeRef}
      focusable={FOCUSABLE}
      className={styles.viewer}
    >
      <h2 id={titleId} className="visually-hidden">
        {text.viewer}
      </h2>
      <div
        ref={trackRef}
        className={zoomed ? `${styles.track} ${styles.zoomed}` : styles.track}
        // Focusable, so a keyboard can scroll between the images (its slides hold no control).
        tabIndex={0}
        onScroll={onScroll}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
      >
        <ImageSlides images={images} className={styles.slide} current={index}>
          {(image, position) => (
            <ShareImage
              image={image}
              slot={FULL_SCREEN_SLOT}
              priority={position === startIndex}
              fallbackAlt={fill(text.imageAlt, { name, n: position + 1 })}
              className={styles.image}
              imageRef={(element) => {
                imageRefs.current[position] = element;
              }}
            />
          )}
        </ImageSlides>
      </div>
      <p className={styles.counter} aria-live="polite">
        {counter}
      </p>
      <button
        ref={closeRef}
        type="button"
        className={`${styles.control} ${styles.close}`}
        aria-label={text.viewerClose}
        onClick={onClose}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
      {total > 1 ? (
        <>
          <button
            type="button"
            className={`${styles.control} ${styles.previous}`}
            aria-label={text.viewerPrevious}
            disabled={index === 0}
            onClick={() => {
              goTo(index - 1);
            }}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M15 5l-7 7 7 7" />
            </svg>
          </button>
          <button
            type="button"
            className={`${styles.control} ${styles.next}`}
            aria-label={text.viewerNext}
            disabled={index === total - 1}
            onClick={() => {
              goTo(index + 1);
            }}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M9 5l7 7-7 7" />
            </svg>
          </button>
        </>
      ) : null}
    </ModalDialog>
  );
}
