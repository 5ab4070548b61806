import type { UserSummary } from '@guquan/contract/share';
import { AVATAR_SLOT } from '../share-image/image-slots';
import { ShareImage } from '../share-image/share-image';
import styles from './user-chip.module.css';

/** A user as a share shows them: avatar (or their initial) and nickname, with what they are. */
export function UserChip({
  user,
  role,
  size = 'medium',
}: {
  user: UserSummary;
  /** What the user is to the item, for screen readers: 谷主, 作者. */
  role: string;
  size?: 'small' | 'medium';
}) {
  const avatarClass = `${styles.avatar} ${size === 'small' ? styles.small : ''}`;
  return (
    <p className={styles.chip}>
      {user.avatar ? (
        <ShareImage image={user.avatar} slot={AVATAR_SLOT} fallbackAlt="" className={avatarClass} />
      ) : (
        <span className={`${avatarClass} ${styles.initial}`} aria-hidden="true">
          {Array.from(user.nickname)[0]}
        </span>
      )}
      <span className="visually-hidden">{role}</span>
      <span className={size === 'small' ? `${styles.name} ${styles.smallName}` : styles.name}>
        {user.nickname}
      </span>
    </p>
  );
}
