// @vitest-environment node
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LegalMarkdownError, renderLegalMarkdown, tablesOf } from './legal-markdown.ts';

const CONTENT_DIR = fileURLToPath(new URL('../../../content', import.meta.url));
const facts: unknown = JSON.parse(await readFile(join(CONTENT_DIR, 'site.json'), 'utf8'));

const FRONT = `---
title: 测试协议
version: 2025-10-15
effective: 2025-10-15
updated: 2025-10-16
summary: 摘要，来自 {{company.name}}。
---
`;
const at = { document: 'test', version: '2025-10-15', file: 'test/2025-10-15.md' };

describe('renderLegalMarkdown', () => {
  it('reads the front matter and fills company facts from site.json', () => {
    const document = renderLegalMarkdown(
      `${FRONT}\n## 一、总则\n\n联系 {{company.email}}。\n`,
      facts,
      at,
    );
    expect(document).toMatchObject({
      document: 'test',
      title: '测试协议',
      version: '2025-10-15',
      effective: '2025-10-15',
      updated: '2025-10-16',
      summary: '摘要，来自 杭州谷圈网络科技有限公司。',
    });
    expect(document.html).toContain('联系 service@guquan.example。');
  });

  it('gives chapters ids and a table of contents', () => {
    const document = renderLegalMarkdown(
      `${FRONT}\n## 一、总则\n\n### 1.1 定义\n\n## 二、账号\n\n## 二、账号\n`,
      facts,
      at,
    );
    expect(document.toc).toEqual([
      { id: '一-总则', text: '一、总则' },
      { id: '二-账号', text: '二、账号' },
      { id: '二-账号-2', text: '二、账号' },
    ]);
    expect(document.html).toContain('<h2 id="一-总则">一、总则</h2>');
    expect(document.html).toContain('<h3 id="1-1-定义">1.1 定义</h3>');
  });

  it('labels table cells with their column for the narrow layout', () => {
    const document = renderLegalMarkdown(
      `${FRONT}\n| 类型 | 目的 |\n|---|---|\n| 手机号 | 登录 |\n`,
      facts,
      at,
    );
    expect(document.html).toContain('<div class="table-wrap"><table>');
    expect(document.html).toContain('<td data-label="类型">手机号</td>');
    expect(document.html).toContain('<td data-label="目的">登录</td>');
  });

  it('never lets the Markdown carry markup or script links', () => {
    const document = renderLegalMarkdown(
      `${FRONT}\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[点我](javascript:alert(1)) [外链](https://example.com)\n`,
      facts,
      at,
    );
    expect(document.html).not.toMatch(/<script|<img|href="javascript/);
    expect(document.html).toContain('&lt;script&gt;');
    expect(document.html).toContain(
      '<a href="https://example.com" rel="noopener noreferrer" target="_blank">外链</a>',
    );
  });

  it('fails the build on an unknown placeholder, bad front matter or a wrong version', () => {
    expect(() => renderLegalMarkdown(`${FRONT}\n{{company.bankAccount}}\n`, facts, at)).toThrow(
      /company\.bankAccount/,
    );
    expect(() => renderLegalMarkdown('## 没有前言\n', facts, at)).toThrow(LegalMarkdownError);
    expect(() =>
      renderLegalMarkdown(FRONT.replace('effective: 2025-10-15', 'effective: 昨天'), facts, at),
    ).toThrow(/effective/);
    expect(() => renderLegalMarkdown(FRONT, facts, { ...at, version: '2024-01-01' })).toThrow(
      /differs/,
    );
  });
});

async function documentSources(): Promise<{ document: string; version: string; source: string }[]> {
  const legalDir = join(CONTENT_DIR, 'legal');
  const result = [];
  for (const document of await readdir(legalDir)) {
    for (const file of await readdir(join(legalDir, document))) {
      if (!file.endsWith('.md')) continue;
      const source = await readFile(join(legalDir, document, file), 'utf8');
      result.push({ document, version: file.slice(0, -3), source });
    }
  }
  return result;
}

describe('the legal documents in content/legal', () => {
  it('all render, with every placeholder known and a table of contents', async () => {
    const sources = await documentSources();
    expect(sources.length).toBeGreaterThanOrEqual(9);
    for (const { document, version, source } of sources) {
      const file = `${document}/${version}.md`;
      const rendered = renderLegalMarkdown(source, facts, { document, version, file });
      expect(rendered.toc.length, file).toBeGreaterThan(0);
      expect(rendered.html, file).not.toContain('{{');
    }
  });

  it('are complete texts, not sketches', async () => {
    // Chinese characters (the front matter and the Markdown make up the rest).
    const minimum: Record<string, number> = {
      'user/2023-06-01': 5000,
      'user/2025-10-15': 8000,
      'privacy/2023-06-01': 3500,
      'privacy/2025-10-15': 8000,
      'privacy/2026-11-24': 8000,
      'privacy/2026-11-26': 8000,
      'privacy/2026-11-27': 8000,
      'privacy/2026-11-28': 8000,
      'vip/2025-10-15': 4000,
      'exposure/2025-10-15': 3000,
      'exposure-note/2025-10-15': 2000,
    };
    for (const { document, version, source } of await documentSources()) {
      const name = `${document}/${version}`;
      const chinese = source.match(/\p{Script=Han}/gu)?.length ?? 0;
      expect(chinese, name).toBeGreaterThanOrEqual(minimum[name] ?? 1000);
    }
  });

  it('agree: the two lists name only what the current (2026-11-28) privacy policy names', async () => {
    const read = (path: string) => readFile(join(CONTENT_DIR, 'legal', path), 'utf8');
    const privacy = await read('privacy/2026-11-28.md');
    const collected = tablesOf(await read('user-info-list/2025-10-15.md'));
    const shared = tablesOf(await read('third-party-share-list/2025-10-15.md'));

    const collectedHeader = ['信息类型', '使用目的', '使用场景', '收集方式', '是否必需'];
    expect(collected.length).toBeGreaterThan(0);
    const types = collected.flatMap((table) => {
      expect(table[0]).toEqual(collectedHeader);
      return table.slice(1).map((row) => {
        expect(['必需', '可选']).toContain(row[4]);
        return row[0] ?? '';
      });
    });
    expect(types.length).toBeGreaterThanOrEqual(15);

    const sharedHeader = ['第三方名称', '公司', '使用目的', '共享的信息', '共享方式', '隐私政策'];
    expect(shared).toHaveLength(1);
    expect(shared[0]?.[0]).toEqual(sharedHeader);
    const parties = (shared[0] ?? []).slice(1).map((row) => row[0] ?? '');
    expect(parties.length).toBeGreaterThanOrEqual(8);

    const missing = [...types, ...parties].filter((name) => !privacy.includes(name));
    expect(missing).toEqual([]);
    // …and the policy points to both lists.
    expect(privacy).toContain('/anime_merch_web/agreement/userInfoList');
    expect(privacy).toContain('/anime_merch_web/agreement/thirdPartyShareList');
  });
});
