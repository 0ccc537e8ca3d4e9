// The share pages of the build (issue 17) and the first paint of every page (issue 18), a Vite
// plugin (vite.config.ts): after the app's index.html is built, it writes for every view of the
// state schema's `exp` and every language of its `lang`
//   p/<exp>/index.html, zh-CN/p/<exp>/index.html   the app itself, opening that view, with its own
//                                                   title, description, canonical, Open Graph and
//                                                   Twitter tags and oEmbed discovery
//   …/card.png                                      its 1200×630 link card (resvg, Noto Sans CJK)
//   …/oembed.json                                   its oEmbed answer (type rich, the iframe snippet)
// and gives the root index.html (the interview landing) the same head tags. Every page's
// <div id="app"> carries the view's heading, lede and its key chart at the default state as inline
// SVG, computed here from the real core (wasm/js/core.js under Node) by the requests the page sends.
// Absolute URLs come from SITE_URL (e.g. SITE_URL=https://you.github.io/sqrtdk/ npm run build);
// without it the tags that need them (card, og:url, oEmbed discovery) are held back in a comment
// that `npm start` writes out with its own origin (scripts/site-tags.mjs), the oEmbed answers name
// SITE_PLACEHOLDER for the site (npm start puts its origin there), and the build says once what
// publishing needs. The files are
// emitted into the bundle, so the service worker's precache (scripts/pwa-config.ts) sees them.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Plugin } from 'vite';
import { Resvg } from '@resvg/resvg-wasm';
import { resvgReady } from './resvg.ts';
import { SCHEMA } from '../web/src/state/schema.js';
import { defaultState } from '../web/src/state/state.ts';
import type { Lang, Panel } from '../web/src/state/state.ts';
import { translator } from '../web/src/i18n/messages.ts';
import { panelNum } from '../web/src/i18n/titles.ts';
import { figureData, renderFigure, viewWords } from '../web/src/share/figures.ts';
import { useCostCore } from '../web/src/worker/cost.ts';
import type { Figure } from '../web/src/share/figures.ts';
import { headTags, oembedJson, assetsOf, CARD, SITE_PLACEHOLDER } from '../web/src/share/meta.ts';
import type { PageMeta } from '../web/src/share/meta.ts';
import { sharePath, rootFrom } from '../web/src/share/url.ts';
import { cardSvg, firstPaintHtml, CARD_FONT } from '../web/src/share/card.ts';
import { FIRST_PAINT_CSS } from '../web/src/share/firstpaint-css.ts';

const repo = fileURLToPath(new URL('../', import.meta.url));
/** The fonts of the cards (Debian's fonts-noto-cjk, installed by scripts/setup.sh). */
export const CARD_FONT_FILES = ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
  // fonts-dejavu-core: √, ·, ÷ and superscripts at Latin width
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'];

/** SITE_URL normalised to end in '/', or null when unset; anything but an absolute http(s) URL is an error naming it. */
export function siteUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let u: URL;
  try { u = new URL(raw.trim()); } catch { throw new Error(`SITE_URL = ${JSON.stringify(raw)} is not an absolute URL (e.g. https://you.github.io/sqrtdk/)`); }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`SITE_URL = ${JSON.stringify(raw)} must be an http(s) URL`);
  u.hash = ''; u.search = '';
  return u.href.endsWith('/') ? u.href : u.href + '/';
}

/** The page's HTML from the built index.html: its own head tags, language and page marks, URLs from its depth, and the first paint. */
export function pageHtml(template: string, o: { lang: Lang; path: string; exp: Panel | null; head: string; body: string; noscript: string }): string {
  const root = rootFrom(o.path);
  let html = template
    // the template's own description, Open Graph / Twitter tags and title give way to the page's
    .replace(/\s*<meta (name|property)="(description|og:[^"]*|twitter:[^"]*)"[^>]*>/g, '')
    .replace(/\s*<title>[^<]*<\/title>/, '')
    // a page in another language than the default opens in it; the default language's pages, like
    // the root, follow the reader's browser unless the hash names lang
    .replace(/<html lang="[^"]*">/, `<html lang="${o.lang}" data-root="${root}"${o.exp ? ` data-page-exp="${o.exp}"` : ''}${o.exp && o.lang !== SCHEMA.lang.default ? ` data-page-lang="${o.lang}"` : ''}>`)
    .replace(/(<meta name="referrer"[^>]*>)/, `$1\n  ${o.head}\n  <style>${FIRST_PAINT_CSS}</style>`)
    .replace(/<p class="boot" data-boot-text>[^<]*<\/p>/, o.body)
    .replace(/<noscript>[^<]*<\/noscript>/, `<noscript><p class="fp-noscript">${o.noscript}</p><style>.fp-status{display:none}</style></noscript>`);
  // the app's stylesheet after the first paint: it no longer holds back the first picture (Chromium
  // paints the content before a stylesheet in <body>), and the app's script, far larger, needs it first
  const css = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
  for (const l of css) html = html.replace(l, '');
  html = html.replace(/(<\/noscript>)/, `$1\n  ${css.map((l) => l.trim()).join('\n  ')}`);
  if (root !== './') html = html.replace(/(\s(?:href|src)=")\.\//g, `$1${root}`);
  for (const must of ['data-first-paint', 'og:image', '<title>']) if (!html.includes(must)) throw new Error(`share page ${o.path || 'index'}: the template did not take ${must}`);
  return html;
}

/** The site's address as the card prints it (host and path). */
const siteText = (site: string | null) => (site ? site.replace(/^https?:\/\//, '').replace(/\/$/, '') : '');

export function sharePages(): Plugin {
  let warned = false;
  return {
    name: 'sqrtdk-share-pages',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_opts, bundle) {
      const t0 = performance.now();
      const site = siteUrl(process.env.SITE_URL);
      if (!site && !warned) {
        warned = true;
        this.warn(`publishing needs SITE_URL: without it the share pages carry no link card, og:url or oEmbed discovery, and the oEmbed answers and blog integrations name ${SITE_PLACEHOLDER} for the site (a relative address breaks wherever a card or a frame is shown; npm start writes its own origin). Set SITE_URL=https://you.github.io/sqrtdk/ npm run build to publish them`);
      }
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') throw new Error('share pages: no index.html in the bundle');
      const template = String(index.source);
      const { loadCore } = await import(/* @vite-ignore */ pathToFileURL(path.join(repo, 'wasm/js/core.js')).href) as typeof import('../wasm/js/core.js');
      const core = await loadCore({ kernel: 'auto' });
      // the requests are sized by the core's cost model, as on the page (web/src/worker/cost.ts)
      useCostCore(core);
      const exps = SCHEMA.exp.values as readonly Panel[];
      const langs = SCHEMA.lang.values as readonly Lang[];
      const read = (name: string) => { const b = readFileSync(path.join(repo, 'web/public/examples', name)); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer; };
      await resvgReady();
      const fontBuffers = CARD_FONT_FILES.filter((f) => existsSync(f)).map((f) => readFileSync(f));
      if (fontBuffers.length === 0) throw new Error(`share pages: the card fonts are missing (${CARD_FONT_FILES.join(', ')}): run scripts/setup.sh (fonts-noto-cjk)`);
      const times: string[] = [];
      for (const exp of exps) {
        const t1 = performance.now();
        const state = { ...defaultState('en'), exp };
        const data = await figureData(exp, core, state, read);
        const t2 = performance.now();
        let renderMs = 0;
        for (const lang of langs) {
          const t = translator(lang);
          const fig = renderFigure(exp, data, { ...state, lang }, t);
          const { title, lede } = viewWords(exp, t);
          const pagePath = sharePath(exp, lang);
          const meta = pageMeta(exp, lang, pagePath, fig, site, langs);
          const html = pageHtml(template, { lang, path: pagePath, exp, head: headTags(meta), body: firstPaint(exp, fig, t), noscript: t('share.noscript') });
          this.emitFile({ type: 'asset', fileName: pagePath + 'index.html', source: html });
          const svg = cardSvg({ num: panelNum(exp), title, sentence: lede, numbers: fig.numbers, chart: fig.chart, brand: t('app.title'), tagline: t('share.card.live'), site: siteText(site) });
          const r = new Resvg(svg, { fitTo: { mode: 'width', value: CARD.width }, font: { fontBuffers, defaultFontFamily: CARD_FONT, loadSystemFonts: false } });
          const t3 = performance.now();
          const img = r.render();
          renderMs += performance.now() - t3;
          if (img.width !== CARD.width || img.height !== CARD.height) throw new Error(`${pagePath}card.png: rendered ${img.width}×${img.height}`);
          this.emitFile({ type: 'asset', fileName: assetsOf(meta).card, source: img.asPng() });
          img.free(); r.free();
          this.emitFile({ type: 'asset', fileName: assetsOf(meta).oembed, source: JSON.stringify(oembedJson(meta, title), null, 2) + '\n' });
          if (exp === SCHEMA.exp.default && lang === SCHEMA.lang.default) {
            // the root: the landing view in the default language, sharing that page's card and oEmbed
            const rootMeta = { ...meta, path: '', alternates: meta.alternates };
            index.source = pageHtml(template, { lang, path: '', exp: null, head: headTags(rootMeta), body: firstPaint(exp, fig, t), noscript: t('share.noscript') });
          }
        }
        times.push(`${exp} ${Math.round(t2 - t1)} + ${Math.round(performance.now() - t2)} ms (render ${Math.round(renderMs)})`);
      }
      if (process.env.SQRTDK_SHARE_TIMES) console.log(`share pages: ${times.join(', ')}`);
      void t0;
    },
  };
}

function pageMeta(exp: Panel, lang: Lang, pagePath: string, fig: Figure, site: string | null, langs: readonly Lang[]): PageMeta {
  const t = translator(lang);
  const { title, lede } = viewWords(exp, t);
  const n = fig.numbers[0];
  return {
    exp, lang, path: pagePath,
    title: `${title} — ${t('app.title')}`,
    description: lede,
    imageAlt: n ? t("share.card.alt", { title, number: `${n.value} — ${n.label}` }) : title,
    siteName: t('app.title'),
    site,
    alternates: langs.filter((l) => l !== lang).map((l) => ({ lang: l, path: sharePath(exp, l) })),
  };
}

function firstPaint(exp: Panel, fig: Figure, t: ReturnType<typeof translator>): string {
  const { title, lede } = viewWords(exp, t);
  return firstPaintHtml({
    exp, num: panelNum(exp), title, lede, brand: t('app.title'), tagline: t('app.tagline'),
    chart: fig.chart, numbers: fig.chart ? [] : fig.numbers, computing: t('share.computing'), note: t('share.static'),
  });
}
