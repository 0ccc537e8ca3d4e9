// Where the share pages live and how a page knows which one it is (issue 17).
//
// URL layout, relative to the site's root (the directory of the root index.html, any sub-path):
//   ./                      the app; a link without exp opens the interview view (browser language)
//   p/<exp>/                the share page of one view in English: the app itself, opening that view
//                           (in the reader's browser language, as the root, unless the hash names lang)
//   zh-CN/p/<exp>/          the same in 简体中文 (opens in zh-CN unless the hash names lang)
//   …/p/<exp>/card.png      its link card (1200×630), …/p/<exp>/oembed.json its oEmbed answer
// The hash (#v=1&exp=…) still carries the full state on every page and wins over the page's own
// view and language; old links to ./#v=1&… keep working.
//
// The build marks each share page's <html> with data-page-exp, data-root (the relative path back
// to the site's root, e.g. "../../") and, on the zh-CN pages, data-page-lang; the root index.html
// has data-root="./" only.
import type { Lang, Panel, State } from '../state/state.ts';
import { toHash, MAX_HASH_LENGTH } from '../state/state.ts';
import { PANELS } from '../state/schema.js';

/** The directory of the share pages under the site's root (and under zh-CN/). */
export const SHARE_DIR = 'p';
/** The languages whose share pages live under a directory of their name (the others at the root). */
const LANG_DIR: Partial<Record<Lang, string>> = { 'zh-CN': 'zh-CN/' };

/** The share page of view `exp` in `lang`, relative to the site's root: "p/saturation/", "zh-CN/p/saturation/". */
export function sharePath(exp: Panel, lang: Lang): string {
  return `${LANG_DIR[lang] ?? ''}${SHARE_DIR}/${exp}/`;
}

/** The relative path from a page at `path` (relative to the root, ending in '/') back to the root: "../../". */
export function rootFrom(path: string): string {
  const depth = path.split('/').filter((p) => p !== '').length;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** What the page's <html> says about it: the view and language it opens, and the way back to the site's root. */
export interface PageContext { exp: Panel | null; lang: Lang | null; root: string }

export function pageContext(el: { dataset: DOMStringMap }): PageContext {
  const d = el.dataset;
  const exp = (PANELS as readonly string[]).includes(d.pageExp ?? '') ? (d.pageExp as Panel) : null;
  const lang = d.pageLang === 'en' || d.pageLang === 'zh-CN' ? d.pageLang : null;
  const root = /^(\.\/|(\.\.\/)+)$/.test(d.root ?? '') ? d.root! : './';
  return { exp, lang, root };
}

/** The site's root as an absolute URL (with '/' at the end), from the page's address and its data-root. */
export function siteRoot(href: string, ctx: PageContext): string {
  const u = new URL(ctx.root, href);
  u.hash = '';
  u.search = '';
  return u.href;
}

/** True when the hash (with or without '#') has the key. */
export function hashHasKey(hash: string, key: string): boolean {
  const whole = hash.startsWith('#') ? hash.slice(1) : hash;
  // the link's own part (a host's fragment after a second '#' is not), and nothing of a hash the parser refuses unread
  if (whole.length > MAX_HASH_LENGTH) return false;
  const cut = whole.indexOf('#');
  const body = cut < 0 ? whole : whole.slice(0, cut);
  return body.split('&').some((part) => { try { return decodeURIComponent(part.split('=')[0]) === key; } catch { return part.split('=')[0] === key; } });
}

/**
 * The hash a share page reads: the link's own, with the page's view as exp when the link names
 * none (so p/saturation/ and p/saturation/#v=1&dk=512 open the saturation view). Pure.
 */
export function withPageView(hash: string, ctx: PageContext): string {
  if (!ctx.exp || hashHasKey(hash, 'exp') || hash.length - (hash.startsWith('#') ? 1 : 0) > MAX_HASH_LENGTH) return hash;
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  return `#exp=${ctx.exp}${body.trim() === '' ? '' : '&' + body}`;
}

/**
 * The link Copy link gives: the share page of the state's view and language under the site's
 * root, plus the hash that reproduces the state (by default the full one), e.g.
 * https://you.github.io/sqrtdk/zh-CN/p/saturation/#v=1&exp=saturation&…
 */
export function shareUrl(state: State, root: string, hash: string = toHash(state)): string {
  return root + sharePath(state.exp, state.lang) + hash;
}
