import { describe, expect, it } from 'vitest';
import { hasRouteModule } from '../app/route-modules';
import { DEFAULT_TITLES, fullPath, routeTable, titleOf } from './route-table';

// SPEC.md "Screens and routes" and PRODUCT.md "Routes and titles", copied here on purpose: this
// test is the check that the one route table says what the specification says.
const SPECIFIED: [path: string, zh: string, en: string][] = [
  ['/website', '谷圈官网', 'goods-circle official website'],
  ['/AppShare/goodsShare', '谷子分享', 'goods share'],
  ['/AppShare/cabinetShare', '痛柜', 'painful cabinet'],
  ['/AppShare/notesShare', '笔记分享', 'note share'],
  ['/APPPage/cashDesign', '兑换设计图', 'redeem design drawing'],
  ['/APPPage/iosVipBuy', '会员中心', 'Membership centre'],
  ['/APPPage/logOut', '注销账号', 'deregister account'],
  ['/agreement/vip/VipAgreement', '会员服务协议', 'Membership agreement'],
  ['/agreement/user/UserAgreement', '用户协议', 'User agreement'],
  ['/agreement/user/UserAgreement20251015', '用户协议', 'User agreement'],
  ['/agreement/yiSi/YiSiAgreement', '隐私政策', 'Privacy policy'],
  ['/agreement/yiSi/YiSiAgreement20251015', '隐私政策', 'Privacy policy'],
  ['/agreement/yiSi/YiSiAgreement20261124', '隐私政策', 'Privacy policy'],
  ['/agreement/yiSi/YiSiAgreement20261126', '隐私政策', 'Privacy policy'],
  ['/agreement/yiSi/YiSiAgreement20261127', '隐私政策', 'Privacy policy'],
  ['/agreement/yiSi/YiSiAgreement20261128', '隐私政策', 'Privacy policy'],
  ['/agreement/ExposureAgreement', '曝光协议', 'Exposure agreement'],
  ['/agreement/exposure/ExposureAgreement', '曝光协议', 'Exposure agreement'],
  ['/agreement/exposureNote/ExposureNoteAgreement', '曝光笔记要求', 'Exposure note requirements'],
  ['/agreement/userInfoList', '个人信息收集清单', 'Personal information collected'],
  ['/agreement/thirdPartyShareList', '第三方信息共享清单', 'Third-party information sharing'],
];

describe('the route table', () => {
  it('has exactly the 17 routes of the specification, with their titles, and a not-found page', () => {
    const routes = routeTable.filter((entry) => entry.path !== '*');
    expect(
      routes.map((entry) => [entry.path, titleOf(entry, 'zh-CN'), titleOf(entry, 'en')]),
    ).toEqual(SPECIFIED);
    const notFound = routeTable.filter((entry) => entry.path === '*');
    expect(notFound).toHaveLength(1);
    expect(titleOf(notFound[0], 'zh-CN')).toBe('谷圈APP');
    expect(titleOf(notFound[0], 'en')).toBe('goods-circle APP');
  });

  it('places every route under the base path', () => {
    expect(fullPath(routeTable[0])).toBe('/anime_merch_web/website');
  });

  it('gives the default titles of the specification', () => {
    expect(DEFAULT_TITLES).toEqual({ 'zh-CN': '谷圈APP', en: 'goods-circle APP' });
  });

  it('has unique ids and a route module for every entry', () => {
    expect(new Set(routeTable.map((entry) => entry.id)).size).toBe(routeTable.length);
    for (const entry of routeTable) expect(hasRouteModule(entry.module), entry.module).toBe(true);
  });
});
