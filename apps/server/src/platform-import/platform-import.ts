import { z } from 'zod';
import {
  PLATFORM_DELIVERY_MAX_BYTES,
  PLATFORM_EVENTS_PER_DELIVERY,
  type PlatformEvent,
} from '@guquan/contract/platform-events';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { lockKey, PLATFORM_COPY_LOCK } from '../db/locking.ts';
import { parsePlatformEvent } from '../platform/platform-event-parser.ts';
import { applyPlatformEvents } from '../platform/platform-repository.ts';
import type { LineCheck } from './event-batches.ts';
import { DELIVERY_ENVELOPE_BYTES } from './event-lines.ts';
import { runEventFile, type BatchResult, type EventFileOutcome } from './event-file-run.ts';
import type { RunProgress } from './import-progress.ts';
import {
  DeliveryRefused,
  deliverLines,
  lineRefusalOf,
  RemoteRefusal,
  type DeliveryTarget,
} from './signed-delivery.ts';

/**
 * `npm run platform:import` (PRODUCT.md, "Backfill"): an events file, one `{ type, data }` a
 * line, applied to the site's database the way deliveries are, or (`--to`) delivered to a site.
 */

/** Events per transaction of a local import: large, so a million lines take minutes. */
export const IMPORT_BATCH_EVENTS = 5000;

interface RunControls {
  file: string;
  /** Asked between two batches: true stops the run there (Ctrl-C). */
  stopRequested: () => boolean;
  onProgress?: (progress: RunProgress) => void;
}

/**
 * How a line is checked and a batch applied on this site's database: the platform feature's
 * own parse (the media origins included) and apply, in one transaction per batch under the lock
 * every writer of the platform's copy takes, so a server's deliveries wait for it.
 */
export function localSteps(
  db: Db,
  { phones, mediaOrigins }: { phones: PhoneProtection; mediaOrigins: readonly string[] },
): Pick<LocalImport, 'check' | 'apply'> {
  return {
    check: (value) => {
      const parsed = parsePlatformEvent(value, mediaOrigins);
      if (!parsed.ok) {
        return {
          ok: false,
          path: parsed.path === '' ? '(line)' : parsed.path,
          message: parsed.message,
        };
      }
      return { ok: true, item: parsed.event };
    },
    apply: (events) =>
      db.transaction().execute(async (trx) => {
        await lockKey(trx, PLATFORM_COPY_LOCK);
        const result = await applyPlatformEvents(trx, events, { phones, now: new Date() });
        // What waits for what it names is kept: taken in, as far as the file is concerned.
        return { applied: result.applied + result.waiting, ignored: result.ignored };
      }),
  };
}

export interface LocalImport extends RunControls {
  /** One line's event checked as a delivery's (null: a type the site passes over). */
  check: (value: unknown) => LineCheck<PlatformEvent>;
  /** Applies the events of one batch in one transaction. */
  apply: (events: PlatformEvent[]) => Promise<BatchResult>;
  batchEvents?: number;
}

/**
 * Applies the file's events with the same rules as deliveries, `batchEvents` to a transaction.
 * A bad line stops the run before its batch; what was applied stays, and a rerun of the file
 * changes nothing more than it did (an event not above its entity's stored version is ignored).
 */
export function importEventFile(run: LocalImport): Promise<EventFileOutcome> {
  return runEventFile({
    file: run.file,
    check: run.check,
    limits: { maxEvents: run.batchEvents ?? IMPORT_BATCH_EVENTS },
    take: async (batch) => {
      const result = await run.apply(batch.items);
      // A type the site does not know is passed over, as in a delivery.
      return {
        applied: result.applied,
        ignored: result.ignored + batch.events - batch.items.length,
      };
    },
    stopRequested: run.stopRequested,
    onProgress: run.onProgress,
  });
}

/** A line to deliver as it is, and where it is in the file. */
interface FileEvent {
  line: number;
  text: string;
}

const EVENT_SHAPE = z.object({
  type: z.string().min(1, 'must be the event type'),
  data: z.record(z.string(), z.unknown(), 'must be an object'),
});

/** Only the envelope of an event: the site that receives it checks the rest (its media origins). */
function shapeOf(value: unknown, line: { number: number; text: string }): LineCheck<FileEvent> {
  const parsed = EVENT_SHAPE.safeParse(value);
  if (parsed.success) return { ok: true, item: { line: line.number, text: line.text } };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    path: issue?.path.join('.') || '(line)',
    message: issue?.message ?? 'is not an event',
  };
}

export interface RemoteDelivery extends RunControls {
  target: DeliveryTarget;
}

/**
 * Delivers the file's events to a site as the platform would: signed deliveries of at most 500
 * events and 5 MB, one after the other, each retried with its `webhook-id` until the site
 * answers. The lines travel as they are written.
 */
export function deliverEventFile(run: RemoteDelivery): Promise<EventFileOutcome> {
  return runEventFile({
    file: run.file,
    check: shapeOf,
    // The envelope `{"events":[…]}` takes a few bytes of the 5 MB.
    limits: {
      maxEvents: PLATFORM_EVENTS_PER_DELIVERY,
      maxBytes: PLATFORM_DELIVERY_MAX_BYTES - DELIVERY_ENVELOPE_BYTES,
    },
    take: async (batch) => {
      try {
        return await deliverLines(
          run.target,
          batch.items.map((event) => event.text),
        );
      } catch (error) {
        if (error instanceof DeliveryRefused) {
          throw new RemoteRefusal(error, lineRefusalOf(error, batch.items));
        }
        throw error;
      }
    },
    stopRequested: run.stopRequested,
    onProgress: run.onProgress,
  });
}
