import type { ReactNode } from 'react';
import { useAppPlaceTexts } from './app-place-texts';
import { useOpenAppAt, type PlaceOrItem } from './open-app-at';

/**
 * A link into the app at a place of the page's item: a real link to its Universal Link in the
 * server's HTML, taken over by the open-in-app flow once the code runs. Screen readers hear its
 * text, then that it opens in the app (unless `hint` says something else).
 */
export function AppPlaceLink({
  place,
  className,
  hint,
  children,
}: {
  place: PlaceOrItem;
  className?: string;
  hint?: string;
  children: ReactNode;
}) {
  const { openAt, hrefOf } = useOpenAppAt();
  const text = useAppPlaceTexts();
  return (
    <a
      href={hrefOf(place)}
      className={className}
      onClick={(event) => {
        openAt(place, event);
      }}
    >
      {children}
      <span className="visually-hidden">{hint ?? text.opensInApp}</span>
    </a>
  );
}
