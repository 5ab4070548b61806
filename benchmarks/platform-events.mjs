// The platform's events as a benchmark sends them: users, each followed by their goods, as JSON
// lines (npm run platform:import's file) or deliveries of 500 (the events endpoint). Ids are
// 16 characters of the public id alphabet; images come from a few URLs on one media origin (the
// site fetches a URL once, so a benchmark of events is not a benchmark of image fetches).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** A public id of 16 characters: a letter, then `n` in base 36. */
const idOf = (letter, n) => `${letter}${n.toString(36).padStart(15, '0')}`;

const CREATED = '2026-11-20T09:15:00.000Z';

export function userEvent(n, mediaOrigin, version = 1) {
  return {
    type: 'user.upserted',
    data: {
      id: idOf('u', n),
      version,
      nickname: `谷友${n}`,
      avatar: {
        url: `${mediaOrigin}/avatars/${n % 10}.jpg`,
        width: 480,
        height: 480,
        alt: '',
      },
      phone: null,
      points: n % 5000,
      deletionBlockers: [],
    },
  };
}

export function goodsEvent(n, owner, mediaOrigin, version = 1) {
  return {
    type: 'goods.upserted',
    data: {
      id: idOf('g', n),
      version,
      ownerId: idOf('u', owner),
      name: `吧唧 58mm 第${n}号`,
      work: '咒术回战',
      character: '五条悟',
      category: '吧唧',
      priceFen: 3500,
      status: 'selling',
      visibility: 'public',
      images: [
        { url: `${mediaOrigin}/goods/${n % 100}.jpg`, width: 1080, height: 1440, alt: '吧唧正面' },
      ],
      likes: n % 97,
      wants: n % 13,
      text: '全新未拆，同城可面交。',
      tags: ['咒术回战', '吧唧'],
      createdAt: CREATED,
    },
  };
}

/** Users `firstUser`… each followed by `goodsPerUser` goods, as events, in that order. */
export function* communityEvents({ users, goodsPerUser, mediaOrigin, firstUser = 0 }) {
  for (let user = firstUser; user < firstUser + users; user += 1) {
    yield userEvent(user, mediaOrigin);
    for (let k = 0; k < goodsPerUser; k += 1) {
      yield goodsEvent(user * goodsPerUser + k, user, mediaOrigin);
    }
  }
}

/** Writes events to `file`, one JSON line each, heeding the stream's back-pressure. */
export async function writeEventFile(file, events) {
  const out = createWriteStream(file);
  let lines = 0;
  for (const event of events) {
    if (!out.write(`${JSON.stringify(event)}\n`)) await once(out, 'drain');
    lines += 1;
  }
  out.end();
  await once(out, 'finish');
  return lines;
}
