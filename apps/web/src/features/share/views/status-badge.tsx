import type { GoodsStatus } from '@guquan/contract/share';
import { useShareTexts } from '../texts/share-texts';
import styles from './status-badge.module.css';

/** 展示 / 出 / 收: whether the owner shows, sells (or swaps) or wants the goods. */
export function StatusBadge({ status, className }: { status: GoodsStatus; className?: string }) {
  const text = useShareTexts();
  return (
    <span className={`${styles.badge} ${styles[status] ?? ''} ${className ?? ''}`}>
      <span className="visually-hidden">{text.statusLabel}：</span>
      {text.status[status]}
    </span>
  );
}
