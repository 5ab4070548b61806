import { describe, expect, it } from 'vitest';
import { fillTemplate } from './html-document.ts';

const TEMPLATE =
  '<html lang="__APP_LANG__"><title>__APP_TITLE__</title><!--app-head--><div id="root"><!--app-html--></div><!--app-scripts-->';

describe('fillTemplate', () => {
  it('fills every marker', () => {
    const html = fillTemplate(TEMPLATE, {
      language: 'en',
      title: 'goods share',
      head: '<link rel="modulepreload" href="/a.js">',
      appHtml: '<main>hi</main>',
      scripts: '<script>boot</script>',
    });
    expect(html).toBe(
      '<html lang="en"><title>goods share</title><link rel="modulepreload" href="/a.js"><div id="root"><main>hi</main></div><script>boot</script>',
    );
  });

  it('escapes the title and never reads inserted markup as a marker', () => {
    const html = fillTemplate(TEMPLATE, {
      language: 'zh-CN',
      title: '</title><script>alert(1)</script>',
      head: '',
      appHtml: '<p>__APP_LANG__ <!--app-html--> __APP_TITLE__</p>',
      scripts: '',
    });
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('<p>__APP_LANG__ <!--app-html--> __APP_TITLE__</p>');
  });
});
