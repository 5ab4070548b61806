import { createHash } from 'node:crypto';
import { WECHAT_JS_SDK_ORIGIN, WECHAT_LAUNCH_TEMPLATE_STYLE } from '@guquan/contract/wechat-page';
import { cspDirectives, serializeCsp } from '../plugins/csp-directives.ts';

export interface InlineCode {
  /** The text of every inline script the browser would run. */
  scripts: string[];
  /** The text of every <style> element. */
  styles: string[];
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const STYLE = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
// Data blocks (JSON) are never run, so the policy does not need to (and must not) allow them.
const DATA_BLOCK = /\btype\s*=\s*["']?application\/(?:ld\+)?json/i;
const EXTERNAL = /\bsrc\s*=/i;

/**
 * The inline code of a page the server assembled (its markup escapes every `<` in users' text, so
 * a `<script` or `<style` here is always one of ours).
 */
export function inlineCodeOf(html: string): InlineCode {
  const scripts = [...html.matchAll(SCRIPT)]
    .filter(([, attributes = '']) => !DATA_BLOCK.test(attributes) && !EXTERNAL.test(attributes))
    .map(([, , text = '']) => text);
  const styles = [...html.matchAll(STYLE)].map(([, text = '']) => text);
  return { scripts, styles };
}

export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * A page's policy as sent inside WeChat on a server with the WeChat settings: the same, plus
 * exactly the origin the JS-SDK's script comes from and the open tag's template style. It needs
 * nothing else: the JS-SDK talks to WeChat through the web view's own bridge, and WeChat fetches
 * the share card's image itself.
 */
export function withWeChatJsSdk(csp: string): string {
  return csp
    .replace(/(^|;)script-src ([^;]*)/, `$1script-src $2 ${WECHAT_JS_SDK_ORIGIN}`)
    .replace(/(^|;)style-src ([^;]*)/, `$1style-src $2 ${cspHash(WECHAT_LAUNCH_TEMPLATE_STYLE)}`);
}

/**
 * The page's own Content-Security-Policy: the site's policy plus the hashes of exactly the inline
 * script and style this page carries. The same for every visitor of the same page, so it can be
 * cached with the page; still no 'unsafe-inline'.
 */
export function pageContentSecurityPolicy(html: string, production: boolean): string {
  const base = cspDirectives(production);
  const { scripts, styles } = inlineCodeOf(html);
  return serializeCsp({
    ...base,
    scriptSrc: [...(base.scriptSrc ?? []), ...new Set(scripts.map(cspHash))],
    styleSrc: [...(base.styleSrc ?? []), ...new Set(styles.map(cspHash))],
  });
}
