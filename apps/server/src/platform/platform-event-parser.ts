import { z } from 'zod';
import {
  PLATFORM_EVENT_TYPES,
  PLATFORM_EVENTS_PER_DELIVERY,
  platformEventDataSchemas,
  type PlatformEvent,
  type PlatformEventType,
} from '@guquan/contract/platform-events';
import { isOnMediaOrigins } from '../config/platform-config.ts';
import { nextTurn } from '../db/event-loop-turns.ts';
import { imagesOf } from './platform-entities.ts';

/**
 * A delivery's body checked at the edge (PRODUCT.md, "Events in"): the envelope, each event's
 * `data` by its type's schema (contract: platform-events.ts), then every image's URL against
 * PLATFORM_MEDIA_ORIGINS. A refusal names the first bad place, as `events[3].data.images[0].url`.
 * A type the site does not know is passed over and counted (docs/decisions/0021-platform-events-in.md).
 */
export type ParsedEvents =
  | { ok: true; events: PlatformEvent[]; unknownTypes: string[] }
  | { ok: false; path: string; message: string };

export type ParsedEvent =
  | { ok: true; event: PlatformEvent }
  | { ok: true; event: null; unknownType: string }
  | { ok: false; path: string; message: string };

/** A type the platform may ship before the site knows it: `noun.verb`, lower case. */
const TYPE_PATTERN = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

const envelopeSchema = z.object({
  events: z
    .array(z.unknown())
    .min(1, `must hold 1 to ${PLATFORM_EVENTS_PER_DELIVERY} events`)
    .max(PLATFORM_EVENTS_PER_DELIVERY, `must hold 1 to ${PLATFORM_EVENTS_PER_DELIVERY} events`),
});

const eventShapeSchema = z.object({
  type: z.string().regex(TYPE_PATTERN, 'must be an event type such as goods.upserted'),
  data: z.unknown(),
});

const KNOWN_TYPES: ReadonlySet<string> = new Set(PLATFORM_EVENT_TYPES);

function isKnownType(type: string): type is PlatformEventType {
  return KNOWN_TYPES.has(type);
}

/** `events[3].data.images[0].url` from a zod path under `prefix`. */
function pathText(prefix: string, path: readonly PropertyKey[]): string {
  let text = prefix;
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`;
  }
  return text === '' ? '(body)' : text;
}

function firstIssue(
  error: z.ZodError,
  prefix: string,
): { ok: false; path: string; message: string } {
  const issue = error.issues[0];
  return {
    ok: false,
    path: pathText(prefix, issue?.path ?? []),
    message: issue?.message ?? 'is not valid',
  };
}

/** One event (a delivery's, or a line of an import file) at `path`. */
export function parsePlatformEvent(
  input: unknown,
  mediaOrigins: readonly string[],
  path = '',
): ParsedEvent {
  const shape = eventShapeSchema.safeParse(input);
  if (!shape.success) return firstIssue(shape.error, path);
  const { type } = shape.data;
  if (!isKnownType(type)) return { ok: true, event: null, unknownType: type };
  const data = platformEventDataSchemas[type].safeParse(shape.data.data);
  if (!data.success) return firstIssue(data.error, pathText(path, ['data']));
  // The schemas of the type and its data agree by construction (contract: platform-events.ts).
  const event = { type, data: data.data } as PlatformEvent;
  for (const [where, image] of imagesOf(event)) {
    if (!isOnMediaOrigins(image.url, mediaOrigins)) {
      return {
        ok: false,
        path: `${pathText(path, ['data'])}.${where}.url`,
        message: 'must be on one of the platform media origins (PLATFORM_MEDIA_ORIGINS)',
      };
    }
  }
  return { ok: true, event };
}

/**
 * A delivery's body, `{ "events": [ … ] }`, already parsed from JSON: each event checked in a step
 * of its own, the event loop given back between them (a cabinet's 1,000 goods ids take about a
 * millisecond to check, 500 of them a quarter of a second: pages answer meanwhile).
 */
export async function parsePlatformEvents(
  input: unknown,
  mediaOrigins: readonly string[],
): Promise<ParsedEvents> {
  const envelope = envelopeSchema.safeParse(input);
  if (!envelope.success) return firstIssue(envelope.error, '');
  const events: PlatformEvent[] = [];
  const unknownTypes: string[] = [];
  for (const [index, item] of envelope.data.events.entries()) {
    if (index > 0) await nextTurn();
    const parsed = parsePlatformEvent(item, mediaOrigins, `events[${index}]`);
    if (!parsed.ok) return parsed;
    if (parsed.event === null) unknownTypes.push(parsed.unknownType);
    else events.push(parsed.event);
  }
  return { ok: true, events, unknownTypes };
}
