// A build without SITE_URL served by a server that knows its own origin (`npm start`'s vite
// preview, the browser tests' server): its pages' card, og:url and oEmbed discovery tags, which the
// build holds back in a comment (web/src/share/meta.ts SITE_TAGS_OPEN), written out with absolute
// addresses, and its oEmbed answers' relative addresses made absolute, so cards and pasted links
// work on that origin. A build with SITE_URL has neither the comment nor relative answers: unchanged.

const OPEN = '<!--sqrtdk:site-tags';
const CLOSE = 'sqrtdk:site-tags-->';
/** An attribute holding a relative address ("./…", "../…"). */
const RELATIVE = /(\s(?:href|src|content)=")(\.\.?\/[^"]*)(")/g;

/**
 * `html` with every relative address of an attribute (escaped as HTML) resolved against `base`.
 * @param {string} html
 * @param {string} base
 * @returns {string}
 */
function absolute(html, base) {
  return html.replace(RELATIVE, (_m, /** @type {string} */ a, /** @type {string} */ rel, /** @type {string} */ b) =>
    a + new URL(rel.replace(/&amp;/g, '&'), base).href.replace(/&/g, '&amp;') + b);
}

/**
 * `html` (a page of the lab served at `pageUrl`) with its held-back site tags written out, every
 * relative address in them resolved against `pageUrl`; a page without them is returned as is.
 * @param {string} html
 * @param {string} pageUrl the page's absolute URL (its directory for a page served as …/index.html)
 * @returns {string}
 */
export function htmlWithSiteTags(html, pageUrl) {
  const at = html.indexOf(OPEN);
  if (at < 0) return html;
  const end = html.indexOf(CLOSE, at);
  if (end < 0) throw new Error(`site tags: ${pageUrl} has "${OPEN}" without "${CLOSE}"`);
  const tags = absolute(html.slice(at + OPEN.length, end).trim().replace(/-&#45;/g, '--'), pageUrl);
  return html.slice(0, at) + tags.split(/\n\s*/).join('\n  ') + html.slice(end + CLOSE.length);
}

/**
 * An oEmbed answer (the text of an oembed.json served at `answerUrl`) with its relative addresses
 * (provider_url, thumbnail_url, and the src and href of its html) made absolute.
 * @param {string} text
 * @param {string} answerUrl
 * @returns {string}
 */
export function oembedWithSite(text, answerUrl) {
  const o = JSON.parse(text);
  const abs = (/** @type {unknown} */ v) => (typeof v === 'string' && /^\.\.?\//.test(v) ? new URL(v, answerUrl).href : v);
  o.provider_url = abs(o.provider_url);
  o.thumbnail_url = abs(o.thumbnail_url);
  if (typeof o.html === 'string') {
    o.html = absolute(o.html, answerUrl);
  }
  return JSON.stringify(o, null, 2) + '\n';
}
