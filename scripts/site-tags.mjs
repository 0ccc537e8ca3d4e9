// A build without SITE_URL served by a server that knows its own origin (`npm start`'s vite
// preview, the browser tests' server): its pages' card, og:url and oEmbed discovery tags, which the
// build holds back in a comment (web/src/share/meta.ts SITE_TAGS_OPEN), written out with absolute
// addresses, and its oEmbed answers' placeholder of the site's address replaced, so cards and pasted links
// work on that origin. A build with SITE_URL has neither the comment nor the placeholder: unchanged.

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

/** The site's address in the oEmbed answers of a build without SITE_URL (web/src/share/meta.ts SITE_PLACEHOLDER). */
export const SITE_PLACEHOLDER = 'https://YOUR-SITE.example/sqrtdk/';

/**
 * An oEmbed answer (the text of an oembed.json served at `answerUrl`) of a build without SITE_URL
 * with the placeholder of the site's address (provider_url, thumbnail_url, and the src and href of
 * its html) replaced by the site's root under which it is served; an answer built with SITE_URL is
 * returned as is.
 * @param {string} text
 * @param {string} answerUrl
 * @returns {string}
 */
export function oembedWithSite(text, answerUrl) {
  const o = JSON.parse(text);
  if (typeof o.thumbnail_url !== 'string' || !o.thumbnail_url.startsWith(SITE_PLACEHOLDER)) return text;
  // the answer's place under the site's root, from its card's (card.png beside oembed.json)
  const rel = o.thumbnail_url.slice(SITE_PLACEHOLDER.length).replace(/[^/]*$/, '') + 'oembed.json';
  const at = new URL(answerUrl);
  at.search = ''; at.hash = '';
  if (!at.href.endsWith('/' + rel)) throw new Error(`oEmbed: ${answerUrl} is not the address of ${rel}`);
  const root = at.href.slice(0, at.href.length - rel.length);
  return JSON.stringify(JSON.parse(text.split(SITE_PLACEHOLDER).join(root)), null, 2) + '\n';
}
