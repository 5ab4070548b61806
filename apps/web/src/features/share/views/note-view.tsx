import type { Note } from '@guquan/contract/share';
import { useLanguage } from '../../../lib/i18n/language-context';
import { pluralText } from '../../../lib/i18n/plural';
import { OpenAppButton } from '../open-in-app/open-app-button';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { PhotoGallery } from '../media/photo-gallery';
import { AppPlaceLink } from '../open-in-app/app-place-link';
import { useAppPlaceTexts } from '../open-in-app/app-place-texts';
import { useOpenAppAt } from '../open-in-app/open-app-at';
import { ShareDate } from './share-date';
import { formatCount } from './share-format';
import { useShareTexts } from '../texts/share-texts';
import { StatList } from './stat-list';
import { TagList } from './tag-list';
import { UserChip } from './user-chip';
import { UserText } from './user-text';
import shared from './share-view.module.css';
import styles from './note-view.module.css';

/** A note share: images, author, title, the text as written, counts and the top comments. */
export function NoteView({ note }: { note: Note }) {
  const text = useShareTexts();
  const language = useLanguage();
  const { openApp } = useAppPrompt();
  const { openAt } = useOpenAppAt();
  const placeText = useAppPlaceTexts();
  // Whom an @mention may name: the users this page shows.
  const users = [note.author, ...note.topComments.map((comment) => comment.author)];
  // Tags the text already shows as #tag are not listed twice.
  const extraTags = note.tags.filter((tag) => !note.text.includes(`#${tag}`));
  return (
    <article className={shared.layout} aria-labelledby="share-title">
      {note.images.length > 0 ? <PhotoGallery images={note.images} name={note.title} /> : null}
      <div className={shared.body}>
        <UserChip user={note.author} role={text.author} avatarDefer="picture" />
        <h1 id="share-title" className={shared.title}>
          {note.title}
        </h1>
        {note.text ? (
          <UserText text={note.text} rich users={users} className={shared.text} />
        ) : null}
        <TagList tags={extraTags} />
        <p className={shared.muted}>
          <ShareDate iso={note.createdAt} posted />
        </p>
        <StatList
          stats={[
            ['likes', note.likes],
            ['collects', note.collects],
            ['comments', note.comments],
          ]}
        />
      </div>
      <section className={shared.section} aria-labelledby="note-comments">
        <h2 id="note-comments" className={shared.sectionTitle}>
          {text.topComments}
        </h2>
        {note.topComments.length === 0 ? <p className={shared.muted}>{text.noComments}</p> : null}
        <ul className={styles.comments}>
          {note.topComments.map((comment) => (
            <li
              key={comment.id}
              className={styles.comment}
              onClick={(event) => {
                // A tap anywhere on the comment opens it in the app, as its date's link does
                // (the way in for keyboards); its own links (user, tags, mentions) go theirs.
                const target = event.target as Element;
                if (target.closest('a') || getSelection()?.toString()) return;
                openAt({ type: 'comment', id: comment.id });
              }}
            >
              {/* Below the first screen: the browser's own lazy loading, which starts 1250–3000 px
                  ahead, would ask for it beside the picture. */}
              <UserChip
                user={comment.author}
                role={text.commenter}
                size="small"
                avatarDefer="near"
              />
              <UserText text={comment.text} rich users={users} className={styles.commentText} />
              <p className={styles.commentMeta}>
                <AppPlaceLink
                  place={{ type: 'comment', id: comment.id }}
                  className={styles.commentLink}
                  hint={placeText.commentInApp}
                >
                  <ShareDate iso={comment.createdAt} />
                  <span aria-hidden="true">·</span>
                  <span>
                    {pluralText(
                      language,
                      comment.likes,
                      text.commentLikes,
                      formatCount(comment.likes, language),
                    )}
                  </span>
                </AppPlaceLink>
              </p>
            </li>
          ))}
        </ul>
        <button type="button" className={shared.more} onClick={openApp}>
          {note.comments > note.topComments.length
            ? pluralText(
                language,
                note.comments,
                text.allComments,
                formatCount(note.comments, language),
              )
            : text.moreInApp}
        </button>
      </section>
      <OpenAppButton>{text.openInApp.note}</OpenAppButton>
    </article>
  );
}
