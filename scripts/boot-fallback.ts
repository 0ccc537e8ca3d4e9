// A frame that fails well (issue 31): a small classic script of the build that turns a page whose
// lab script could not load into a short message naming the view, the reason and the view's address.
//
// The case: a sandboxed embed (sandbox="allow-scripts", origin "null", as WordPress frames a link)
// on a host that sends no Access-Control-Allow-Origin header. The lab's module script is a CORS
// request and fails there; a classic script is not (no-cors), so this one still runs, and the
// page's Content-Security-Policy allows it as one of the site's own files (script-src 'self', or
// the site's origin: scripts/csp.mjs). It listens, in the capture phase, for the error event of the
// page's module script. The page then shows the view the link names (not the landing's picture
// the HTML holds), drops the spinner and that picture, says what is missing, shows the view's address
// as selectable text (a sandbox without allow-popups blocks "open in a new tab") and reports its
// small height to the host (embed.js's and WordPress's height messages, as web/src/embed/report.ts).
// Without this script (a CSP that blocks it) the page's static message still shows after 10 s.
//
// The script is emitted as assets/boot-fallback-<hash>.js and put in every page's head as a
// deferred script just before the module script: deferred and module scripts run in document
// order, so its listener is set before the module script's error fires.
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { SCHEMA } from '../web/src/state/schema.js';
import type { Lang, Panel } from '../web/src/state/state.ts';
import { translator } from '../web/src/i18n/messages.ts';
import { viewWords } from '../web/src/share/figures.ts';

/** Every view's title in every language: { exp: { lang: title } }. */
export function viewNames(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const exp of SCHEMA.exp.values as readonly Panel[]) {
    out[exp] = {};
    for (const lang of SCHEMA.lang.values as readonly Lang[]) out[exp][lang] = viewWords(exp, translator(lang)).title;
  }
  return out;
}

/** The lab's address for a reader, from the frame's: without the embed flag and without what a host appended after a second '#' (WordPress's "#?secret=…"). */
export function readerAddress(href: string): string {
  const i = href.indexOf('#');
  if (i < 0) return href;
  const hash = href.slice(i + 1).split('#')[0];
  const keys = hash.split('&').filter((kv) => kv !== 'embed=1' && kv !== '');
  return href.slice(0, i) + (keys.length ? '#' + keys.join('&') : '');
}

/** The script's source (ES5: it must run wherever the page opens, before anything of the lab has). */
export function bootFallbackSource(names = viewNames()): string {
  return `// A frame that fails well (scripts/boot-fallback.ts): shown only when the page's module script could not load.
(function () {
  'use strict';
  var d = document, html = d.documentElement, NAMES = ${JSON.stringify(names)}, DEFAULT_EXP = ${JSON.stringify(SCHEMA.exp.default)};
  var readerAddress = ${readerAddress.toString()};
  var height = 0, secret = null;
  function param(k) { var m = new RegExp('[#&]' + k + '=([^&#]*)').exec(location.hash); return m ? decodeURIComponent(m[1]) : null; }
  function send() {
    if (!height || window.parent === window) return;
    try {
      window.parent.postMessage({ type: 'sqrtdk:height', height: height }, '*');
      if (secret) window.parent.postMessage({ message: 'height', value: height, secret: secret }, '*');
    } catch (e) { /* no parent to tell */ }
  }
  function fail(ev) {
    var s = ev.target;
    if (height || !s || s.tagName !== 'SCRIPT' || s.type !== 'module') return;
    var late = d.querySelector('[data-boot-late]');
    if (!late) return;
    var exp = param('exp') || html.getAttribute('data-page-exp') || DEFAULT_EXP;
    var lang = param('lang') || html.getAttribute('data-page-lang') || (/^zh/i.test(navigator.language || '') ? 'zh-CN' : 'en');
    var names = NAMES[exp] || NAMES[DEFAULT_EXP];
    var sm = /#\\?secret=([A-Za-z0-9]+)/.exec(location.href);
    secret = sm ? sm[1] : null;
    var address = readerAddress(location.href);
    // the landing's picture and its spinner are not this view's: the message alone, at once
    var fp = d.querySelectorAll('.first-paint, [data-boot-text]');
    for (var i = 0; i < fp.length; i++) fp[i].style.display = 'none';
    late.style.animation = 'none';
    late.style.visibility = 'visible';
    // the app's stylesheet, where it loaded, hides the message: this page needs it now
    late.style.setProperty('display', 'block', 'important');
    var view = late.querySelector('[data-boot-view]');
    if (view) { view.textContent = names[lang] || names.en; view.lang = names[lang] ? lang : 'en'; view.hidden = false; }
    var where = late.querySelector('[data-boot-address]');
    if (where) { where.textContent = address; where.parentNode.hidden = false; }
    var links = late.querySelectorAll('a');
    for (var j = 0; j < links.length; j++) links[j].href = address;
    // this script ran, so the Content-Security-Policy lets the site's files run: what is missing is
    // the CORS header (a sandboxed frame), or the script itself (any other frame)
    var drop = d.querySelectorAll(self.origin === 'null' ? '[data-boot-csp]' : '[data-boot-csp], [data-boot-cors]');
    for (var k = 0; k < drop.length; k++) drop[k].hidden = true;
    var app = d.getElementById('app');
    height = Math.ceil((app || d.body).getBoundingClientRect().bottom + (window.scrollY || 0));
    send();
  }
  addEventListener('error', fail, true);
  // a host that asks again (embed.js on load, WordPress's 'ready'): the same height
  addEventListener('message', function (ev) {
    var m = ev.data;
    if (m && (m.type === 'sqrtdk:ask-height' || (m.message === 'ready' && m.secret === secret))) send();
  });
})();
`;
}

/** The Vite plugin: emits the script and puts it, deferred, just before each page's module script. */
export function bootFallback(): Plugin {
  let file: string | null = null;
  return {
    name: 'sqrtdk-boot-fallback',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        // the page's bundle, not the workers'
        if (!Object.values(bundle).some((c) => c.type === 'chunk' && (c.facadeModuleId ?? '').endsWith('index.html'))) return;
        const code = bootFallbackSource();
        file = `assets/boot-fallback-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: file, source: code });
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!file) return html;
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('boot fallback: the page has no module script to watch');
        return `${html.slice(0, at)}<script defer src="./${file}"></script>\n  ${html.slice(at)}`;
      },
    },
  };
}
