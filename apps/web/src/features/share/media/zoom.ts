/**
 * The arithmetic of the full-screen viewer's zoom: a scale and an offset (in CSS pixels, from the
 * centre) applied to an image shown `object-fit: contain` in the viewport.
 */
export interface Transform {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export const IDENTITY: Transform = { scale: 1, x: 0, y: 0 };
export const MAX_SCALE = 4;
const DOUBLE_TAP_SCALE = 2.5;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** How large the image shows at scale 1 when it is contained in the viewport. */
export function containedSize(natural: Size, viewport: Size): Size {
  const fit = Math.min(viewport.width / natural.width, viewport.height / natural.height);
  return { width: natural.width * fit, height: natural.height * fit };
}

/** Keeps the scale within 1…MAX_SCALE and the image covering the viewport (no empty edges). */
export function clampTransform(transform: Transform, viewport: Size, content: Size): Transform {
  const scale = clamp(transform.scale, 1, MAX_SCALE);
  const maxX = Math.max(0, (content.width * scale - viewport.width) / 2);
  const maxY = Math.max(0, (content.height * scale - viewport.height) / 2);
  return { scale, x: clamp(transform.x, -maxX, maxX), y: clamp(transform.y, -maxY, maxY) };
}

/** Scales to `scale` keeping the image point under `point` (relative to the centre) in place. */
export function zoomAround(transform: Transform, scale: number, point: Point): Transform {
  const ratio = scale / transform.scale;
  return {
    scale,
    x: point.x - (point.x - transform.x) * ratio,
    y: point.y - (point.y - transform.y) * ratio,
  };
}

/** A double tap: zoom in at the tapped point, or back out when zoomed. */
export function toggleZoom(transform: Transform, point: Point, viewport: Size, content: Size) {
  if (transform.scale > 1.01) return IDENTITY;
  return clampTransform(zoomAround(transform, DOUBLE_TAP_SCALE, point), viewport, content);
}

/** A pinch: the scale follows the fingers' distance; the point between them follows them too. */
export function pinch(
  start: Transform,
  startPointers: readonly [Point, Point],
  pointers: readonly [Point, Point],
): Transform {
  const distance = ([a, b]: readonly [Point, Point]) => Math.hypot(a.x - b.x, a.y - b.y);
  const middle = ([a, b]: readonly [Point, Point]): Point => ({
    x: (a.x + b.x) / 2,
    y: (a.y + b.y) / 2,
  });
  const scale = clamp(
    (start.scale * distance(pointers)) / Math.max(1, distance(startPointers)),
    0.75,
    MAX_SCALE * 1.25,
  );
  const from = middle(startPointers);
  const to = middle(pointers);
  const zoomed = zoomAround(start, scale, from);
  return { scale, x: zoomed.x + to.x - from.x, y: zoomed.y + to.y - from.y };
}

export function toCss({ scale, x, y }: Transform): string {
  return `translate3d(${x}px, ${y}px, 0) scale(${scale})`;
}
