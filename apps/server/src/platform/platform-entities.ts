import type {
  PlatformEvent,
  PlatformEventType,
  PlatformImage,
} from '@guquan/contract/platform-events';
import type { PlatformEntityType } from '../db/schema.ts';

/** The entity each event type is about, as platform_versions keeps it. */
export const ENTITY_OF: Readonly<Record<PlatformEventType, PlatformEntityType>> = {
  'user.upserted': 'user',
  'goods.upserted': 'goods',
  'cabinet.upserted': 'cabinet',
  'note.upserted': 'note',
  'design.upserted': 'design',
  'goods.removed': 'goods',
  'cabinet.removed': 'cabinet',
  'note.removed': 'note',
  'design.removed': 'design',
  'user.deleted': 'user',
};

/** Whether the event ends its entity (a removal, a deleted account): its version is a tombstone. */
export function endsEntity(type: PlatformEventType): boolean {
  return type.endsWith('.removed') || type === 'user.deleted';
}

/** `goods:abc`: one entity, whatever the event. */
export function entityKey(type: PlatformEntityType, publicId: string): string {
  return `${type}:${publicId}`;
}

export function eventEntityKey(event: PlatformEvent): string {
  return entityKey(ENTITY_OF[event.type], event.data.id);
}

/** One of the platform's entities, by its type and public id. */
export interface Entity {
  type: PlatformEntityType;
  id: string;
}

/** The entity an event is about. */
export function entityOf(event: PlatformEvent): Entity {
  return { type: ENTITY_OF[event.type], id: event.data.id };
}

/** The events of one type, typed. */
export type EventOf<T extends PlatformEventType> = Extract<PlatformEvent, { type: T }>;

export function eventsOfType<T extends PlatformEventType>(
  events: readonly PlatformEvent[],
  type: T,
): EventOf<T>[] {
  return events.filter((event): event is EventOf<T> => event.type === type);
}

/**
 * Where each image of an event is in its `data`, and the image: what the parser checks against
 * the media origins, and the images the copy makes rows for.
 */
export function imagesOf(event: PlatformEvent): [string, PlatformImage][] {
  switch (event.type) {
    case 'user.upserted':
      return event.data.avatar ? [['avatar', event.data.avatar]] : [];
    case 'goods.upserted':
    case 'note.upserted':
      return event.data.images.map((image, index) => [`images[${index}]`, image]);
    case 'cabinet.upserted':
      return [['cover', event.data.cover]];
    case 'design.upserted':
      return [['preview', event.data.preview]];
    default:
      return [];
  }
}
