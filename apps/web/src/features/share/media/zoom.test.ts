import { describe, expect, it } from 'vitest';
import {
  clampTransform,
  containedSize,
  IDENTITY,
  MAX_SCALE,
  pinch,
  toCss,
  toggleZoom,
  zoomAround,
} from './zoom';

const viewport = { width: 400, height: 800 };

describe('zoom arithmetic', () => {
  it('contains the image in the viewport', () => {
    expect(containedSize({ width: 1000, height: 1000 }, viewport)).toEqual({
      width: 400,
      height: 400,
    });
    expect(containedSize({ width: 500, height: 2000 }, viewport)).toEqual({
      width: 200,
      height: 800,
    });
  });

  it('keeps the point under the finger in place', () => {
    const zoomed = zoomAround(IDENTITY, 2, { x: 100, y: -50 });
    // The image point that was at (100, -50) is still there: x + scale * p = point.
    expect(zoomed).toEqual({ scale: 2, x: -100, y: 50 });
  });

  it('clamps the scale and the offset so no empty edge shows', () => {
    const content = { width: 400, height: 400 };
    expect(clampTransform({ scale: 0.5, x: 50, y: 0 }, viewport, content)).toEqual(IDENTITY);
    expect(clampTransform({ scale: 9, x: 0, y: 0 }, viewport, content).scale).toBe(MAX_SCALE);
    // At scale 2 the image is 800 wide: 200 px may go out on either side; its 800 height fits.
    expect(clampTransform({ scale: 2, x: 500, y: 90 }, viewport, content)).toEqual({
      scale: 2,
      x: 200,
      y: 0,
    });
  });

  it('double tap zooms in at the point, and out again', () => {
    const content = { width: 400, height: 400 };
    const zoomed = toggleZoom(IDENTITY, { x: 40, y: 0 }, viewport, content);
    expect(zoomed.scale).toBe(2.5);
    expect(zoomed.x).toBeCloseTo(-60);
    expect(toggleZoom(zoomed, { x: 0, y: 0 }, viewport, content)).toEqual(IDENTITY);
  });

  it('pinch follows the fingers’ distance and middle', () => {
    const result = pinch(
      IDENTITY,
      [
        { x: -50, y: 0 },
        { x: 50, y: 0 },
      ],
      [
        { x: -100, y: 20 },
        { x: 100, y: 20 },
      ],
    );
    expect(result).toEqual({ scale: 2, x: 0, y: 20 });
    expect(toCss(result)).toBe('translate3d(0px, 20px, 0) scale(2)');
  });
});
