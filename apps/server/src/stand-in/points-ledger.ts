import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { DEBIT_FAULTS } from '@guquan/contract/demo-platform';
import type { PointsDebitRequest } from '@guquan/contract/points-debits';
import { demoPointsBalance } from '../demo/seed/demo-designs.ts';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import { readKept, writeKept } from './stand-in-files.ts';

/**
 * The stand-in platform's points ledger (PRODUCT.md, "The app's platform", Points): a real one,
 * kept in `<dataDir>/stand-in/ledger.json` so it outlives a restart of the demo. Balances start
 * from the demo community's points (0 for anyone else); `POST /v1/points/debits` charges a key
 * once (the same key answers the stored result, the same key with another body is refused 422)
 * and refuses 409 `insufficient_points` charging nothing. The demo endpoints show it and make the
 * next debit fail, hang or lose its answer, so a person (or a test) can watch the site recover.
 * Its routes are points-ledger-routes.ts.
 */

/**
 * The demo's faults (the contract's DEBIT_FAULTS, which the simulator offers) and one more for
 * the tests: `huge_balance` charges and answers a balance past 2^31 − 1, which the contract
 * refuses (a repeat of the key answers the stored charge): a platform's bad answer, not the demo's.
 */
export const STAND_IN_DEBIT_FAULTS = [...DEBIT_FAULTS, 'huge_balance'] as const;
type DebitFault = (typeof STAND_IN_DEBIT_FAULTS)[number];

const storedDebitSchema = z.object({
  key: z.string(),
  /** The request's body, as JSON with its keys sorted: a repeat must match it. */
  body: z.string(),
  userId: z.string(),
  points: z.number(),
  designId: z.string(),
  outcome: z.enum(['charged', 'insufficient_points']),
  balance: z.number(),
  debitId: z.string().nullable(),
  at: z.string(),
});
type StoredDebit = z.infer<typeof storedDebitSchema>;

const keptLedgerSchema = z.object({
  balances: z.record(z.string(), z.number()),
  debits: z.array(storedDebitSchema),
});

/** The demo users' starting balances, by user id. */
export const DEMO_BALANCES: Readonly<Record<string, number>> = Object.fromEntries(
  (Object.keys(DEMO_IDS.users) as DemoUserKey[]).map((key) => [
    DEMO_IDS.users[key],
    demoPointsBalance(key),
  ]),
);

export interface PointsLedgerOptions {
  /** Tests only: runs after a debit is charged and kept, before it is answered. */
  afterCharge?: (debit: { key: string; userId: string }) => Promise<void>;
}

export interface PointsLedger {
  balanceOf(userId: string): number;
  /** Tests and demos: sets a user's balance, as points earned in the app would. */
  setBalance(userId: string, balance: number): Promise<void>;
  /** Every debit kept, oldest first. */
  debits(): readonly StoredDebit[];
  /** Debit requests received (answered or not, repeats included). */
  requests(): number;
  nextFault(): DebitFault;
  setNextFault(fault: DebitFault): void;
  /** Debit requests held open now, unanswered (a `hang` fault, or answers held by holdAnswers). */
  holding(): number;
  /**
   * Tests only: a slow platform. Debits asked from now on are charged (or refused) at once and
   * keep their answer until the returned release is called, or their client gives up.
   */
  holdAnswers(): () => void;
}

interface LedgerState {
  balances: Map<string, number>;
  debits: Map<string, StoredDebit>;
  fault: DebitFault;
  requests: number;
  holding: number;
  /** While set, a charge's answer waits for it (holdAnswers). */
  answersHeld: Promise<void> | undefined;
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : inner,
  );
}

/** The ledger kept under `dataDir`, loaded (or started) now. */
export async function loadPointsLedger(
  dataDir: string,
  options: PointsLedgerOptions = {},
): Promise<
  PointsLedger & { state: LedgerState; persist: () => Promise<void> } & PointsLedgerOptions
> {
  const path = join(dataDir, 'stand-in', 'ledger.json');
  const kept = keptLedgerSchema.parse((await readKept(path)) ?? { balances: {}, debits: [] });
  const state: LedgerState = {
    balances: new Map(Object.entries(kept.balances)),
    debits: new Map(kept.debits.map((debit) => [debit.key, debit])),
    fault: 'none',
    requests: 0,
    holding: 0,
    answersHeld: undefined,
  };
  let writing: Promise<void> = Promise.resolve();
  // One write at a time, each of the whole ledger as it is then.
  const persist = () => {
    writing = writing.then(() =>
      writeKept(path, {
        balances: Object.fromEntries(state.balances),
        debits: [...state.debits.values()],
      }),
    );
    return writing;
  };
  const balanceOf = (userId: string) => state.balances.get(userId) ?? DEMO_BALANCES[userId] ?? 0;
  return {
    ...options,
    state,
    persist,
    balanceOf,
    async setBalance(userId, balance) {
      state.balances.set(userId, balance);
      await persist();
    },
    debits: () => [...state.debits.values()],
    requests: () => state.requests,
    nextFault: () => state.fault,
    setNextFault(fault) {
      state.fault = fault;
    },
    holding: () => state.holding,
    holdAnswers() {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      state.answersHeld = held;
      return () => {
        if (state.answersHeld === held) state.answersHeld = undefined;
        release();
      };
    },
  };
}

export type LoadedPointsLedger = Awaited<ReturnType<typeof loadPointsLedger>>;

type DebitOutcome = { status: 200 | 201 | 409 | 422; body: unknown };

function answerOf(debit: StoredDebit, status: 200 | 201 | 409): DebitOutcome {
  return debit.outcome === 'charged'
    ? { status, body: { debitId: debit.debitId, balance: debit.balance } }
    : {
        status: 409,
        body: {
          error: { code: 'insufficient_points', message: 'Too few points: nothing charged.' },
        },
      };
}

/** Charges the debit once per key: the stored answer for a repeat, 422 for another body. */
export function charge(
  ledger: LoadedPointsLedger,
  key: string,
  debit: PointsDebitRequest,
): {
  outcome: DebitOutcome;
  charged: boolean;
} {
  const body = sortedJson(debit);
  const stored = ledger.state.debits.get(key);
  if (stored) {
    if (stored.body !== body) {
      return {
        outcome: {
          status: 422,
          body: {
            error: {
              code: 'idempotency_key_reused',
              message: 'This Idempotency-Key was used for another debit.',
            },
          },
        },
        charged: false,
      };
    }
    return { outcome: answerOf(stored, 200), charged: false };
  }
  const balance = ledger.balanceOf(debit.userId);
  const enough = balance >= debit.points;
  const record: StoredDebit = {
    key,
    body,
    userId: debit.userId,
    points: debit.points,
    designId: debit.reason.designId,
    outcome: enough ? 'charged' : 'insufficient_points',
    balance: enough ? balance - debit.points : balance,
    debitId: enough ? randomUUID() : null,
    at: new Date().toISOString(),
  };
  if (enough) ledger.state.balances.set(debit.userId, record.balance);
  ledger.state.debits.set(key, record);
  return { outcome: answerOf(record, 201), charged: true };
}
