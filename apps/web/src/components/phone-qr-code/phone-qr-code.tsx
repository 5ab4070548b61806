import { QR_CODE_DISPLAY_SIZE } from '@guquan/contract/qr-codes';
import styles from './phone-qr-code.module.css';

/**
 * "Scan to open on your phone": a QR code the server draws (an SVG image, no script: nothing is
 * added to the page's JavaScript), with what it does in words beside it. Loaded lazily: on a
 * desktop it is below the fold more often than not.
 */
export function PhoneQrCode({
  src,
  heading,
  hint,
  alt,
  className,
}: {
  src: string;
  heading: string;
  hint: string;
  alt: string;
  className?: string;
}) {
  return (
    <div className={className ? `${styles.card} ${className}` : styles.card}>
      <img
        className={styles.code}
        src={src}
        width={QR_CODE_DISPLAY_SIZE}
        height={QR_CODE_DISPLAY_SIZE}
        alt={alt}
        loading="lazy"
        decoding="async"
      />
      <div className={styles.words}>
        <p className={styles.heading}>{heading}</p>
        <p className={styles.hint}>{hint}</p>
      </div>
    </div>
  );
}
