import { tokenize } from './user-text-tokens';
import styles from './user-text.module.css';

/** The rel of every link a user wrote: no access to this page, no referrer, no endorsement. */
export const USER_LINK_REL = 'noopener noreferrer nofollow ugc';

/**
 * Text a user wrote, as text: line breaks kept; with `rich`, #tags and @mentions marked and
 * http(s) links made safe links. Never HTML: React escapes every piece.
 */
export function UserText({
  text,
  rich = false,
  className,
}: {
  text: string;
  rich?: boolean;
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
              <span key={index} className={styles.tag}>
                {token.text}
              </span>
            );
          case 'mention':
            return (
              <span key={index} className={styles.mention}>
                {token.text}
              </span>
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
