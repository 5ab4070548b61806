import { useState } from 'react';
import type { Membership } from '@guquan/contract/membership';
import buttons from '../../components/button.module.css';
import { ActionFeedback, type Feedback } from './action-feedback';
import type { MembershipTexts } from './membership-texts';
import type { MembershipFlow, RestoreOutcome } from './purchase-flow';
import styles from './membership-page.module.css';

/** Restore Purchases, with what it ended in right below it. */
export function RestoreButton({
  flow,
  text,
  disabled,
  onRestored,
  describe,
}: {
  flow: MembershipFlow;
  text: MembershipTexts;
  disabled: boolean;
  onRestored: (membership: Membership, count: number) => void;
  describe: (
    outcome: Exclude<RestoreOutcome, { state: 'restored' }>,
    text: MembershipTexts,
  ) => Feedback | undefined;
}) {
  const [feedback, setFeedback] = useState<Feedback | undefined>(undefined);
  const busy = feedback?.kind === 'busy';

  const restore = async () => {
    if (busy || disabled) return;
    setFeedback({ kind: 'busy', text: text.restoring });
    const outcome = await flow.restore();
    if (outcome.state !== 'restored') {
      setFeedback(describe(outcome, text));
      return;
    }
    setFeedback({ kind: 'done', text: text.restored(outcome.count) });
    // When this makes a member of the user, the member's view replaces this one and says it.
    onRestored(outcome.membership, outcome.count);
  };

  return (
    <>
      <button
        type="button"
        className={`${buttons.secondary} ${styles.wide}`}
        aria-disabled={busy || disabled}
        onClick={() => void restore()}
      >
        {text.restore}
      </button>
      <ActionFeedback feedback={feedback} />
    </>
  );
}
