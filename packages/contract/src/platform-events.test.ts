import { describe, expect, it } from 'vitest';
import {
  PLATFORM_EVENT_TYPES,
  platformDeliverySchema,
  platformEventJsonSchemas,
} from './platform-events.ts';

const image = { url: 'https://media.example.com/a.jpg', width: 800, height: 600, alt: '' };

describe('platform events', () => {
  it('accepts a delivery and drops fields it does not know', () => {
    const parsed = platformDeliverySchema.parse({
      events: [
        {
          type: 'user.upserted',
          data: {
            id: 'user_00000000001',
            version: 3,
            nickname: '小谷',
            avatar: image,
            phone: '+8613800138000',
            points: 120,
            deletionBlockers: [],
            addedLater: true,
          },
        },
      ],
    });
    expect(parsed.events[0]?.data).not.toHaveProperty('addedLater');
  });

  it('refuses a phone that is not E.164, an unsafe version and an empty delivery', () => {
    const user = {
      id: 'user_00000000001',
      version: 1,
      nickname: 'a',
      avatar: null,
      phone: '13800138000',
      points: 0,
      deletionBlockers: [],
    };
    expect(
      platformDeliverySchema.safeParse({ events: [{ type: 'user.upserted', data: user }] }).success,
    ).toBe(false);
    expect(
      platformDeliverySchema.safeParse({
        events: [{ type: 'goods.removed', data: { id: 'goods_0000000001', version: 2 ** 53 } }],
      }).success,
    ).toBe(false);
    expect(platformDeliverySchema.safeParse({ events: [] }).success).toBe(false);
  });

  it('gives a JSON Schema for the delivery and for every type', () => {
    const schemas = platformEventJsonSchemas();
    expect(Object.keys(schemas.data)).toEqual([...PLATFORM_EVENT_TYPES]);
    expect(schemas.data['goods.upserted']).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'version', 'ownerId', 'images']) as unknown,
    });
    expect(schemas.delivery).toMatchObject({ type: 'object' });
  });
});
