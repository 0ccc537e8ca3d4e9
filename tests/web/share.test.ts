// The pure parts of the share pages (issue 17) and the first paint (issue 18): the URL layout,
// the head tags, the oEmbed answer, the page's HTML from the built template, the static chart and
// the card; and each view's figure from the real core, with the numbers the panels compute.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, SaturationSweepResult, ScoreVarianceResult } from '../../wasm/js/core.js';
import { defaultState, parseHash, toHash } from '../../web/src/state/state.ts';
import type { Panel } from '../../web/src/state/state.ts';
import { SCHEMA } from '../../web/src/state/schema.js';
import { translator } from '../../web/src/i18n/messages.ts';
import { embedSnippet, fallbackHeight, fitCss, heightAt } from '../../web/src/embed/snippet.ts';
import { EMBED_FIT } from '../../web/src/embed/heights.ts';
import { sharePath, rootFrom, pageContext, siteRoot, withPageView, hashHasKey, shareUrl } from '../../web/src/share/url.ts';
import { headTags, oembedJson, urlFor, CARD, SITE_PLACEHOLDER } from '../../web/src/share/meta.ts';
import { htmlWithSiteTags, oembedWithSite, SITE_PLACEHOLDER as PLACEHOLDER_MJS } from '../../scripts/site-tags.mjs';
import type { PageMeta } from '../../web/src/share/meta.ts';
import { chartSvg, niceTicks, svgText, textWidth } from '../../web/src/share/svgchart.ts';
import { fitSentence, cardSvg, firstPaintHtml } from '../../web/src/share/card.ts';
import { wrapText } from '../../web/src/share/wrap.ts';
import { figureData, renderFigure, viewWords, callCore } from '../../web/src/share/figures.ts';
import { sweepParams, varianceSweepParams } from '../../web/src/requests/attention.ts';
import { sweepAt, ALL_SCALES } from '../../web/src/requests/results.ts';
import { buildSaturationLine } from '../../web/src/charts/saturation.ts';
import { fmt } from '../../web/src/format.ts';
import { pageHtml, siteUrl } from '../../scripts/share-pages.ts';
import { readFileSync } from 'node:fs';

const EXPS = SCHEMA.exp.values as readonly Panel[];
const zh = translator('zh-CN');
const en = translator('en');

describe('URL layout', () => {
  it('every view has a page per language, and each page finds its way back to the root', () => {
    expect(sharePath('saturation', 'en')).toBe('p/saturation/');
    expect(sharePath('saturation', 'zh-CN')).toBe('zh-CN/p/saturation/');
    expect(rootFrom('')).toBe('./');
    expect(rootFrom('p/saturation/')).toBe('../../');
    expect(rootFrom('zh-CN/p/saturation/')).toBe('../../../');
    const paths = EXPS.flatMap((e) => (SCHEMA.lang.values as readonly ('en' | 'zh-CN')[]).map((l) => sharePath(e, l)));
    expect(new Set(paths).size).toBe(EXPS.length * SCHEMA.lang.values.length);
  });

  it('a page reads its view, language and root from <html>; anything else falls back to the root page', () => {
    expect(pageContext({ dataset: { pageExp: 'gqa', pageLang: 'zh-CN', root: '../../../' } })).toEqual({ exp: 'gqa', lang: 'zh-CN', root: '../../../' });
    expect(pageContext({ dataset: { root: './' } })).toEqual({ exp: null, lang: null, root: './' });
    expect(pageContext({ dataset: { pageExp: 'nope', pageLang: 'fr', root: 'https://evil/' } })).toEqual({ exp: null, lang: null, root: './' });
    expect(siteRoot('https://h.example/lab/zh-CN/p/gqa/?utm=x#v=1&exp=gqa', { exp: 'gqa', lang: 'zh-CN', root: '../../../' })).toBe('https://h.example/lab/');
    expect(siteRoot('https://h.example/lab/index.html#v=1', { exp: null, lang: null, root: './' })).toBe('https://h.example/lab/');
  });

  it('the page\'s view is the default of exp, and a hash that names exp wins', () => {
    const ctx = { exp: 'gradient' as Panel, lang: null, root: '../../' };
    expect(withPageView('', ctx)).toBe('#exp=gradient');
    expect(withPageView('#v=1&dk=512', ctx)).toBe('#exp=gradient&v=1&dk=512');
    expect(withPageView('#v=1&exp=variance', ctx)).toBe('#v=1&exp=variance');
    expect(withPageView('#v=1&dk=512', { exp: null, lang: null, root: './' })).toBe('#v=1&dk=512');
    expect(hashHasKey('#v=1&%65xp=gqa', 'exp')).toBe(true);
    // the state read is the one the full link gives, so readouts are the same
    const viaPage = parseHash(withPageView('#v=1&dk=512&scale=none', { ...ctx, exp: 'saturation' })).state;
    const plain = parseHash('#v=1&exp=saturation&dk=512&scale=none').state;
    expect(toHash(viaPage)).toBe(toHash(plain));
  });

  it('Copy link gives the share page of the view and language, with the hash that reproduces the state', () => {
    const s = { ...defaultState('zh-CN'), exp: 'gradient' as Panel, dk: 512 };
    expect(shareUrl(s, 'https://you.github.io/sqrtdk/')).toBe(`https://you.github.io/sqrtdk/zh-CN/p/gradient/${toHash(s)}`);
    expect(shareUrl({ ...s, lang: 'en' }, 'https://h/', '#v=1&exp=gradient')).toBe('https://h/p/gradient/#v=1&exp=gradient');
  });
});

const meta = (over: Partial<PageMeta> = {}): PageMeta => ({
  exp: 'saturation', lang: 'zh-CN', path: 'zh-CN/p/saturation/', title: `${zh('sat.title')} — √dk Lab`,
  description: zh('sat.lede'), imageAlt: 'a "quoted" <alt>', siteName: '√dk Lab', site: 'https://you.github.io/sqrtdk/',
  alternates: [{ lang: 'en', path: 'p/saturation/' }], ...over,
});

describe('head tags', () => {
  it('a zh-CN page: its Chinese title and lede, absolute URLs under SITE_URL, a large card, oEmbed discovery', () => {
    const tags = headTags(meta());
    const title = `${zh('sat.title')} — √dk Lab`;
    expect(tags).toContain(`<title>${title}</title>`);
    expect(tags).toContain(`<meta property="og:title" content="${title}">`);
    expect(tags).toContain(`<meta name="description" content="${zh('sat.lede')}">`);
    expect(tags).toContain('<link rel="canonical" href="https://you.github.io/sqrtdk/zh-CN/p/saturation/">');
    expect(tags).toContain('<meta property="og:url" content="https://you.github.io/sqrtdk/zh-CN/p/saturation/">');
    expect(tags).toContain('<meta property="og:image" content="https://you.github.io/sqrtdk/zh-CN/p/saturation/card.png">');
    expect(tags).toContain(`<meta property="og:image:width" content="${CARD.width}">`);
    expect(tags).toContain(`<meta property="og:image:height" content="${CARD.height}">`);
    expect(tags).toContain('<meta property="og:image:alt" content="a &quot;quoted&quot; &lt;alt&gt;">');
    expect(tags).toContain('<meta property="og:locale" content="zh_CN">');
    expect(tags).toContain('<meta property="og:locale:alternate" content="en_US">');
    expect(tags).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(tags).toContain('<link rel="alternate" hreflang="en" href="https://you.github.io/sqrtdk/p/saturation/">');
    // the page itself among its languages, and English as the default
    expect(tags).toContain('<link rel="alternate" hreflang="zh-CN" href="https://you.github.io/sqrtdk/zh-CN/p/saturation/">');
    expect(tags).toContain('<link rel="alternate" hreflang="x-default" href="https://you.github.io/sqrtdk/p/saturation/">');
    expect(tags).toContain('<link rel="alternate" type="application/json+oembed" href="https://you.github.io/sqrtdk/zh-CN/p/saturation/oembed.json"');
  });

  it('without SITE_URL the card, og:url and oEmbed discovery are held back in a comment, which a server of a known origin writes out as a SITE_URL build would', () => {
    const outside = (tags: string) => tags.replace(/<!--[\s\S]*?-->/g, '');
    const tags = headTags(meta({ site: null }));
    expect(outside(tags)).not.toMatch(/og:image|og:url|twitter:image|json\+oembed|twitter:card/);
    expect(outside(tags)).toContain(`<title>${zh('sat.title')} — √dk Lab</title>`);
    expect(tags).toContain('<meta property="og:image" content="../../../zh-CN/p/saturation/card.png">');
    const root = headTags(meta({ exp: 'interview', lang: 'en', path: '', site: null, alternates: [] }));
    expect(root).toContain('<link rel="canonical" href="./">');
    expect(urlFor(null, 'p/x/', 'p/x/oembed.json')).toBe('../../p/x/oembed.json');
    // `npm start` at http://127.0.0.1:5173/ (or under a sub-path): the tags a SITE_URL build writes for that address
    for (const site of ['http://127.0.0.1:5173/', 'http://127.0.0.1:8080/blog/lab/']) {
      const lines = (t: string) => t.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('<!--') && !l.endsWith('-->')).sort();
      // (canonical and hreflang stay relative: HTML resolves them against the page)
      const held = (t: string) => lines(t).filter((l) => /og:|twitter:|oembed/.test(l));
      expect(held(htmlWithSiteTags(tags, `${site}zh-CN/p/saturation/`))).toEqual(held(headTags(meta({ site }))));
      expect(htmlWithSiteTags(tags, `${site}zh-CN/p/saturation/`)).toContain(`<meta property="og:image" content="${site}zh-CN/p/saturation/card.png">`);
      const rootSite = headTags(meta({ exp: 'interview', lang: 'en', path: '', site, alternates: [] }));
      expect(held(htmlWithSiteTags(root, site))).toEqual(held(rootSite));
    }
    // a '--' in a value survives the comment
    const dashed = headTags(meta({ site: null, imageAlt: 'a -- b' }));
    expect(dashed.slice(dashed.indexOf('<!--') + 4, dashed.lastIndexOf('-->'))).not.toContain('--');
    expect(htmlWithSiteTags(dashed, 'http://x.test/zh-CN/p/saturation/')).toContain('<meta property="og:image:alt" content="a -- b">');
    // a page of a SITE_URL build is served unchanged
    expect(htmlWithSiteTags(headTags(meta()), 'http://127.0.0.1:5173/zh-CN/p/saturation/')).toBe(headTags(meta()));
  });

  it('SITE_URL: a trailing slash is added, and a value that is not an absolute http(s) URL is refused by name', () => {
    expect(siteUrl(undefined)).toBeNull();
    expect(siteUrl(' ')).toBeNull();
    expect(siteUrl('https://you.github.io/sqrtdk')).toBe('https://you.github.io/sqrtdk/');
    expect(siteUrl('https://you.github.io/sqrtdk/?x=1#y')).toBe('https://you.github.io/sqrtdk/');
    expect(() => siteUrl('you.github.io/sqrtdk')).toThrow(/SITE_URL = "you.github.io\/sqrtdk" is not an absolute URL/);
    expect(() => siteUrl('ftp://x/')).toThrow(/must be an http\(s\) URL/);
  });
});

describe('oEmbed', () => {
  it('type rich, version 1.0, the dialog\'s own iframe snippet of the view in the page\'s language, the card as thumbnail', () => {
    const o = oembedJson(meta(), zh('sat.title'));
    const state = { ...defaultState('zh-CN'), exp: 'saturation' as Panel };
    expect(o).toEqual({
      version: '1.0', type: 'rich', title: `${zh('sat.title')} — √dk Lab`, provider_name: '√dk Lab',
      provider_url: 'https://you.github.io/sqrtdk/',
      html: `<blockquote hidden><a href="https://you.github.io/sqrtdk/zh-CN/p/saturation/">${zh('sat.title')} — √dk Lab</a></blockquote>\n`
        + embedSnippet(state, 'https://you.github.io/sqrtdk/', `√dk Lab — ${zh('sat.title')}`),
      width: 720, height: fallbackHeight({ ...state, embed: true }),
      thumbnail_url: 'https://you.github.io/sqrtdk/zh-CN/p/saturation/card.png', thumbnail_width: 1200, thumbnail_height: 630,
    });
    expect(o.html).toContain('https://you.github.io/sqrtdk/#v=1&amp;exp=saturation&amp;lang=zh-CN');
    expect(o.html).toContain('<script src="https://you.github.io/sqrtdk/embed.js" async></script>');
    // without SITE_URL: the placeholder of the site's address, and the served site's root where a server of a known origin serves it
    const held = oembedJson(meta({ site: null }), zh('sat.title'));
    expect(held.thumbnail_url).toBe('https://YOUR-SITE.example/sqrtdk/zh-CN/p/saturation/card.png');
    expect(held.provider_url).toBe('https://YOUR-SITE.example/sqrtdk/');
    const site = 'http://127.0.0.1:5173/blog/';
    expect(JSON.parse(oembedWithSite(JSON.stringify(held), `${site}zh-CN/p/saturation/oembed.json`))).toEqual(oembedJson(meta({ site }), zh('sat.title')));
    // an answer built with SITE_URL is served as it is; an answer served elsewhere than its own place is refused
    const built = JSON.stringify(o);
    expect(oembedWithSite(built, `${site}zh-CN/p/saturation/oembed.json`)).toBe(built);
    expect(() => oembedWithSite(JSON.stringify(held), `${site}p/saturation/oembed.json`)).toThrow(/is not the address of zh-CN\/p\/saturation\/oembed.json/);
  });

  it('a build without SITE_URL: no answer holds a relative address, each names the placeholder the build says once, and the served site replaces it everywhere', () => {
    expect(SITE_PLACEHOLDER).toBe(PLACEHOLDER_MJS);
    const site = 'http://127.0.0.1:5173/lab/';
    for (const exp of EXPS) {
      for (const [lang, path] of [['en', `p/${exp}/`], ['zh-CN', `zh-CN/p/${exp}/`]] as const) {
        const held = oembedJson(meta({ exp, lang, path, site: null }), 't');
        for (const k of ['provider_url', 'thumbnail_url'] as const) expect(held[k], `${path} ${k}`).toMatch(/^https:\/\/YOUR-SITE\.example\/sqrtdk\//);
        // every address of the snippet (the frame, embed.js, the share page's link) absolute
        const addrs = [...held.html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
        expect(addrs.length, path).toBeGreaterThanOrEqual(3);
        for (const a of addrs) expect(a, `${path}: ${a}`).toMatch(/^https:\/\/YOUR-SITE\.example\/sqrtdk\//);
        const served = oembedWithSite(JSON.stringify(held), `${site}${path}oembed.json`);
        expect(served, path).not.toContain('YOUR-SITE');
        expect(JSON.parse(served), path).toEqual(oembedJson(meta({ exp, lang, path, site }), 't'));
      }
    }
  });

  it('each language\'s answer carries the heights measured in that language (Chinese text wraps otherwise)', () => {
    const enMeta = meta({ lang: 'en', path: 'p/saturation/', title: `${en('sat.title')} — √dk Lab`, alternates: [{ lang: 'zh-CN', path: 'zh-CN/p/saturation/' }] });
    for (const exp of EXPS) {
      const zhAnswer = oembedJson(meta({ exp, path: `zh-CN/p/${exp}/` }), 't');
      const enAnswer = oembedJson({ ...enMeta, exp, path: `p/${exp}/` }, 't');
      const at720 = (lang: 'en' | 'zh-CN') => Math.ceil(heightAt(EMBED_FIT[lang][exp].all, 720));
      expect(zhAnswer.height, exp).toBe(at720('zh-CN'));
      expect(enAnswer.height, exp).toBe(at720('en'));
      // the frame in the answer's html: the same height attribute, and the CSS of that language's points
      expect(zhAnswer.html, exp).toContain(`height="${at720('zh-CN')}"`);
      expect(zhAnswer.html, exp).toContain(fitCss(EMBED_FIT['zh-CN'][exp].all).replace(/&/g, '&amp;'));
      expect(enAnswer.html, exp).toContain(fitCss(EMBED_FIT.en[exp].all).replace(/&/g, '&amp;'));
    }
    // measured, not copied: the Chinese article and interview embeds have their own heights at 720 px
    for (const exp of ['article', 'interview'] as const) expect(heightAt(EMBED_FIT['zh-CN'][exp].all, 720), exp).not.toBe(heightAt(EMBED_FIT.en[exp].all, 720));
    // the dialog's snippet of a zh-CN state takes the same choice
    expect(fallbackHeight({ ...defaultState('zh-CN'), exp: 'article', embed: true })).toBe(Math.ceil(heightAt(EMBED_FIT['zh-CN'].article.all, 720)));
    expect(fallbackHeight({ ...defaultState('en'), exp: 'article', embed: true })).toBe(Math.ceil(heightAt(EMBED_FIT.en.article.all, 720)));
  });
});

describe('the page from the built template', () => {
  const template = `<!doctype html>
<html lang="en">
<head>
  <meta name="referrer" content="no-referrer">
  <meta name="description" content="old">
  <meta property="og:title" content="old">
  <meta name="twitter:card" content="summary">
  <link rel="icon" href="./icons/icon.svg">
  <title>√dk Lab</title>
  <script type="module" crossorigin src="./assets/index-x.js"></script>
  <link rel="stylesheet" crossorigin href="./assets/index-x.css">
</head>
<body>
  <div id="app"><p class="boot" data-boot-text>√dk Lab …</p>
    <div class="boot boot-late" data-boot-late><p>could not start here</p></div></div>
  <noscript>needs JS</noscript>
</body>
</html>`;
  it('its own tags replace the template\'s, URLs climb to the root, the stylesheet follows the first paint', () => {
    const html = pageHtml(template, { lang: 'zh-CN', path: 'zh-CN/p/gqa/', exp: 'gqa', head: '<title>T</title>\n  <meta property="og:image" content="c.png">', body: '<div data-first-paint="gqa">x</div>', noscript: '要 JS' });
    expect(html).toContain('<html lang="zh-CN" data-root="../../../" data-page-exp="gqa" data-page-lang="zh-CN">');
    expect(html).not.toContain('content="old"');
    expect(html).not.toContain('summary"');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('href="../../../icons/icon.svg"');
    expect(html).toContain('src="../../../assets/index-x.js"');
    expect(html).not.toContain('"./');
    expect(html.indexOf('rel="stylesheet"')).toBeGreaterThan(html.indexOf('data-first-paint'));
    // the first paint takes the place of "loading"; the message of a lab that cannot load stays after it
    expect(html).not.toContain('data-boot-text');
    expect(html.indexOf('data-boot-late')).toBeGreaterThan(html.indexOf('data-first-paint'));
    expect(html).toContain('<noscript><p class="fp-noscript">要 JS</p><style>.fp-status{display:none}</style></noscript>');
    // an English page follows the reader's browser, as the root does
    expect(pageHtml(template, { lang: 'en', path: 'p/gqa/', exp: 'gqa', head: '<title>T</title><meta property="og:image" content="c.png">', body: '<div data-first-paint="gqa"></div>', noscript: 'n' }))
      .toContain('<html lang="en" data-root="../../" data-page-exp="gqa">');
    const root = pageHtml(template, { lang: 'en', path: '', exp: null, head: '<title>T</title><meta property="og:image" content="c.png">', body: '<div data-first-paint="interview"></div>', noscript: 'n' });
    expect(root).toContain('<html lang="en" data-root="./">');
    expect(root).toContain('href="./icons/icon.svg"');
  });
});

describe('the static chart and the card', () => {
  it('nice ticks, and math signs in the math font', () => {
    expect(niceTicks(0, 4.85)).toEqual([0, 1, 2, 3, 4]);  // within the range; the axis adds the next one above
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(svgText('÷√d_k & 10⁻³', 'DejaVu Sans', 'Noto')).toBe('<tspan font-family="DejaVu Sans, Noto">÷√</tspan>d_k &amp; 10<tspan font-family="DejaVu Sans, Noto">⁻³</tspan>');
    // Latin text at a baseline: the same (one chunk)
    expect(svgText('÷√d_k & 10⁻³', 'DejaVu Sans', 'Noto', 40)).toBe(svgText('÷√d_k & 10⁻³', 'DejaVu Sans', 'Noto'));
  });

  it('the radical whole in Chinese: each math run and the text after it start a chunk of their own at the line\'s baseline', () => {
    // resvg shapes a chunk holding CJK in the CJK font alone, whose √ stands apart from d_k
    expect(svgText('除以 √d_k？', 'DejaVu Sans', 'Noto', 40))
      .toBe('除以 <tspan y="40" font-family="DejaVu Sans, Noto">√</tspan><tspan y="40">d_k？</tspan>');
    expect(svgText('√d_k：÷√2', 'DejaVu Sans', 'Noto', 7))
      .toBe('<tspan y="7" font-family="DejaVu Sans, Noto">√</tspan><tspan y="7">d_k：</tspan><tspan y="7" font-family="DejaVu Sans, Noto">÷√</tspan><tspan y="7">2</tspan>');
    // the card: every text line of a Chinese card whose words hold √ is split so
    const svg = cardSvg({ num: 1, title: '面试', sentence: '注意力为什么要除以 √d_k？', numbers: [{ value: '4.365', label: '平均熵，÷√d_k，d_k = 512' } as never], chart: null, brand: '√dk Lab', tagline: '在你的浏览器中实时计算', site: '' });
    const lines = [...svg.matchAll(/<text [^>]*y="(\d+)"[^>]*>(.*?)<\/text>/g)].filter((m) => m[2].includes('√') && /[\u4e00-\u9fff]/.test(m[2]));
    expect(lines.length).toBe(2);
    for (const [, y, body] of lines) expect([...body.matchAll(/<tspan y="(\d+)"/g)].every((m) => m[1] === y)).toBe(true);
  });

  it('a chart config becomes an SVG of its series on its axes, with the live chart\'s legend filter', () => {
    const sw = { logSeqLen: Math.log(128), points: ALL_SCALES.map((_, si) => [1, 64, 4096].map((dk) => ({ entropy: { mean: 4 - si - dk / 4096 }, maxWeight: { mean: 0.5 } }))) } as unknown as SaturationSweepResult;
    const spec = buildSaturationLine(sw, [1, 64, 4096], ALL_SCALES, 'entropy', null, defaultState('en'), en);
    const svg = chartSvg(spec.config, { width: 600, height: 320 });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 320"')).toBe(true);
    // one path per scale plus ln L; the x axis ticks are powers of two as labelled by the live chart
    expect(svg.match(/<path d="M[^"]*" fill="none"/g)).toHaveLength(ALL_SCALES.length + 1);
    for (const label of ['>1<', '>4096<', en('scale.none'), en('sat.series.lnL'), en('sat.axis.entropy')]) expect(svg).toContain(label);
    expect(svg).not.toContain('NaN');
  });

  it('text wraps between words and between CJK characters; a long sentence is cut after a clause', () => {
    // the card's widths: estimated at 20 px
    const at20 = (x: string) => textWidth(x, 20);
    expect(wrapText('one two three four', 160, at20, 3)).toEqual(['one two three', 'four']);
    const cjk = wrapText('远超训练长度时固定的缩放还管用吗', 100, at20, 5);
    expect(cjk.join('')).toBe('远超训练长度时固定的缩放还管用吗');
    expect(cjk.every((l) => [...l].length <= 5)).toBe(true);
    expect(wrapText('a b c d e f g h', 40, at20, 2).at(-1)!.endsWith('…')).toBe(true);
    expect(fitSentence('Short one. And then a very long second sentence that cannot fit at all here.', 200, 20, 1)).toBe('Short one.');
    expect(fitSentence('Fits.', 200, 20, 1)).toBe('Fits.');
  });

  it('the card is 1200×630 with the title, the sentence and the numbers; the first paint carries heading, lede, picture and status', () => {
    const card = cardSvg({ num: 2, title: '饱和', sentence: zh('sat.lede'), numbers: [{ label: '平均熵', value: '4.364' }], chart: null, brand: '√dk Lab', tagline: zh('share.card.live'), site: 'you.github.io/sqrtdk' });
    expect(card).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1200" height="630"/);
    for (const s of ['饱和', '4.364', '平均熵', 'you.github.io/sqrtdk']) expect(card).toContain(s);
    const fp = firstPaintHtml({ exp: 'device', num: 11, title: 'T <x>', lede: 'L', brand: 'B', tagline: 'G', chart: null, numbers: [{ label: 'n', value: '1' }], computing: en('share.computing'), note: 'N' });
    expect(fp).toContain('data-first-paint="device"');
    expect(fp).toContain('<h2 class="fp-title">T &lt;x&gt;</h2>');
    expect(fp).toContain(`role="status"><span class="fp-spinner" aria-hidden="true"></span>${en('share.computing')}`);
    expect(fp).toContain('<dd>1</dd>');
  });
});

describe('each view\'s figure from the real core', () => {
  let core: Core;
  const read = (name: string) => { const b = readFileSync(new URL(`../../web/public/examples/${name}`, import.meta.url)); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer; };
  beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

  it('every view of the schema has words in both languages, and a chart or a number', async () => {
    for (const exp of EXPS) {
      const s = { ...defaultState('en'), exp };
      const data = await figureData(exp, core, s, read);
      for (const lang of ['en', 'zh-CN'] as const) {
        const t = translator(lang);
        const w = viewWords(exp, t);
        expect(w.title, `${exp} ${lang}`).not.toMatch(/\.title$/);
        // Chinese words on the zh-CN pages (the GQA / MQA view has the same name in both)
        if (lang === 'zh-CN') expect(`${w.title} ${w.lede}`, exp).toMatch(/[\u4e00-\u9fff]/);
        const f = renderFigure(exp, data, { ...s, lang }, t);
        expect(f.chart !== null || f.numbers.length > 0, exp).toBe(true);
        for (const n of f.numbers) { expect(n.label).not.toBe(''); expect(n.value).toMatch(/\d/); }
        if (f.chart) expect(f.chart.points, exp).toBeGreaterThan(0);
      }
    }
  }, 60000);

  it('the numbers are the panels\' own: the saturation sweep at d_k = 64, the variance law at d_k = 512', async () => {
    const s = { ...defaultState('en'), exp: 'saturation' as Panel };
    const sw = core.saturationSweep(sweepParams(s)) as SaturationSweepResult;
    const f = renderFigure('saturation', await figureData('saturation', core, s, read), s, en);
    expect(f.numbers[0].value).toBe(`${fmt(sweepAt(sw, sweepParams(s).dks, ALL_SCALES, 'inv_sqrt_dk', 64)!.entropy.mean)} (ln L = ${fmt(Math.log(128))})`);
    expect(f.numbers[1].value).toBe(fmt(sweepAt(sw, sweepParams(s).dks, ALL_SCALES, 'none', 64)!.entropy.mean));
    const v = { ...defaultState('en'), exp: 'variance' as Panel };
    const vr = callCore(core, 'scoreVariance', varianceSweepParams(v)) as ScoreVarianceResult;
    const fv = renderFigure('variance', await figureData('variance', core, v, read), v, zh);
    expect(fv.numbers[0]).toEqual({ label: `${zh('var.ro.var')}，d_k = 512`, value: fmt(vr.rows.find((r) => r.dk === 512)!.raw.variance) });
    // Var(q·k) grows like d_k: about 512 at d_k = 512 (C1), not a constant
    expect(Number(fv.numbers[0].value)).toBeGreaterThan(450);
    expect(Number(fv.numbers[0].value)).toBeLessThan(570);
  });
});
