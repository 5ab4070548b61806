import styles from './app-mark.module.css';

/**
 * The app's mark, 谷 on the brand colour, drawn with CSS in the page's own font. (As an SVG
 * image it cost a phone tens of milliseconds at start-up: the image gets a document of its own
 * and looks up a font for its one character.) Decorative: the app's name is always next to it.
 * The size follows `--app-mark-size` on the element or a parent.
 */
export function AppMark({ className }: { className?: string }) {
  return (
    <span className={className ? `${styles.mark} ${className}` : styles.mark} aria-hidden="true">
      谷
    </span>
  );
}
