import { describe, expect, it } from 'vitest';
import {
  platformDeliverySchema,
  platformEventSchema,
  type PlatformEvent,
  type PlatformImage,
} from '@guquan/contract/platform-events';
import { PUBLIC_ID_PATTERN } from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { demoCommunityEvents, demoPictures } from './demo-community.ts';

const MEDIA_ORIGIN = 'http://127.0.0.1:4100';
const events = demoCommunityEvents({ mediaOrigin: MEDIA_ORIGIN, imageScale: 0.1 });

function ofType<T extends PlatformEvent['type']>(type: T) {
  return events.filter(
    (event): event is Extract<PlatformEvent, { type: T }> => event.type === type,
  );
}

function imagesOf(event: PlatformEvent): PlatformImage[] {
  switch (event.type) {
    case 'user.upserted':
      return event.data.avatar ? [event.data.avatar] : [];
    case 'goods.upserted':
    case 'note.upserted':
      return event.data.images;
    case 'cabinet.upserted':
      return [event.data.cover];
    case 'design.upserted':
      return [event.data.preview];
    default:
      return [];
  }
}

describe('the demo community as platform events', () => {
  it('is events as the contract has them, every one', () => {
    for (const [index, event] of events.entries()) {
      const parsed = platformEventSchema.safeParse(event);
      expect(parsed.error?.issues, `events[${index}]`).toBeUndefined();
      // Nothing the contract does not know (it would strip it).
      expect(parsed.data).toEqual(event);
    }
    expect(platformDeliverySchema.safeParse({ events: events.slice(0, 500) }).success).toBe(true);
  });

  it('is the same at every call, so a second delivery changes nothing', () => {
    expect(demoCommunityEvents({ mediaOrigin: MEDIA_ORIGIN, imageScale: 0.1 })).toEqual(events);
  });

  it('carries every demo id the tests and the README link to, under its own type', () => {
    const ids = (type: PlatformEvent['type']) =>
      events.filter((e) => e.type === type).map((e) => e.data.id);
    expect(ids('user.upserted')).toEqual(Object.values(DEMO_IDS.users));
    expect(ids('goods.upserted')).toEqual(expect.arrayContaining(Object.values(DEMO_IDS.goods)));
    expect(ids('cabinet.upserted')).toEqual(
      expect.arrayContaining(Object.values(DEMO_IDS.cabinets)),
    );
    expect(ids('note.upserted')).toEqual(expect.arrayContaining(Object.values(DEMO_IDS.notes)));
    expect(ids('design.upserted')).toEqual(Object.values(DEMO_IDS.designs));
    expect(events.map((event) => event.data.id)).not.toContain(DEMO_IDS.unknown);
  });

  it('gives every entity a well-formed id of its own', () => {
    for (const type of ['user', 'goods', 'cabinet', 'note', 'design'] as const) {
      const ids = events.filter((e) => e.type === `${type}.upserted`).map((e) => e.data.id);
      expect(new Set(ids).size, type).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(PUBLIC_ID_PATTERN);
    }
    const commentIds = ofType('note.upserted').flatMap((e) => e.data.topComments.map((c) => c.id));
    expect(new Set(commentIds).size).toBe(commentIds.length);
  });

  it('upserts at version 1, then removes the removed items at version 2', () => {
    const removals = events.filter((event) => event.type.endsWith('.removed'));
    expect(removals).toEqual([
      { type: 'goods.removed', data: { id: DEMO_IDS.goods.removed, version: 2 } },
      { type: 'cabinet.removed', data: { id: DEMO_IDS.cabinets.removed, version: 2 } },
      { type: 'note.removed', data: { id: DEMO_IDS.notes.removed, version: 2 } },
    ]);
    expect(events.indexOf(removals[0] as PlatformEvent)).toBe(events.length - 3);
    for (const event of events.filter((e) => !e.type.endsWith('.removed'))) {
      expect(event.data.version).toBe(1);
    }
  });

  it('names only users and goods it sends', () => {
    const users = new Set(ofType('user.upserted').map((e) => e.data.id));
    const goods = new Set(ofType('goods.upserted').map((e) => e.data.id));
    const named = [
      ...ofType('goods.upserted').map((e) => e.data.ownerId),
      ...ofType('cabinet.upserted').map((e) => e.data.ownerId),
      ...ofType('note.upserted').flatMap((e) => [
        e.data.authorId,
        ...e.data.topComments.map((comment) => comment.authorId),
      ]),
      ...ofType('design.upserted').map((e) => e.data.designerId),
    ];
    for (const id of named) expect(users).toContain(id);
    for (const id of ofType('cabinet.upserted').flatMap((e) => e.data.goodsIds)) {
      expect(goods).toContain(id);
    }
  });

  it('carries the points, phones and deletion blockers of the demo story', () => {
    const users = new Map(ofType('user.upserted').map((e) => [e.data.id, e.data]));
    const user = (id: string) => users.get(id);
    expect(user(DEMO_IDS.users.yuyuan)?.points).toBe(1200);
    expect(user(DEMO_IDS.users.satoru)?.points).toBe(120);
    expect(user(DEMO_IDS.users.karasuno)?.points).toBe(500);
    expect(user(DEMO_IDS.users.chigu)?.points).toBe(0);
    expect(user(DEMO_IDS.users.yuyuan)?.phone).toBe('+8613800000001');
    expect(user(DEMO_IDS.users.beika)?.avatar).toBeNull();
    expect(user(DEMO_IDS.users.karasuno)?.deletionBlockers).toEqual([
      expect.objectContaining({ kind: 'exposure_in_review' }),
    ]);
    expect(
      [...users.values()].filter((data) => data.deletionBlockers.length > 0).map((d) => d.id),
    ).toEqual([DEMO_IDS.users.karasuno]);
  });

  it('sends at most three top comments, the removed one never, and counts the rest', () => {
    const rich = ofType('note.upserted').find((e) => e.data.id === DEMO_IDS.notes.rich)?.data;
    expect(rich?.comments).toBe(6);
    expect(rich?.topComments.map((comment) => comment.likes)).toEqual([88, 65, 65]);
    expect(rich?.topComments.map((comment) => comment.text).join()).not.toContain('低价出谷');
  });

  it('puts every image on the media origin, one URL per picture it serves', () => {
    const images = events.flatMap(imagesOf);
    const served = new Set(
      demoPictures().map((picture) => `${MEDIA_ORIGIN}/media/${picture.name}`),
    );
    expect(new Set(images.map((image) => image.url))).toEqual(served);
    expect(served.size).toBe(images.length);
    for (const image of images) {
      expect(image.width).toBeGreaterThanOrEqual(16);
      expect(image.height).toBeGreaterThanOrEqual(16);
      expect(image.alt).not.toBe('');
    }
  });
});
