import type { ShareFailureState } from './share-failure-texts';

/** One line drawing per state, in the brand's colour: a picture of what happened, never a code. */
const PATHS: Readonly<Record<ShareFailureState, string>> = {
  // A padlock.
  private: 'M16 22v-5a8 8 0 0 1 16 0v5 M12 22h24v16H12z M24 28v4',
  // A box with its lid off.
  removed: 'M10 18h28l-3 20H13z M8 12h32v6H8z M20 25h8',
  // A magnifier.
  not_found: 'M21 31a10 10 0 1 0 0-20a10 10 0 0 0 0 20z M28.5 28.5L38 38',
  // A chain link broken in two.
  invalid_id:
    'M20 28l-4 4a5 5 0 0 1-7-7l4-4 M28 20l4-4a5 5 0 0 1 7 7l-4 4 M18 14l2 4 M14 18l4 2 M30 34l-2-4 M34 30l-4-2',
  // A cloud with a gap.
  network: 'M15 34h19a7 7 0 0 0 0-14a10 10 0 0 0-19-2a8 8 0 0 0 0 16 M20 30l8-8',
};

export function FailureIcon({
  state,
  className,
}: {
  state: ShareFailureState;
  className?: string;
}) {
  return (
    <svg
      className={className}
      viewBox="0 0 48 48"
      width="48"
      height="48"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={PATHS[state]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
