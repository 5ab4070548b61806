import type { UserSummary } from '@guquan/contract/share';
import { AppPlaceLink } from '../open-in-app/app-place-link';
import { mentionPlace, tagName } from '../open-in-app/open-app-at';
import { tokenize } from './user-text-tokens';
import styles from './user-text.module.css';

/** The rel of every link a user wrote: no access to this page, no referrer, no endorsement. */
export const USER_LINK_REL = 'noopener noreferrer nofollow ugc';

const NO_USERS: readonly UserSummary[] = [];

/**
 * Text a user wrote, as text: line breaks kept; with `rich`, #tags and @mentions links into the
 * app (the tag; the user among `users` of that nickname, else the item) and http(s) links made
 * safe links. Never HTML: React escapes every piece.
 */
export function UserText({
  text,
  rich = false,
  users = NO_USERS,
  className,
}: {
  text: string;
  rich?: boolean;
  /** The users the page shows, whom an @mention may name. */
  users?: readonly UserSummary[];
  className?: string;
}) {
  return (
    <p className={className ? `${styles.text} ${className}` : styles.text}>
      {tokenize(text, { rich }).map((token, index) => {
        switch (token.type) {
          case 'break':
            return <br key={index} />;
          case 'tag':
            return (
              <AppPlaceLink
                key={index}
                place={{ type: 'tag', name: tagName(token.text) }}
                className={styles.tag}
              >
                {token.text}
              </AppPlaceLink>
            );
          case 'mention':
            return (
              <AppPlaceLink
                key={index}
                place={mentionPlace(token.text, users)}
                className={styles.mention}
              >
                {token.text}
              </AppPlaceLink>
            );
          case 'link':
            return (
              <a
                key={index}
                className={styles.link}
                href={token.href}
                rel={USER_LINK_REL}
                target="_blank"
              >
                {token.text}
              </a>
            );
          default:
            return token.text;
        }
      })}
    </p>
  );
}
