import {
  cabinetSchema,
  goodsSchema,
  noteSchema,
  type Cabinet,
  type Goods,
  type Image,
  type Note,
  type UserSummary,
} from '@guquan/contract/share';

/**
 * Share items for the share pages' tests: typed by the contract and parsed by its schemas as they
 * are made, so a fixture the API could not answer fails every test that uses it.
 */

function image(id: string, width: number, height: number, alt = ''): Image {
  return { id, width, height, alt };
}

export const ownerFixture: UserSummary = {
  id: 'userAAAAAAAAAAA1',
  nickname: '五条悟的猫',
  avatar: image('avatarAAAAAAAAA1', 320, 320),
};

const commenter: UserSummary = { id: 'userBBBBBBBBBBB2', nickname: '乙骨忧太本命', avatar: null };

export const goodsFixture: Goods = goodsSchema.parse({
  id: 'goodsAAAAAAAAAA1',
  name: '咒术回战 五条悟 吧唧 第二弹 闪粉款',
  work: '咒术回战',
  character: '五条悟',
  category: '吧唧',
  priceFen: 3500,
  status: 'selling',
  owner: ownerFixture,
  images: [
    image('imageAAAAAAAAAA1', 1080, 1080, '五条悟闪粉吧唧正面'),
    image('imageAAAAAAAAAA2', 1080, 1440, '吧唧背面的官方贴纸'),
    image('imageAAAAAAAAAA3', 1440, 1080, ''),
  ],
  likes: 12_345,
  wants: 87,
  text: '全新未拆，只拆出来拍了照。\n包邮，可小刀。\n\n同担可私，不接受换谷。',
  tags: ['咒术回战', '五条悟', '吧唧'],
  createdAt: '2025-11-02T08:30:00.000Z',
} satisfies Goods);

export const cabinetFixture: Cabinet = cabinetSchema.parse({
  id: 'cabinetAAAAAAAA1',
  name: '我的咒术痛柜',
  cover: image('coverAAAAAAAAAA1', 1280, 960, '摆满咒术回战谷子的玻璃柜'),
  owner: ownerFixture,
  itemCount: 48,
  items: [
    {
      id: 'goodsAAAAAAAAAA1',
      name: '五条悟 吧唧 第二弹',
      work: '咒术回战',
      status: 'selling',
      priceFen: 3500,
      cover: image('imageAAAAAAAAAA1', 1080, 1080, '五条悟闪粉吧唧'),
    },
    {
      id: 'goodsAAAAAAAAAA2',
      name: '虎杖悠仁 立牌',
      work: '咒术回战',
      status: 'display',
      cover: image('imageBBBBBBBBBB1', 900, 1200),
    },
    {
      id: 'goodsAAAAAAAAAA3',
      name: '伏黑惠 色纸',
      work: '咒术回战',
      status: 'wanted',
      priceFen: 2000,
      cover: image('imageBBBBBBBBBB2', 1200, 900),
    },
    {
      id: 'goodsAAAAAAAAAA4',
      name: '钉崎野蔷薇 镭射票',
      work: '咒术回战',
      status: 'display',
      cover: image('imageBBBBBBBBBB3', 600, 600),
    },
  ],
  text: '三年收下来的咒术谷子都在这里了。\n欢迎同好来逛！',
  likes: 256,
  createdAt: '2025-10-20T12:00:00.000Z',
} satisfies Cabinet);

export const noteFixture: Note = noteSchema.parse({
  id: 'noteAAAAAAAAAAA1',
  title: '第一次出谷的避雷心得',
  text: [
    '#出谷经验# 第一次出谷，记录一下流程～',
    '感谢 @乙骨忧太本命 的帮助！',
    '官方规则看这里：https://www.guquan.example/rules?from=note.',
    '别点这个：javascript:alert(1)',
    '<img src=x onerror=alert(1)> 这段是纯文字',
    '#咒术回战 #吧唧',
  ].join('\n'),
  author: ownerFixture,
  images: [
    image('noteImageAAAAAA1', 1080, 1440, '打包好的吧唧和小卡'),
    image('noteImageAAAAAA2', 1080, 1080),
  ],
  tags: ['出谷经验', '咒术回战'],
  likes: 1_024,
  collects: 300,
  comments: 42,
  topComments: [
    {
      id: 'commentAAAAAAAA1',
      author: commenter,
      text: '太有用了！\n收藏了',
      likes: 12,
      createdAt: '2025-11-03T01:00:00.000Z',
    },
    {
      id: 'commentAAAAAAAA2',
      author: ownerFixture,
      text: '@乙骨忧太本命 谢谢支持～',
      likes: 3,
      createdAt: '2025-11-03T02:00:00.000Z',
    },
  ],
  createdAt: '2025-11-02T08:30:00.000Z',
} satisfies Note);
