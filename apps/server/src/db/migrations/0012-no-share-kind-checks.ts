import type { Kysely, Migration } from 'kysely';
import { changeChecks } from './check-constraints.ts';

/**
 * The funnel's and the handoffs' kind of share is no longer checked by the database: 0010 and
 * 0011 wrote the kinds out in check constraints, so a new kind would have needed a migration that
 * widened them. The kind is checked where it comes in, by the contract's schemas (derived from
 * `SHARE_KINDS`), and typed `ShareKind` down to the table (db/schema.ts), so a new kind needs no
 * migration here (docs/architecture.md, "A new share kind"). A handoff's image index is still
 * checked not to be negative; which kinds carry one is the contract's `opensAtImage`.
 */
export const noShareKindChecks: Migration = {
  async up(db: Kysely<unknown>) {
    await changeChecks(db, 'share_funnel_days', { drop: ['share_funnel_days_kind'], add: {} });
    await changeChecks(db, 'app_link_handoffs', {
      drop: ['app_link_handoffs_kind', 'app_link_handoffs_image'],
      add: { app_link_handoffs_image: 'target_image is null or target_image >= 0' },
    });
  },
  // The constraints as 0010 and 0011 made them.
  async down(db: Kysely<unknown>) {
    await changeChecks(db, 'app_link_handoffs', {
      drop: ['app_link_handoffs_image'],
      add: {
        app_link_handoffs_kind: "target_kind in ('goods', 'cabinet', 'note')",
        app_link_handoffs_image:
          "target_image is null or (target_kind = 'goods' and target_image >= 0)",
      },
    });
    await changeChecks(db, 'share_funnel_days', {
      drop: [],
      add: { share_funnel_days_kind: "kind in ('goods', 'cabinet', 'note')" },
    });
  },
};
