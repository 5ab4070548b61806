import { z } from 'zod';

/**
 * The plan chosen and the consent given on the membership page, kept for this tab while the user
 * reads the agreement (an in-app navigation that unmounts the page) and comes back. Nothing
 * leaves the device; it is forgotten after a purchase.
 */
export const PLAN_CHOICE_KEY = 'guquan.membership.choice';

const choiceSchema = z.object({ productId: z.string().max(100), consent: z.boolean() });
export type PlanChoice = z.infer<typeof choiceSchema>;

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage refused (a private mode, a sandboxed web view)
  }
}

export function readPlanChoice(): PlanChoice | undefined {
  try {
    const parsed = choiceSchema.safeParse(
      JSON.parse(storage()?.getItem(PLAN_CHOICE_KEY) ?? 'null'),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function savePlanChoice(choice: PlanChoice): void {
  try {
    storage()?.setItem(PLAN_CHOICE_KEY, JSON.stringify(choice));
  } catch {
    // Full or refused: the choice is simply not kept.
  }
}

export function forgetPlanChoice(): void {
  try {
    storage()?.removeItem(PLAN_CHOICE_KEY);
  } catch {
    // nothing kept
  }
}
