import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';

/**
 * Demo mode only: the bridge simulator's "Platform" section watches the stand-in platform (its
 * points ledger, the events it received from the site) and sets its faults, through the site.
 * The stand-in's own demo paths (loopback only) are below; the site's routes read and forward
 * them unchanged.
 */
export const DEMO_PLATFORM_PATH = `${API_BASE_PATH}/demo/platform`;
export const DEMO_PLATFORM_FAULTS_PATH = `${DEMO_PLATFORM_PATH}/faults`;

/** The stand-in's demo paths, at PLATFORM_API_URL. */
export const STAND_IN_DEMO_PATHS = {
  ledger: '/demo/ledger',
  ledgerFault: '/demo/ledger/fault',
  receivedEvents: '/demo/received-events',
  receivedEventsFault: '/demo/received-events/fault',
} as const;

/**
 * What the stand-in does to the next debit request only: `fail` answers 500 and charges nothing,
 * `hang` never answers, `lose_answer` charges and then cuts the connection without an answer.
 */
export const DEBIT_FAULTS = ['none', 'fail', 'hang', 'lose_answer'] as const;
export const debitFaultSchema = z.enum(DEBIT_FAULTS);
export type DebitFault = z.infer<typeof debitFaultSchema>;

/** The most deliveries the stand-in's receiver can be told to refuse (503) in a row. */
export const MAX_EVENTS_FAIL_NEXT = 10;
const failNextSchema = z.number().int().min(0).max(MAX_EVENTS_FAIL_NEXT);

/** `GET /demo/ledger`: balances, and the debits newest first (at most 50). */
export const standInLedgerSchema = z.object({
  balances: z.array(z.object({ userId: z.string(), balance: z.number().int() })),
  debits: z.array(
    z.object({
      key: z.string(),
      userId: z.string(),
      points: z.number().int(),
      designId: z.string(),
      outcome: z.enum(['charged', 'insufficient_points']),
      balance: z.number().int(),
      at: z.string(),
    }),
  ),
  nextDebitFault: debitFaultSchema,
  /** The client's port of each debit request held open now (a `hang` fault), for tests. */
  heldFrom: z.array(z.number().int()),
});
export type StandInLedger = z.infer<typeof standInLedgerSchema>;

/**
 * `GET /demo/received-events`: the deliveries the stand-in's events receiver got, newest first
 * (at most 50), a repeated webhook-id listed once with its attempts counted.
 */
export const standInReceivedEventsSchema = z.object({
  deliveries: z.array(
    z.object({
      webhookId: z.string(),
      receivedAt: z.string(),
      events: z.array(z.object({ type: z.string(), userId: z.string() })),
      attempt: z.number().int().min(1),
    }),
  ),
  failNext: failNextSchema,
});
export type StandInReceivedEvents = z.infer<typeof standInReceivedEventsSchema>;

/**
 * `POST /demo/received-events/fault`: 204. (`POST /demo/ledger/fault` takes `{ fault }`, one of
 * DEBIT_FAULTS.)
 */
export const standInReceivedEventsFaultSchema = z.object({ failNext: failNextSchema });

/**
 * `GET {DEMO_PLATFORM_PATH}`: the stand-in's two demo views; a part the stand-in does not have
 * (404) is null.
 */
export const demoPlatformSchema = z.object({
  ledger: standInLedgerSchema.nullable(),
  received: standInReceivedEventsSchema.nullable(),
});
export type DemoPlatform = z.infer<typeof demoPlatformSchema>;

/** `POST {DEMO_PLATFORM_FAULTS_PATH}`: at least one of the two; 204. */
export const demoPlatformFaultsSchema = z
  .strictObject({ debit: debitFaultSchema.optional(), eventsFailNext: failNextSchema.optional() })
  .refine((faults) => faults.debit !== undefined || faults.eventsFailNext !== undefined, {
    message: 'Give debit, eventsFailNext or both.',
  });
export type DemoPlatformFaults = z.infer<typeof demoPlatformFaultsSchema>;
