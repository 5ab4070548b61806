import type { Socket } from 'node:net';
import { z } from 'zod';
import { STAND_IN_DEMO_PATHS } from '@guquan/contract/demo-platform';
import { INT32_MAX } from '@guquan/contract/platform-events';
import {
  DEBIT_IDEMPOTENCY_KEY_HEADER,
  pointsDebitRequestSchema,
  POINTS_DEBITS_PATH,
} from '@guquan/contract/points-debits';
import {
  charge,
  DEMO_BALANCES,
  STAND_IN_DEBIT_FAULTS,
  type LoadedPointsLedger,
} from './points-ledger.ts';
import type { StandInRoutes } from './stand-in-context.ts';
import { hasServiceToken } from './stand-in-token-routes.ts';

/**
 * The routes of the stand-in platform's points ledger (points-ledger.ts): `POST
 * /v1/points/debits`, and the demo endpoints that show the ledger and make the next debit fail,
 * hang or lose its answer. A file apart from the ledger: the stand-in's context
 * (stand-in-context.ts) holds the ledger and these routes take the context, so the ledger imports
 * neither and no file imports one that imports it back (tests/repo/file-cycles.test.ts).
 */

/** How many debits GET /demo/ledger lists (newest first). */
const LISTED_DEBITS = 50;

const faultRequestSchema = z.object({ fault: z.enum(STAND_IN_DEBIT_FAULTS) }).strict();
const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,200}$/);

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
