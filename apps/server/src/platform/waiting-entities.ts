import { sql, type Kysely } from 'kysely';
import { platformEventDataSchemas, type PlatformEvent } from '@guquan/contract/platform-events';
import type { Database, PlatformEntityType } from '../db/schema.ts';
import type { Entity } from './platform-entities.ts';
import {
  chunked,
  idSlices,
  rowsPerStatement,
  weighedSlices,
  writeRowsOf,
} from '../db/sql-batches.ts';

/**
 * Entities that name what has not arrived (PRODUCT.md: goods whose owner is unknown): their latest
 * event is kept in platform_waiting with what it needs in platform_waiting_needs, and applied
 * again when all of it has arrived. Until then a page of theirs answers 404, but for a cabinet,
 * shown meanwhile with the goods it has.
 */

/** The kinds that may wait, and the event that brings each. */
const UPSERT_OF = {
  goods: 'goods.upserted',
  cabinet: 'cabinet.upserted',
  note: 'note.upserted',
  design: 'design.upserted',
} as const;
export type WaitingType = keyof typeof UPSERT_OF;
type NeededType = 'user' | 'goods';

export interface Need {
  type: NeededType;
  id: string;
}

export interface Waiting {
  type: WaitingType;
  event: PlatformEvent;
  needs: Need[];
}

/**
 * Forgets what these entities waited for: they are applied, removed, or wait again below. Two
 * statements a slice whatever the entities' types (`type = … and public_id in (…)` or'ed).
 */
/** Entities whose waiting rows one statement deletes at most (see forgetWaiting). */
const ENTITIES_FORGOTTEN_PER_STATEMENT = 10;

export async function forgetWaiting(
  trx: Kysely<Database>,
  entities: readonly Entity[],
): Promise<void> {
  // A waiting cabinet may wait for a thousand goods: ten entities a statement keep a delete of
  // their needs to some 10,000 rows, a step of milliseconds, where 250 cabinets' 250,000 rows at
  // once were one block of 180 ms of the event loop on SQLite (issue 37).
  for (const slice of chunked(entities, ENTITIES_FORGOTTEN_PER_STATEMENT)) {
    const byType = new Map<PlatformEntityType, string[]>();
    for (const { type, id } of slice) {
      const ids = byType.get(type) ?? [];
      ids.push(id);
      byType.set(type, ids);
    }
    const ofThese = sql<boolean>`${sql.join(
      [...byType].map(
        ([type, ids]) =>
          sql`(${sql.ref('type')} = ${type} and ${sql.ref('public_id')} in (${sql.join(ids)}))`,
      ),
      sql` or `,
    )}`;
    await trx.deleteFrom('platform_waiting_needs').where(ofThese).execute();
    await trx.deleteFrom('platform_waiting').where(ofThese).execute();
  }
}

/** Bytes of kept events a statement writes at most: a cabinet's event is up to ~70 KB. */
const WAITING_DATA_PER_STATEMENT = 256 * 1024;

/**
 * Keeps each entity's event with what it still needs: the events in statements of at most 256 KB,
 * the needs (a cabinet may wait for 1,000 goods) made an entity at a time, a statement of at most
 * LIST_ROWS_PER_STATEMENT rows each.
 */
export async function keepWaiting(
  trx: Kysely<Database>,
  waiting: readonly Waiting[],
  now: string,
): Promise<void> {
  const rows = waiting.map(({ type, event }) => ({
    type,
    public_id: event.data.id,
    version: event.data.version,
    data: JSON.stringify(event.data),
    received_at: now,
  }));
  const slices = weighedSlices(
    rows,
    (row) => row.data.length,
    WAITING_DATA_PER_STATEMENT,
    rowsPerStatement(5),
  );
  for (const slice of slices) {
    await trx.insertInto('platform_waiting').values(slice).execute();
  }
  await writeRowsOf(
    waiting,
    ({ type, event, needs }) => {
      const unique = new Map(needs.map((need) => [`${need.type}:${need.id}`, need]));
      return [...unique.values()].map((need) => ({
        type,
        public_id: event.data.id,
        needs_type: need.type,
        needs_id: need.id,
      }));
    },
    (slice) => trx.insertInto('platform_waiting_needs').values(slice).execute(),
  );
}

/** Who waits for any of these (users or goods that just arrived, or went for good), by type. */
async function waitersFor(
  trx: Kysely<Database>,
  needed: Partial<Record<NeededType, readonly string[]>>,
): Promise<Map<PlatformEntityType, Set<string>>> {
  const byType = new Map<PlatformEntityType, Set<string>>();
  for (const type of ['user', 'goods'] as const) {
    for (const slice of idSlices(needed[type] ?? [])) {
      const rows = await trx
        .selectFrom('platform_waiting_needs')
        .select(['type', 'public_id'])
        .distinct()
        .where('needs_type', '=', type)
        .where('needs_id', 'in', slice)
        .execute();
      for (const row of rows) {
        const ids = byType.get(row.type) ?? new Set<string>();
        byType.set(row.type, ids.add(row.public_id));
      }
    }
  }
  return byType;
}

function isWaitingType(type: PlatformEntityType): type is WaitingType {
  return type in UPSERT_OF;
}

/** The events of waiting entities that needed some of what arrived: to be applied again. */
export async function eventsWaitingFor(
  trx: Kysely<Database>,
  arrived: { users: readonly string[]; goods: readonly string[] },
): Promise<PlatformEvent[]> {
  const events = new Map<string, PlatformEvent>();
  const waiters = await waitersFor(trx, { user: arrived.users, goods: arrived.goods });
  for (const [type, ids] of waiters) {
    if (!isWaitingType(type)) continue;
    for (const slice of idSlices(ids)) {
      const rows = await trx
        .selectFrom('platform_waiting')
        .select(['public_id', 'data'])
        .where('type', '=', type)
        .where('public_id', 'in', slice)
        .execute();
      for (const row of rows) {
        const eventType = UPSERT_OF[type];
        // Kept as it was checked when it came in: parsed again only to be typed.
        const data = platformEventDataSchemas[eventType].parse(JSON.parse(row.data));
        events.set(`${type}:${row.public_id}`, { type: eventType, data } as PlatformEvent);
      }
    }
  }
  return [...events.values()];
}
