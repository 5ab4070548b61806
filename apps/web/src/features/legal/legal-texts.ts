import type { Language } from '@guquan/contract/language';

/** The page chrome around a legal document; the documents themselves are Chinese. */
const texts = {
  'zh-CN': {
    brandHome: '谷圈官网',
    effective: '生效日期',
    updated: '更新日期',
    summary: '本版摘要',
    contents: '目录',
    versions: '版本记录',
    currentVersion: '当前版本',
    viewing: '正在查看',
    supersededNotice: (date: string) => `你正在查看 ${date} 的旧版本，它已被新版本取代。`,
    readLatest: (date: string) => `查看 ${date} 起生效的最新版本`,
    chineseAuthoritative: null,
    backToTop: '回到顶部',
  },
  en: {
    brandHome: 'Goods Circle website',
    effective: 'Effective',
    updated: 'Updated',
    summary: 'Summary of this version',
    contents: 'Contents',
    versions: 'Versions',
    currentVersion: 'current version',
    viewing: 'you are here',
    supersededNotice: (date: string) =>
      `You are reading the version of ${date}, which a newer version has replaced.`,
    readLatest: (date: string) => `Read the latest version, effective ${date}`,
    chineseAuthoritative:
      'This document is published in Chinese, and the Chinese text below is the authoritative one. Only the page around it is in English.',
    backToTop: 'Back to top',
  },
} as const;

export type LegalTexts = (typeof texts)[Language];

export function legalTexts(language: Language): LegalTexts {
  return texts[language];
}
