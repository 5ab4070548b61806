import { afterEach, describe, expect, it } from 'vitest';
import { applyFlexibleLayout, installFlexibleLayout } from './flexible-layout';

function setViewport(width: number, dpr: number): void {
  Object.defineProperty(document.documentElement, 'clientWidth', {
    configurable: true,
    value: width,
  });
  Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: dpr });
}

function pageShow(persisted: boolean): void {
  const event = new Event('pageshow') as PageTransitionEvent;
  Object.defineProperty(event, 'persisted', { value: persisted });
  window.dispatchEvent(event);
}

describe('flexible layout', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => {
    uninstall?.();
    uninstall = undefined;
    document.documentElement.removeAttribute('style');
    document.documentElement.className = '';
    document.body.removeAttribute('style');
  });

  it('sets the root font size to a tenth of the viewport width', () => {
    for (const width of [320, 375, 414, 768, 1280]) {
      setViewport(width, 1);
      applyFlexibleLayout(window);
      expect(document.documentElement.style.fontSize).toBe(`${width / 10}px`);
    }
  });

  it('sets the body font size to 12 × devicePixelRatio px', () => {
    for (const dpr of [1, 1.5, 2, 3]) {
      setViewport(375, dpr);
      applyFlexibleLayout(window);
      expect(document.body.style.fontSize).toBe(`${12 * dpr}px`);
    }
  });

  it('marks hairlines from a devicePixelRatio of 2', () => {
    setViewport(375, 1);
    applyFlexibleLayout(window);
    expect(document.documentElement.classList.contains('hairlines')).toBe(false);
    setViewport(375, 1.99);
    applyFlexibleLayout(window);
    expect(document.documentElement.classList.contains('hairlines')).toBe(false);
    setViewport(375, 2);
    applyFlexibleLayout(window);
    expect(document.documentElement.classList.contains('hairlines')).toBe(true);
    setViewport(375, 3);
    applyFlexibleLayout(window);
    expect(document.documentElement.classList.contains('hairlines')).toBe(true);
    setViewport(375, 1);
    applyFlexibleLayout(window);
    expect(document.documentElement.classList.contains('hairlines')).toBe(false);
  });

  it('follows resizes once installed, and stops when uninstalled', () => {
    setViewport(375, 2);
    uninstall = installFlexibleLayout(window);
    expect(document.documentElement.style.fontSize).toBe('37.5px');
    setViewport(414, 2);
    window.dispatchEvent(new Event('resize'));
    expect(document.documentElement.style.fontSize).toBe('41.4px');
    uninstall();
    setViewport(320, 2);
    window.dispatchEvent(new Event('resize'));
    expect(document.documentElement.style.fontSize).toBe('41.4px');
  });

  it('re-applies when a page is restored from the back-forward cache, not on a fresh show', () => {
    setViewport(375, 1);
    uninstall = installFlexibleLayout(window);
    setViewport(320, 1);
    pageShow(false);
    expect(document.documentElement.style.fontSize).toBe('37.5px');
    pageShow(true);
    expect(document.documentElement.style.fontSize).toBe('32px');
  });
});
