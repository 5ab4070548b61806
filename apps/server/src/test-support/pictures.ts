import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { GOODS_STATUSES, type ShareItems } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { DEMO_CABINETS, DEMO_GOODS, DEMO_NOTES, DEMO_USERS } from '../demo/seed/demo-content.ts';

const run = promisify(execFile);

/** The content of a page's `<meta property|name="key">`, unescaped, or undefined. */
export function metaContent(html: string, key: string): string | undefined {
  const match = new RegExp(
    `<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`,
  ).exec(html);
  return match?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The path of an absolute address on the test server's public origin. */
export function pathOf(address: string): string {
  const url = new URL(address);
  return `${url.pathname}${url.search}`;
}

/** A share page's og:image, as a path, with the page's other preview tags. */
export async function previewOf(app: FastifyInstance, url: string) {
  const page = await app.inject({ url });
  const html = page.body;
  const image = metaContent(html, 'og:image');
  expect(image, `og:image of ${url}`).toBeDefined();
  return {
    status: page.statusCode,
    html,
    path: pathOf(image ?? ''),
    width: metaContent(html, 'og:image:width'),
    height: metaContent(html, 'og:image:height'),
    alt: metaContent(html, 'og:image:alt'),
    twitterCard: metaContent(html, 'twitter:card'),
    twitterImage: metaContent(html, 'twitter:image'),
  };
}

/** What Debian's zbarimg reads from a picture: the texts of every QR code it finds. */
export async function decodeQrCodes(image: Buffer): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'guquan-qr-'));
  try {
    const file = join(dir, 'picture.png');
    await writeFile(file, image);
    const { stdout } = await run('zbarimg', [
      '--quiet',
      '--raw',
      '-Sdisable',
      '-Sqrcode.enable',
      file,
    ]).catch((error: unknown) => {
      // zbarimg exits 4 when it finds no code at all.
      if ((error as { code?: unknown }).code === 4) return { stdout: '' };
      throw error;
    });
    return stdout.split('\n').filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every text of the demo community a picture may show: names, works, titles, notes' texts. */
export function demoPictureTexts(): string[] {
  return [
    ...DEMO_USERS.map((user) => user.nickname),
    ...DEMO_GOODS.flatMap((goods) => [goods.name, goods.work, goods.character ?? '']),
    ...DEMO_CABINETS.map((cabinet) => cabinet.name),
    ...DEMO_NOTES.flatMap((note) => [note.title, note.text]),
  ];
}

const user = { id: 'userAAAAAAAAAAA1', nickname: '谷主', avatar: null };
const image = { id: 'imageAAAAAAAAAA1', width: 800, height: 800, alt: '' };

/** One item of each kind, with every goods status: what the pictures' own texts are made of. */
export const SAMPLE_ITEMS: readonly Share[] = [
  ...GOODS_STATUSES.map((status): Share => [
    'goods',
    {
      id: 'goodsAAAAAAAAAA1',
      name: '吧唧',
      work: '咒术回战',
      character: null,
      category: '吧唧',
      priceFen: status === 'selling' ? 3500 : null,
      status,
      owner: user,
      images: [image],
      likes: 0,
      wants: 0,
      text: '',
      tags: [],
      createdAt: '2025-11-02T08:30:00.000Z',
    },
  ]),
  [
    'cabinet',
    {
      id: 'cabinetAAAAAAAA1',
      name: '痛柜',
      cover: image,
      owner: user,
      itemCount: 2,
      items: [],
      text: '',
      likes: 0,
      createdAt: '2025-11-02T08:30:00.000Z',
    },
  ],
  [
    'note',
    {
      id: 'noteAAAAAAAAAAA1',
      title: '笔记',
      text: '第一行',
      author: user,
      images: [],
      tags: [],
      likes: 0,
      collects: 0,
      comments: 0,
      topComments: [],
      createdAt: '2025-11-02T08:30:00.000Z',
    },
  ],
];

export type Share = { [K in ShareKind]: [K, ShareItems[K]] }[ShareKind];
