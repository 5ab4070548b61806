import type { Kysely } from 'kysely';
import type { PlatformEvent } from '@guquan/contract/platform-events';
import { versionKey } from '../db/platform-tombstones.ts';
import type { Database } from '../db/schema.ts';
import { ENTITY_OF, endsEntity, entityKey, eventEntityKey } from './platform-entities.ts';
import { booleanValue, idSlices, rowSlices } from '../db/sql-batches.ts';

/**
 * The versions of the platform's entities (platform_versions): of a batch's events, those whose
 * version is above the stored one, and their versions stored, in one statement per slice. The
 * upsert's condition is checked against the row as it is when the statement runs, so of two
 * deliveries of one entity only the newer version wins, whatever their order.
 */
export async function claimNewerVersions(
  trx: Kysely<Database>,
  events: readonly PlatformEvent[],
  now: string,
): Promise<PlatformEvent[]> {
  // The latest event of each entity in the batch; the others are ignored like any older one.
  const latest = new Map<string, PlatformEvent>();
  for (const event of events) {
    const key = eventEntityKey(event);
    const seen = latest.get(key);
    if (!seen || event.data.version > seen.data.version) latest.set(key, event);
  }
  // One order for every delivery: rows are locked in it, so two deliveries cannot deadlock.
  const candidates = [...latest.values()].sort((a, b) =>
    eventEntityKey(a) < eventEntityKey(b) ? -1 : 1,
  );
  const claimed = new Set<string>();
  for (const slice of rowSlices(candidates, 5)) {
    const rows = await trx
      .insertInto('platform_versions')
      .values(
        slice.map((event) => ({
          type: ENTITY_OF[event.type],
          public_id: versionKey(ENTITY_OF[event.type], event.data.id),
          version: event.data.version,
          removed: booleanValue(trx, endsEntity(event.type)),
          updated_at: now,
        })),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['type', 'public_id'])
          .doUpdateSet((eb) => ({
            version: eb.ref('excluded.version'),
            removed: eb.ref('excluded.removed'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where('platform_versions.version', '<', (eb) => eb.ref('excluded.version'))
          // A deleted account's tombstone is final: nothing brings the account back.
          .where((eb) =>
            eb.or([
              eb('platform_versions.type', '!=', 'user'),
              eb('platform_versions.removed', '=', booleanValue(trx, false)),
            ]),
          ),
      )
      .returning(['type', 'public_id'])
      .execute();
    for (const row of rows) claimed.add(entityKey(row.type, row.public_id));
  }
  return candidates.filter((event) => {
    const type = ENTITY_OF[event.type];
    return claimed.has(entityKey(type, versionKey(type, event.data.id)));
  });
}

/**
 * Of these ids, those removed (a tombstone): users deleted, here or by the platform, whom nothing
 * naming them will find; goods removed, which a cabinet no longer waits for.
 */
export async function removedEntities(
  trx: Kysely<Database>,
  type: 'user' | 'goods',
  publicIds: readonly string[],
): Promise<Set<string>> {
  const idOfKey = new Map(publicIds.map((id) => [versionKey(type, id), id]));
  const removed = new Set<string>();
  for (const slice of idSlices([...idOfKey.keys()])) {
    const rows = await trx
      .selectFrom('platform_versions')
      .select('public_id')
      .where('type', '=', type)
      .where('public_id', 'in', slice)
      .where('removed', '=', booleanValue(trx, true))
      .execute();
    for (const row of rows) {
      const id = idOfKey.get(row.public_id);
      if (id !== undefined) removed.add(id);
    }
  }
  return removed;
}
