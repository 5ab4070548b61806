import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { DEBIT_FAULTS, STAND_IN_DEMO_PATHS } from '@guquan/contract/demo-platform';
import { INT32_MAX } from '@guquan/contract/platform-events';
import {
  DEBIT_IDEMPOTENCY_KEY_HEADER,
  pointsDebitRequestSchema,
  POINTS_DEBITS_PATH,
  type PointsDebitRequest,
} from '@guquan/contract/points-debits';
import { demoPointsBalance } from '../demo/seed/demo-designs.ts';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import type { StandInRoutes } from './stand-in-context.ts';
import { readKept, writeKept } from './stand-in-files.ts';
import { hasServiceToken } from './stand-in-token-routes.ts';

/**
 * The stand-in platform's points ledger (PRODUCT.md, "The app's platform", Points): a real one,
 * kept in `<dataDir>/stand-in/ledger.json` so it outlives a restart of the demo. Balances start
 * from the demo community's points (0 for anyone else); `POST /v1/points/debits` charges a key
 * once (the same key answers the stored result, the same key with another body is refused 422)
 * and refuses 409 `insufficient_points` charging nothing. The demo endpoints show it and make the
 * next debit fail, hang or lose its answer, so a person (or a test) can watch the site recover.
 */

/**
 * The demo's faults (the contract's DEBIT_FAULTS, which the simulator offers) and one more for
 * the tests: `huge_balance` charges and answers a balance past 2^31 − 1, which the contract
 * refuses (a repeat of the key answers the stored charge): a platform's bad answer, not the demo's.
 */
const STAND_IN_DEBIT_FAULTS = [...DEBIT_FAULTS, 'huge_balance'] as const;
type DebitFault = (typeof STAND_IN_DEBIT_FAULTS)[number];

/** How many debits GET /demo/ledger lists (newest first). */
const LISTED_DEBITS = 50;

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

const faultRequestSchema = z.object({ fault: z.enum(STAND_IN_DEBIT_FAULTS) }).strict();
const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,200}$/);

const DEMO_BALANCES: Readonly<Record<string, number>> = Object.fromEntries(
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
function charge(
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

function refusal(code: string, message: string) {
  return { error: { code, message } };
}

/** Holds a debit request open until `until` settles or its client closes the connection. */
async function holdOpen(
  ledger: LoadedPointsLedger,
  held: Set<Socket>,
  socket: Socket,
  until?: Promise<void>,
): Promise<void> {
  held.add(socket);
  ledger.state.holding += 1;
  try {
    const closed = new Promise<void>((resolve) => {
      socket.once('close', () => {
        resolve();
      });
    });
    await (until ? Promise.race([until, closed]) : closed);
  } finally {
    ledger.state.holding -= 1;
    held.delete(socket);
  }
}

/** The ledger's routes: the debit API and its demo endpoints. */
export const pointsLedgerRoutes: StandInRoutes = (app, { secrets, ledger }, done) => {
  // Requests held by a `hang` fault: let go (their sockets closed) as the stand-in closes, before
  // its server waits for the requests in flight to end.
  const held = new Set<Socket>();
  app.addHook('preClose', (done) => {
    for (const socket of held) socket.destroy();
    done();
  });

  app.post(POINTS_DEBITS_PATH, async (request, reply) => {
    ledger.state.requests += 1;
    if (!hasServiceToken(request, secrets.apiToken)) {
      return reply
        .code(401)
        .send(refusal('unauthorized', 'The service token is missing or wrong.'));
    }
    const key = idempotencyKeySchema.safeParse(request.headers[DEBIT_IDEMPOTENCY_KEY_HEADER]);
    if (!key.success) {
      return reply
        .code(400)
        .send(refusal('invalid_idempotency_key', 'An Idempotency-Key header is required.'));
    }
    const body = pointsDebitRequestSchema.safeParse(request.body);
    if (!body.success) {
      return reply.code(400).send(refusal('invalid_request', body.error.message));
    }
    const fault = ledger.state.fault;
    ledger.state.fault = 'none';
    if (fault === 'fail') {
      return reply.code(500).send(refusal('internal_error', 'The ledger failed (demo fault).'));
    }
    const socket = request.raw.socket;
    if (fault === 'hang') {
      // Never answered, nothing charged: held until the client gives up.
      await holdOpen(ledger, held, socket);
      return reply.hijack();
    }
    const { outcome, charged } = charge(ledger, key.data, body.data);
    if (charged) await ledger.persist();
    if (charged && outcome.status === 201) {
      await ledger.afterCharge?.({ key: key.data, userId: body.data.userId });
    }
    const answersHeld = ledger.state.answersHeld;
    if (answersHeld) {
      // A slow platform (tests): charged and kept, the answer not sent yet.
      await holdOpen(ledger, held, socket, answersHeld);
      if (socket.destroyed) return reply.hijack();
    }
    if (fault === 'huge_balance' && charged && outcome.status === 201) {
      const debitId = ledger.state.debits.get(key.data)?.debitId;
      return reply.code(201).send({ debitId, balance: INT32_MAX + 1 });
    }
    if (fault === 'lose_answer') {
      // Charged and kept; the answer never arrives.
      reply.hijack();
      socket.destroy();
      return reply;
    }
    return reply.code(outcome.status).header('cache-control', 'no-store').send(outcome.body);
  });

  app.get(STAND_IN_DEMO_PATHS.ledger, async (_request, reply) => {
    const users = new Set([...Object.keys(DEMO_BALANCES), ...ledger.state.balances.keys()]);
    const debits = ledger
      .debits()
      .slice(-LISTED_DEBITS)
      .reverse()
      .map(({ key, userId, points, designId, outcome, balance, at }) => ({
        key,
        userId,
        points,
        designId,
        outcome,
        balance,
        at,
      }));
    return reply.header('cache-control', 'no-store').send({
      balances: [...users].map((userId) => ({ userId, balance: ledger.balanceOf(userId) })),
      debits,
      nextDebitFault: ledger.nextFault(),
      // Whose debits are held open now: the client's port of each connection, which a test maps
      // to the process that sent it (the cluster test kills the server holding one).
      heldFrom: [...held].flatMap(({ remotePort }) =>
        remotePort === undefined ? [] : [remotePort],
      ),
    });
  });

  app.post(STAND_IN_DEMO_PATHS.ledgerFault, async (request, reply) => {
    const body = faultRequestSchema.safeParse(request.body);
    if (!body.success) {
      return reply.code(400).send(refusal('invalid_request', body.error.message));
    }
    ledger.setNextFault(body.data.fault);
    return reply.code(204).send();
  });
  done();
};
