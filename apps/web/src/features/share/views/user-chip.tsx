import type { UserSummary } from '@guquan/contract/share';
import type { DeferUntil } from '../../../lib/dom/deferred-images';
import { AppPlaceLink } from '../open-in-app/app-place-link';
import { AVATAR_SLOT } from '../media/image-slots';
import { ShareImage } from '../media/share-image';
import styles from './user-chip.module.css';

/**
 * A user as a share shows them: avatar (or their initial) and nickname, with what they are; a
 * link into the app, to the user's page there.
 */
export function UserChip({
  user,
  role,
  size = 'medium',
  avatarDefer,
}: {
  user: UserSummary;
  /** What the user is to the item, for screen readers: 谷主, 作者. */
  role: string;
  size?: 'small' | 'medium';
  /**
   * When the avatar loads: `picture` in the first screen (after the page's picture, not beside
   * it on a slow line), `near` below it.
   */
  avatarDefer: DeferUntil;
}) {
  const avatarClass = `${styles.avatar} ${size === 'small' ? styles.small : ''}`;
  return (
    <p className={styles.holder}>
      <AppPlaceLink place={{ type: 'user', id: user.id }} className={styles.chip}>
        {user.avatar ? (
          <ShareImage
            image={user.avatar}
            slot={AVATAR_SLOT}
            defer={avatarDefer}
            fallbackAlt=""
            className={avatarClass}
          />
        ) : (
          <span className={`${avatarClass} ${styles.initial}`} aria-hidden="true">
            {Array.from(user.nickname)[0]}
          </span>
        )}
        <span className="visually-hidden">{role}</span>
        <span className={size === 'small' ? `${styles.name} ${styles.smallName}` : styles.name}>
          {user.nickname}
        </span>
      </AppPlaceLink>
    </p>
  );
}
