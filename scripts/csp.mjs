// The Content-Security-Policy of the lab's HTML pages with the site's own origin named beside every
// 'self': WebKit (Safari, every iOS browser) matches 'self' in a frame with an opaque origin
// (<iframe sandbox="allow-scripts">, the WordPress embed) against that opaque origin and blocks
// every one of the lab's own scripts, fonts and workers; Chromium and Firefox match it against the
// page's URL. Naming the origin allows nothing 'self' does not already allow outside a sandbox.
// Written at build time from SITE_URL (vite.config.ts) and at serve time by `npm start`'s server
// (vite preview) and the browser tests' server, each with the origin it serves from.

const META = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/g;
/** The sentence of the boot failure message about WebKit and a CSP without the origin (web/index.html). */
const CSP_CAUSE = /<span data-boot-csp>[^<]*<\/span>/g;
/** Its sentence about the Access-Control-Allow-Origin header (web/index.html). */
const CORS_CAUSE = /<span data-boot-cors>[^<]*<\/span>/g;

/**
 * The origin of an http(s) URL (`https://you.github.io/sqrtdk/` → `https://you.github.io`); anything
 * else is an error naming the value.
 * @param {string} url
 * @returns {string}
 */
export function siteOrigin(url) {
  let u;
  try { u = new URL(url); } catch { throw new Error(`CSP origin: ${JSON.stringify(url)} is not an absolute URL`); }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`CSP origin: ${JSON.stringify(url)} is not an http(s) URL`);
  return u.origin;
}

/**
 * The policy with `origin` after every 'self' (once: a policy that names it already is kept).
 * @param {string} policy
 * @param {string} origin
 * @returns {string}
 */
export function policyWithOrigin(policy, origin) {
  const o = siteOrigin(origin);
  return policy.split(';').map((directive) => {
    const words = directive.trim().split(/\s+/);
    if (!words.includes("'self'") || words.includes(o)) return directive;
    return directive.replace("'self'", `'self' ${o}`);
  }).join(';');
}

/**
 * An HTML page of the lab with its CSP meta naming `origin`, and without the failure message's
 * sentence about a CSP that does not name it (that cause is gone).
 * @param {string} html
 * @param {string} origin
 * @returns {string}
 */
export function htmlWithOrigin(html, origin) {
  return html.replace(META, (_m, a, policy, b) => a + policyWithOrigin(policy, origin) + b).replace(CSP_CAUSE, '');
}

/**
 * An HTML page of the lab as served by a server that sends Access-Control-Allow-Origin: * with
 * every file: the failure message no longer blames that header.
 * @param {string} html
 * @returns {string}
 */
export function htmlWithCors(html) {
  return html.replace(CORS_CAUSE, '');
}
