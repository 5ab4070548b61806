import type { DeletionOverview } from '@guquan/contract/account-deletion';
import type { Db } from '../db/database.ts';
import type { DesignRepository } from '../designs/design-repository.ts';
import { readMembership } from '../membership/membership-repository.ts';

/**
 * What deleting the account takes from this user, in their own figures: unused points, redeemed
 * designs, the membership time left, and whether an Apple subscription would keep renewing (the
 * deletion does not cancel it). Read from the designs and membership features.
 */
export function deletionLosses(
  db: Db,
  designs: Pick<DesignRepository, 'balanceOf' | 'redeemedCount'>,
) {
  return async (userId: number, now: Date): Promise<DeletionOverview['losses']> => {
    const membership = await readMembership(db, userId, now);
    const active = membership.status === 'active';
    return {
      points: await designs.balanceOf(userId),
      designs: await designs.redeemedCount(userId),
      membershipUntil: active ? membership.expiresAt : null,
      renewingSubscription: active && membership.autoRenew !== false,
    };
  };
}
