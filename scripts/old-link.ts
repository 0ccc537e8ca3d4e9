// Old links land well (issue 31): a small classic script in the root page's <head> that sends an
// old-style link (./#v=1&exp=<view>&…, what Copy link gave before the share pages) to the share page
// of its view and language, hash kept, before the root paints anything.
//
// The root page's HTML carries the landing's (the interview's) first paint in English; a link to
// another view, or in Chinese, showed that picture for seconds on a slow phone before the live view
// replaced it. The page's Content-Security-Policy allows no inline script, so this is one of the
// site's own files (script-src 'self'), loaded without defer or async: the browser runs it before it
// parses the body, so the root page never paints. It replaces the address (location.replace: no
// history entry is added, so Back and Forward are as before) with p/<exp>/ or zh-CN/p/<exp>/ (by the
// link's lang, else the reader's browser language, as the app chooses it), whose first paint is the
// view's own in that language; the hash still carries the full state there. Left alone: a root link
// without exp or with an unknown one, the landing in English, an embed (embed=1: its host sized the
// frame for the root, and the snippets of the blog formats load the root), and a hash over the
// parser's limit (the app refuses it with its message).
//
// Emitted as assets/old-link-<hash>.js (precached with the other assets) and put only into the root
// index.html, after its CSP and referrer policy; measured against swapping the picture in place (README, "Old links").
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { SCHEMA } from '../web/src/state/schema.js';
import type { Lang, Panel } from '../web/src/state/state.ts';
import { MAX_HASH_LENGTH, langFromNavigator } from '../web/src/state/state.ts';
import { sharePath } from '../web/src/share/url.ts';

/**
 * The share page (relative to the site's root) an old-style root hash should open, or null when the
 * root page itself is right for it. `languages` is the reader's (navigator.languages). Pure; the
 * script runs this same function.
 */
export function oldLinkTarget(hash: string, languages: readonly string[], o: {
  langs: readonly string[]; defaultExp: string; defaultLang: string; max: number;
  /** every view's share page in every language: { exp: { lang: path } } */
  paths: Record<string, Record<string, string>>; navLang: (languages: readonly string[]) => string;
}): string | null {
  if (hash.length < 2 || hash.length - 1 > o.max) return null;
  // the link's own part: a host's fragment after a second '#' (WordPress's "#?secret=…") is not
  const body = hash.slice(1).split('#')[0];
  const parts = body.split('&');
  let exp: string | null = null, lang: string | null = null, embed = false;
  for (let i = 0; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    const k = eq < 0 ? parts[i] : parts[i].slice(0, eq);
    let v = eq < 0 ? '' : parts[i].slice(eq + 1);
    try { v = decodeURIComponent(v); } catch { /* kept as it is: the app names it */ }
    // the last value of a key counts, as in the app's parser
    if (k === 'exp') exp = v;
    else if (k === 'lang') lang = v;
    else if (k === 'embed') embed = v !== '0';
  }
  if (exp === null || embed || !Object.prototype.hasOwnProperty.call(o.paths, exp)) return null;
  const to = lang !== null && o.langs.indexOf(lang) >= 0 ? lang : o.navLang(languages);
  if (exp === o.defaultExp && to === o.defaultLang) return null;
  return o.paths[exp][to];
}

/** The script's data: the views' share pages and the hash's limits, from the state schema. */
export function oldLinkData() {
  const langs = SCHEMA.lang.values as readonly Lang[];
  const paths: Record<string, Record<string, string>> = {};
  for (const exp of SCHEMA.exp.values as readonly Panel[]) paths[exp] = Object.fromEntries(langs.map((l) => [l, sharePath(exp, l)]));
  return { langs, defaultExp: SCHEMA.exp.default, defaultLang: SCHEMA.lang.default, max: MAX_HASH_LENGTH, paths };
}

/** The script's source (self-contained: it runs before anything of the lab; the two functions are their compiled source). */
export function oldLinkSource(): string {
  const o = oldLinkData();
  return `// Old links land well (scripts/old-link.ts): an old-style root link opens its view's share page before the root paints.
(function () {
  'use strict';
  var O = ${JSON.stringify(o)};
  O.navLang = ${langFromNavigator.toString()};
  var target = ${oldLinkTarget.toString()};
  if (document.documentElement.hasAttribute('data-page-exp')) return;
  var to;
  try { to = target(location.hash, navigator.languages || [navigator.language], O); } catch (e) { return; }
  if (to) location.replace(new URL(to + location.search + location.hash, new URL('./', location.href)).href);
})();
`;
}

/** The Vite plugin: emits the script and puts it, blocking, into the root page's <head> (after the share pages are built from the same template). */
export function oldLink(): Plugin {
  return {
    name: 'sqrtdk-old-link',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (!index || index.type !== 'asset') return;
        const code = oldLinkSource();
        const file = `assets/old-link-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: file, source: code });
        const html = String(index.source);
        // after the CSP, which must govern it, and after the referrer policy, so that neither the
        // script's request nor the new address names the page
        const csp = /<meta http-equiv="Content-Security-Policy"[^>]*>/.exec(html);
        const ref = /<meta name="referrer" content="no-referrer">/.exec(html);
        if (!csp || !ref || ref.index < csp.index || html.includes('data-page-exp')) throw new Error('old link: the root page has no CSP and referrer policy to follow, or is a share page');
        const at = ref.index + ref[0].length;
        index.source = `${html.slice(0, at)}\n  <script src="./${file}"></script>${html.slice(at)}`;
      },
    },
  };
}
