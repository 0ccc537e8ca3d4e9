// Browser tests of sharing where people share: an embed inside <iframe sandbox="allow-scripts">
// (no allow-same-origin: the WordPress case, origin "null") on a cross-origin host page draws the
// same charts and readouts as a plain embed; the <sqrtdk-lab> custom element sizes itself; the
// "Share as image" poster decodes (jsQR on the PNG) to the exact link and holds the numbers the
// view shows. SAVE_POSTERS=1 writes the posters to web/docs/poster-{en,zh-CN,interview-en}.png for the README.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { useSuite, watch, hostPage } from './browser.mjs';
import { panelSettled, panelReadouts } from './panel.mjs';
import { oembedWithSite } from '../../scripts/site-tags.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const docs = fileURLToPath(new URL('../../web/docs/', import.meta.url));

let srv, browser, context, log;
useSuite('/', (s) => ({ srv, browser, context, log } = s));

const column = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
  <style>body{margin:0;font:16px serif}main{width:720px;margin:0 auto}iframe{display:block}</style></head><body><main><h1>A post</h1>${body}</main></body></html>`;

test('an embed in a sandboxed cross-origin frame (allow-scripts only) draws the same charts and readouts as a plain embed', async () => {
  const views = [
    ['variance', 'dk=128&samples=1000&seed=3'],
    ['saturation', 'dk=256&seed=2&scale=none'],
    ['article', 'aseed=5'],
    ['gqa', 'hq=16&hkv=4&gdk=64'],
  ];
  const src = (exp, keys, query = '') => `${srv.url}${query}#v=1&exp=${exp}&lang=en&${keys}&embed=1&show=charts`;
  const frame = (kind, exp, url, sandbox) => `<h2>${exp} (${kind})</h2><iframe ${sandbox ? 'sandbox="allow-scripts"' : ''} data-case="${kind}-${exp}" src="${url}" width="100%" height="900" style="border:0"></iframe>`;
  const frames = views.map(([exp, keys]) => frame('sandboxed', exp, src(exp, keys), true) + frame('plain', exp, src(exp, keys), false)).join('\n')
    // where no worker can start, the core on the page's thread (forced here by ?core=page)
    + frame('page-thread', 'saturation', src(...views[1], '?core=page'), true)
    // the interview view: every live number of the answer, with its training run in a worker of its own
    + frame('sandboxed', 'interview', `${srv.url}#v=1&exp=interview&lang=en&embed=1`, true) + frame('plain', 'interview', `${srv.url}#v=1&exp=interview&lang=en&embed=1`, false);
  const host = await hostPage(column(frames));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const hlog = watch(ctx, srv.origin);
  const page = await ctx.newPage();
  const table = [];
  const read = async (kind, exp) => {
    const el = page.locator(`iframe[data-case="${kind}-${exp}"]`);
    await el.scrollIntoViewIfNeeded();
    const frame = await (await el.elementHandle()).contentFrame();
    await panelSettled(frame, exp, 60000);
    // a chart in view draws in a task after its data arrive (charts/chartbox.ts draw queue)
    await frame.waitForFunction(() => [...document.querySelectorAll('canvas[data-chart]')].some((c) => Number(c.dataset.renders ?? 0) >= 1), null, { timeout: 30000 });
    const drawn = await frame.evaluate(() => [...document.querySelectorAll('canvas[data-chart]')].filter((c) => Number(c.dataset.renders ?? 0) >= 1).length);
    const origin = await frame.evaluate(() => self.origin);
    const thread = await frame.evaluate(() => document.documentElement.dataset.coreThread);
    return { readouts: await panelReadouts(frame, exp), drawn, origin, thread };
  };
  try {
    await page.goto(host.url);
    for (const [exp] of views) {
      const sandboxed = await read('sandboxed', exp);
      const plain = await read('plain', exp);
      assert.equal(sandboxed.origin, 'null', `${exp}: the sandboxed frame has an opaque origin`);
      assert.notEqual(plain.origin, 'null');
      assert.equal(sandboxed.thread, 'worker', `${exp}: the sandboxed embed computes in workers`);
      assert.ok(sandboxed.drawn >= 1, `${exp}: the sandboxed embed drew ${sandboxed.drawn} charts`);
      assert.ok(Object.keys(plain.readouts).length >= 3, `${exp}: readouts ${JSON.stringify(plain.readouts)}`);
      assert.deepEqual(sandboxed.readouts, plain.readouts, `${exp}: the same readouts sandboxed and plain`);
      for (const [id, v] of Object.entries(plain.readouts).slice(0, 3)) table.push(`${exp} ${id}: sandboxed ${sandboxed.readouts[id]} | plain ${v}`);
    }
    const pageThread = await read('page-thread', 'saturation');
    assert.equal(pageThread.thread, 'page');
    assert.equal(pageThread.origin, 'null');
    assert.deepEqual(pageThread.readouts, (await read('plain', 'saturation')).readouts, 'the core on the page’s thread gives the same readouts');
    table.push(`saturation sat-entropy: page thread ${pageThread.readouts['sat-entropy']}`);
    const live = async (kind) => {
      const el = page.locator(`iframe[data-case="${kind}-interview"]`);
      await el.scrollIntoViewIfNeeded();
      const f = await (await el.elementHandle()).contentFrame();
      await f.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1', null, { timeout: 90000, polling: 100 });
      return f.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-live]')].map((e) => [e.dataset.live, e.dataset.value])));
    };
    const [ivS, ivP] = [await live('sandboxed'), await live('plain')];
    assert.ok(Object.keys(ivP).length >= 10, JSON.stringify(ivP));
    assert.deepEqual(ivS, ivP, 'interview: every live number the same sandboxed and plain');
    for (const id of ['std512', 'entNone512', 'trainVar']) table.push(`interview ${id}: sandboxed ${ivS[id]} | plain ${ivP[id]}`);
  } finally {
    await host.close();
  }
  console.log('sandboxed vs plain readouts:\n' + table.join('\n'));
  assert.deepEqual([...hlog.pageErrors, ...hlog.consoleErrors], []);
  await ctx.close();
});

test('a sandboxed embed from a host that sends no CORS header fails well: the view it names, why, its address as text, no spinner, a small frame', async () => {
  const { serve } = await import('./server.mjs');
  const { readFileSync } = await import('node:fs');
  const bare = await serve(dist, { prefix: '/', cors: false });
  // the view's title as its share page's first paint writes it
  const title = (page) => /<h2 class="fp-title">([^<]*)<\/h2>/.exec(readFileSync(`${dist}${page}index.html`, 'utf8'))[1].replace(/&amp;/g, '&');
  // a plain frame of the snippet's height, and one sized by embed.js with WordPress's suffix on its address
  const sized = `${bare.url}#v=1&exp=saturation&lang=zh-CN&dk=256&embed=1`;
  const host = await hostPage(column(`<iframe sandbox="allow-scripts" data-case="plain" src="${bare.url}#v=1&exp=variance&embed=1" width="100%" height="600" style="border:0"></iframe>
    <iframe sandbox="allow-scripts" data-case="sized" data-sqrtdk-embed src="${sized}#?secret=Ab3dE6gH9j" width="100%" height="900" style="border:0"></iframe>
    <script src="${bare.url}embed.js"></script>`));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  try {
    await page.goto(host.url);
    for (const [kind, view, address, sentence] of [
      ['plain', title('p/variance/'), `${bare.url}#v=1&exp=variance`, /could not start here.*Access-Control-Allow-Origin/s],
      ['sized', title('zh-CN/p/saturation/'), `${bare.url}#v=1&exp=saturation&lang=zh-CN&dk=256`, /无法在此框架内启动.*Access-Control-Allow-Origin/s],
    ]) {
      const frame = await (await page.locator(`iframe[data-case="${kind}"]`).elementHandle()).contentFrame();
      await frame.waitForSelector('[data-boot-late] a', { state: 'visible', timeout: 15000 });
      assert.equal(await frame.evaluate(() => document.querySelector('[data-panel]')), null, `${kind}: the script did not run`);
      assert.match(await frame.textContent('[data-boot-late]'), sentence);
      assert.equal(await frame.getAttribute('[data-boot-late] a', 'target'), '_blank');
      // the view the link names (not the landing's), its address as selectable text, the reason that applies
      await frame.waitForSelector('[data-boot-view]', { state: 'visible', timeout: 15000 });
      assert.equal(await frame.textContent('[data-boot-view]'), view, `${kind}: the view's name`);
      assert.equal(await frame.textContent('[data-boot-address]'), address, `${kind}: the view's address in text`);
      assert.equal(await frame.evaluate(() => getComputedStyle(document.querySelector('[data-boot-address]')).userSelect), 'all');
      assert.equal(await frame.getAttribute('[data-boot-late] a', 'href'), address);
      assert.equal(await frame.isVisible('[data-boot-csp]'), false, `${kind}: the CSP let this page's scripts run: not the cause`);
      // no spinner and no landing picture left
      assert.equal(await frame.locator('.fp-spinner:visible, .first-paint:visible, [data-first-paint-figure]:visible').count(), 0, `${kind}: spinner and picture gone`);
      const bottom = await frame.evaluate(() => Math.ceil(document.getElementById('app').getBoundingClientRect().bottom));
      assert.ok(bottom < 400, `${kind}: the message is ${bottom} px tall`);
    }
    // embed.js sizes the frame to the message (it asked for 900 px)
    await page.waitForFunction(() => document.querySelector('iframe[data-case="sized"]').hasAttribute('data-sqrtdk-sized'), null, { timeout: 15000 });
    const h = await page.evaluate(() => document.querySelector('iframe[data-case="sized"]').getBoundingClientRect().height);
    assert.ok(h < 400, `the frame is ${h} px tall`);
    console.log(`a CORS-less sandboxed frame: ${h} px tall (900 px asked)`);
  } finally {
    await host.close();
    await bare.close();
    await ctx.close();
  }
});

// ---- WordPress's paste-a-link path (issue 31) ----
// What WordPress does with the oEmbed answer of a provider it does not know, reproduced from its
// documented behaviour (not its code): keep only <a href>, <blockquote> and <iframe> with its size
// and title (the script, the wrapper and every style go), append "#?secret=<10 letters and digits>"
// to the frame's address and put the secret on the frame and the blockquote as data-secret, hide the
// frame while a blockquote stands in for it, and frame it as sandbox="allow-scripts". Its host
// script is on the page only when the answer had a blockquote (WordPress enqueues it so).

/** HTML attribute value → text, and back. */
const unescapeAttr = (v) => v.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const escapeAttr = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function wordpressTreatment(answerHtml, base) {
  const allowed = { a: ['href'], blockquote: [], iframe: ['src', 'width', 'height', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'title'] };
  // every tag: allowed ones rebuilt with their allowed attributes (addresses made absolute, as a build with SITE_URL writes them), the others dropped
  let html = answerHtml.replace(/<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g, (_, close, name, attrs) => {
    const tag = name.toLowerCase();
    if (!allowed[tag]) return '';
    if (close) return `</${tag}>`;
    const kept = [...attrs.matchAll(/([^\s=>]+)(?:="([^"]*)")?/g)]
      .filter(([, k]) => allowed[tag].includes(k.toLowerCase()))
      .map(([, k, v = '']) => ` ${k.toLowerCase()}="${['src', 'href'].includes(k.toLowerCase()) ? escapeAttr(new URL(unescapeAttr(v), base).href) : v}"`);
    return `<${tag}${kept.join('')}>`;
  });
  const m = /(<blockquote>[\s\S]*?<\/blockquote>)?[\s\S]*?(<iframe[\s\S]*?><\/iframe>)/.exec(html);
  assert.ok(m && m[2], 'the answer has an iframe');
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const secret = Array.from({ length: 10 }, () => letters[Math.floor(Math.random() * letters.length)]).join('');
  html = (m[1] ?? '') + m[2];
  html = html.replace(/ src="([^"]*)"/, (_, src) => ` src="${src}#?secret=${secret}" data-secret="${secret}"`)
    .replace('<blockquote', `<blockquote data-secret="${secret}"`);
  if (m[1]) {
    html = html.replace('<iframe', '<iframe style="position: absolute; clip: rect(1px, 1px, 1px, 1px);"')
      .replace('<blockquote', '<blockquote class="wp-embedded-content"');
  }
  html = html.replace('<iframe', '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"');
  return { html, secret, hostScript: /<blockquote\s[^>]*wp-embedded-content/.test(html) };
}

/** The host script's documented protocol, written anew: show a frame that speaks, set its height (200..1000 px), note 'link' requests; say 'ready' to every frame. */
const WP_HOST_SCRIPT = `<script>
(function () {
  window.__wpLinks = [];
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || !(d.secret || d.message || d.value) || /[^a-zA-Z0-9]/.test(d.secret)) return;
    document.querySelectorAll('blockquote[data-secret="' + d.secret + '"]').forEach(function (q) { q.style.display = 'none'; });
    document.querySelectorAll('iframe[data-secret="' + d.secret + '"]').forEach(function (f) {
      if (f.contentWindow !== e.source) return;
      f.removeAttribute('style');
      if (d.message === 'height') f.height = Math.min(1000, Math.max(200, parseInt(d.value, 10) || 0));
      if (d.message === 'link') window.__wpLinks.push(d.value);
    });
  });
  function ready() {
    document.querySelectorAll('iframe.wp-embedded-content[data-secret]').forEach(function (f) {
      f.contentWindow.postMessage({ message: 'ready', secret: f.getAttribute('data-secret') }, '*');
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready); else ready();
})();
</script>`;

test("WordPress's paste-a-link path: the oEmbed answer, treated as WordPress treats it, draws the embed view with the link's readouts in a frame as tall as its content", async () => {
  // a view that fits WordPress's 1000 px cap (the Chinese article view in a 960 px column), and one
  // taller than that (saturation in a 720 px column), which keeps the frame's own height
  for (const [path, exp, width] of [['zh-CN/p/article/', 'article', 960], ['p/saturation/', 'saturation', 720]]) {
    const answerUrl = `${srv.url}${path}oembed.json`;
    // as `npm start` serves a build without SITE_URL: the site's root in place of the placeholder
    const answer = JSON.parse(oembedWithSite(await (await fetch(answerUrl)).text(), answerUrl));
    const wp = wordpressTreatment(answer.html, answerUrl);
    assert.ok(wp.hostScript, `${exp}: the answer has a blockquote, so WordPress puts its host script on the page`);
    assert.doesNotMatch(wp.html, /embed\.js|container-type|style="border/, `${exp}: the script and the fitted height are gone`);
    const src = unescapeAttr(/ src="([^"]*)"/.exec(wp.html)[1]);
    assert.match(src, new RegExp(`&embed=1#\\?secret=${wp.secret}$`));
    const host = await hostPage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A WordPress post</title>
      <style>body{margin:0;font:16px serif}main{width:${width}px;margin:0 auto;position:relative}iframe{display:block;border:0;width:100%}</style></head>
      <body><main><h1>A post</h1><p>Pasted on its own line:</p>${wp.html}<p>After the embed.</p></main>${WP_HOST_SCRIPT}</body></html>`);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const hlog = watch(ctx, srv.origin);
    const page = await ctx.newPage();
    try {
      await page.goto(host.url);
      const el = page.locator('iframe.wp-embedded-content');
      const frame = await (await el.elementHandle()).contentFrame();
      await panelSettled(frame, exp, 60000);
      // the embed view, not the app, and no notice of the secret WordPress appended
      assert.equal(await frame.evaluate(() => document.body.classList.contains('embed')), true, `${exp}: embed mode`);
      assert.equal(await frame.locator('header.top, [data-notice="parse"], [data-embed-error]').count(), 0, `${exp}: no app, no notice`);
      assert.equal(await frame.evaluate(() => self.origin), 'null', `${exp}: sandboxed`);
      // the frame spoke: WordPress shows it and hides the blockquote; its height holds the content
      await page.waitForFunction(() => {
        const f = document.querySelector('iframe.wp-embedded-content');
        return f.getAttribute('style') === null && getComputedStyle(document.querySelector('blockquote')).display === 'none';
      }, null, { timeout: 15000 });
      await frame.waitForFunction(() => document.documentElement.scrollHeight <= window.innerHeight, null, { timeout: 15000 })
        .catch(() => {});
      const sizes = await frame.evaluate(() => ({ content: Math.ceil(document.documentElement.getBoundingClientRect().height), scroll: document.documentElement.scrollHeight, frame: window.innerHeight }));
      const attr = Number(await el.getAttribute('height'));
      console.log(`WordPress ${exp} at ${width} px: frame ${sizes.frame} px (height attribute ${attr}), content ${sizes.content} px`);
      assert.ok(sizes.frame >= sizes.content && sizes.scroll <= sizes.frame, `${exp}: no inner scrollbar (frame ${sizes.frame} px, content ${sizes.content} px)`);
      if (sizes.content <= 1000) assert.ok(Math.abs(attr - Math.max(200, sizes.content)) <= 1, `${exp}: sized to its content (${attr} vs ${sizes.content})`);
      else assert.equal(attr, answer.height, `${exp}: taller than WordPress's cap, the frame keeps its height attribute`);
      // the link's readouts: those of the same address opened as a plain embed
      const readouts = await panelReadouts(frame, exp);
      const plain = await ctx.newPage();
      await plain.goto(src.replace(/#\?secret=.*$/, ''));
      await panelSettled(plain, exp, 60000);
      assert.deepEqual(readouts, await panelReadouts(plain, exp), `${exp}: the link's readouts`);
      assert.ok(Object.keys(readouts).length > 0);
      await plain.close();
      // a link that opens a new tab (blocked by the sandbox) goes through WordPress's host script
      await frame.locator('.embed-foot a').click();
      await page.waitForFunction(() => window.__wpLinks.length > 0);
      assert.match(await page.evaluate(() => window.__wpLinks[0]), new RegExp(`^${srv.origin}/#v=1&exp=${exp}&`));
      assert.deepEqual([...hlog.pageErrors], []);
    } finally {
      await host.close();
      await ctx.close();
    }
  }
});

test('the <sqrtdk-lab> element creates its iframe from its attributes and sizes itself from the lab’s height messages', async () => {
  const host = await hostPage(column(`<script src="${srv.url}sqrtdk-lab.js" async></script>
    <sqrtdk-lab exp="saturation" lang="zh-CN" dk="128" seqlen="64" heads="2" show="charts" height="300" title="√dk Lab — saturation"></sqrtdk-lab>
    <p id="after">after</p>`));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const hlog = watch(ctx, srv.origin);
  const page = await ctx.newPage();
  // every message of the host's console, warnings included: no early postMessage to a frame still on about:blank
  const said = [];
  page.on('console', (m) => said.push(`${m.type()}: ${m.text()}`));
  try {
    await page.goto(host.url);
    const el = page.locator('sqrtdk-lab iframe');
    await el.waitFor();
    const frame = await (await el.elementHandle()).contentFrame();
    await panelSettled(frame, 'saturation', 60000);
    // the attribute names HTML lower-cased are the link's keys again (seqlen → seqLen)
    const hash = await frame.evaluate(() => location.hash);
    assert.match(hash, /[#&]seqLen=64(&|$)/);
    assert.match(hash, /[#&]embed=1(&|$)/);
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'zh-CN');
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').hasAttribute('data-sized'));
    await page.waitForTimeout(300);
    const m = await page.evaluate(() => {
      const f = document.querySelector('sqrtdk-lab iframe');
      return { frame: f.getBoundingClientRect().height, sized: Number(document.querySelector('sqrtdk-lab').dataset.sized) };
    });
    const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.ok(m.frame > 300, `grew from its fallback height: ${m.frame}`);
    assert.equal(Math.round(m.frame), m.sized);
    assert.ok(Math.abs(m.sized - content) <= 1, `frame ${m.sized} px for content ${content} px`);
    assert.equal(await frame.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, 'no inner scrollbar');
  } finally {
    await host.close();
  }
  assert.deepEqual(said.filter((x) => /postMessage|target origin/i.test(x)), [], 'no postMessage warning in the host\'s console');
  assert.deepEqual([...hlog.pageErrors, ...hlog.consoleErrors], []);
  await ctx.close();
});

/** Opens the share dialog of the view on `page` and returns the poster: its PNG, the link and numbers drawn. */
async function poster(page) {
  await page.click('[data-action="share-image"]');
  await page.waitForSelector('dialog[data-share-dialog][data-poster-ready="1"]', { timeout: 30000 });
  return page.evaluate(() => {
    const d = document.querySelector('dialog[data-share-dialog]');
    return { png: d.querySelector('[data-share-poster]').src, link: d.dataset.posterLink, numbers: JSON.parse(d.dataset.posterNumbers), text: d.querySelector('[data-share-text]').value };
  });
}
function decode(dataUrl) {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return { png, qr: jsQR(new Uint8ClampedArray(png.data), png.width, png.height) };
}

test('Share as image: a 1080×1350 poster whose QR code is the exact link, with the numbers the view shows; the text for WeChat/Zhihu', async () => {
  const page = await context.newPage();
  for (const [lang, hash, exp] of [['en', '#v=1&exp=saturation&dk=512&scale=none&lang=en', 'saturation'], ['zh-CN', '#v=1&exp=variance&dk=256&lang=zh-CN', 'variance']]) {
    await page.goto(srv.url + hash);
    await panelSettled(page, exp, 60000);
    const shown = await panelReadouts(page, exp);
    const p = await poster(page);
    const { png, qr } = decode(p.png);
    assert.equal(png.width, 1080);
    assert.equal(png.height, 1350);
    assert.ok(qr, `${lang}: a QR code is found in the poster`);
    assert.equal(qr.data, p.link, `${lang}: the QR code is the link`);
    assert.equal(new URL(p.link).origin, srv.origin);
    // the link reproduces the view: it names the view and the settings of the page
    const linkKeys = new URLSearchParams(new URL(p.link).hash.slice(1));
    assert.equal(linkKeys.get('exp'), exp);
    assert.equal(linkKeys.get('dk'), exp === 'saturation' ? '512' : '256');
    assert.equal(p.numbers.length, 3);
    for (const n of p.numbers) {
      assert.equal(n.value, shown[n.id], `${lang}: ${n.id} drawn as the page shows it`);
      assert.ok(n.label.length > 0);
    }
    if (exp === 'saturation') assert.deepEqual(p.numbers.map((n) => n.id), ['sat-entropy', 'sat-maxw', 'sat-share']);
    // Chinese text with Chinese punctuation: "复现：http…" (issue 31)
    const colon = lang === 'zh-CN' ? '：' : ': ';
    assert.ok(p.text.endsWith(`[1] ${lang === 'zh-CN' ? '实时数字，可由此链接复现' : 'Live numbers, reproducible from this link'}${colon}${p.link}\n${lang === 'zh-CN' ? '由 √dk Lab 在浏览器中实时计算（WebAssembly）' : 'Computed live in the browser by √dk Lab (WebAssembly)'}`), p.text);
    for (const n of p.numbers) assert.ok(p.text.includes(`${n.label}${colon}${n.value}`));
    if (process.env.SAVE_POSTERS) writeFileSync(`${docs}poster-${lang}.png`, PNG.sync.write(png));
    await page.click('[data-share-close]');
  }
  // the interview view: the 30-second answer as a poster, its numbers as the answer shows them
  await page.goto(`${srv.url}#v=1&exp=interview&lang=en`);
  await page.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1', null, { timeout: 90000 });
  const iv = await poster(page);
  const { qr } = decode(iv.png);
  assert.equal(qr?.data, iv.link);
  assert.equal(iv.numbers.length, 3);
  for (const n of iv.numbers) {
    const shownIv = await page.evaluate((id) => document.querySelector(`[data-depth="30s"] [data-live="${id}"]`).textContent, n.id);
    assert.equal(n.value, shownIv);
  }
  const points = await page.evaluate(() => [...document.querySelectorAll('[data-depth="30s"] .iv-text')].map((e) => e.textContent.trim()));
  for (const [i, pt] of points.entries()) assert.ok(iv.text.includes(`${i + 1}. ${pt}`), 'the answer text holds every point');
  if (process.env.SAVE_POSTERS) writeFileSync(`${docs}poster-interview-en.png`, PNG.sync.write(decode(iv.png).png));
  await page.close();
  assert.deepEqual([...log.pageErrors, ...log.consoleErrors], []);
});

test('the poster’s numbers are the view’s key figures: at non-default links, each equals the readout the view shows', async () => {
  const page = await context.newPage();
  const cases = [
    ['saturation', 'dk=256&scale=inv_dk&seed=3', ['sat-entropy', 'sat-maxw', 'sat-share']],
    ['article', 'aseed=5', ['art-entropy-none', 'art-entropy-inv_sqrt_dk', 'art-entropy-inv_dk']],
    ['gqa', 'hq=16&hkv=4&gdk=64', ['gqa-mha-kv', 'gqa-mha-entropy', 'gqa-mha-maxw']],
    ['longctx', 'ldk=128', ['lc-fixed', 'lc-logn', 'lc-yarn']],
  ];
  for (const [exp, keys, ids] of cases) {
    await page.goto(`${srv.url}#v=1&exp=${exp}&lang=en&${keys}`);
    await panelSettled(page, exp, 60000);
    const shown = await panelReadouts(page, exp);
    const p = await poster(page);
    assert.deepEqual(p.numbers.map((n) => n.id), ids, `${exp}: the poster's figures`);
    for (const n of p.numbers) {
      assert.equal(n.value, shown[n.id], `${exp}: ${n.id} drawn as the page shows it`);
      assert.ok(n.label.length > 0);
    }
    await page.click('[data-share-close]');
  }
  await page.close();
  assert.deepEqual([...log.pageErrors, ...log.consoleErrors], []);
});

test('the embed dialog’s formats and the share dialog: both languages, axe-core clean, keyboard only, a 390 px phone without sideways scroll', async () => {
  const { createRequire } = await import('node:module');
  const axeSource = createRequire(import.meta.url)('axe-core').source;
  const shots = process.env.SHOTS;
  for (const [vp, lang] of [[{ width: 1366, height: 900 }, 'en'], [{ width: 390, height: 844 }, 'zh-CN']]) {
    const phone = vp.width < 500;
    const ctx = await browser.newContext({ viewport: vp, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.origin });
    const hlog = watch(ctx, srv.origin);
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=1&exp=saturation&dk=128&lang=${lang}`);
    await panelSettled(page, 'saturation', 60000);
    const axe = async (what) => {
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
      // the open modal dialog (the page behind it is checked by views.test.mjs)
      const r = await page.evaluate(() => window.axe.run(document.querySelector('dialog[open]'), { resultTypes: ['violations'] }));
      assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `${lang} ${what}`);
    };
    const noSideways = async (what) => assert.equal(await page.evaluate(() => {
      const d = document.querySelector('dialog[open]');
      return d.scrollWidth <= d.clientWidth + 1 && d.getBoundingClientRect().right <= innerWidth + 1;
    }), true, `${lang} ${what}: no sideways scroll`);

    // the embed dialog, by keyboard: every format reachable with the arrow keys of its radio group
    await page.focus('[data-action="copy-embed"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[data-embed-dialog][open]');
    await page.focus('[data-embed-format="html"]');
    const seen = [];
    for (let i = 0; i < 8; i++) {
      const f = await page.evaluate(() => document.activeElement.dataset.embedFormat);
      seen.push(f);
      const code = await page.inputValue('[data-embed-code]');
      assert.ok(code.length > 20, `${f}: a snippet`);
      const file = await page.evaluate(() => !document.querySelector('[data-embed-file-box]').hidden);
      assert.equal(file, ['hugo', 'jekyll', 'mdx'].includes(f), `${f}: a file to add`);
      if (f === 'hugo' || f === 'element') {
        await axe(`embed dialog, ${f}`);
        await noSideways(`embed dialog, ${f}`);
        if (shots) await page.screenshot({ path: `${shots}/embed-${f}-${lang}-${vp.width}.png` });
      }
      await page.keyboard.press('ArrowRight');
    }
    assert.deepEqual(seen, ['html', 'element', 'hugo', 'jekyll', 'mdx', 'oembed', 'notebook', 'quarto']);
    // Copy as code from the dialog, by keyboard: the view's NumPy script for this link
    await page.focus('[data-embed-copy-code="numpy"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-embed-code-export] [role=status]').textContent !== '', null, { timeout: 15000 });
    const script = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(script, /^#!\/usr\/bin\/env python3\n/, `${lang}: a Python script`);
    assert.match(script, /^LINK = ".*p\/saturation\/#v=1&exp=saturation&dk=128.*"$/m, `${lang}: it carries the view's link`);
    assert.match(script, /^def readouts\(lab\):$/m);
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[data-embed-dialog]', { state: 'detached' });

    // Copy as code on the view, by keyboard: Tab from Copy as NumPy reaches Copy as PyTorch, Enter copies its script
    await page.focus('[data-action="copy-code"][data-code-lang="numpy"]');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.codeLang), 'torch');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => navigator.clipboard.readText().then((s) => s.includes('torch.manual_seed')), null, { timeout: 15000, polling: 200 });
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^import torch$/m, `${lang}: the PyTorch flavour`);

    // the share dialog, by keyboard: Enter opens it, Tab reaches its buttons, Escape closes it and focus returns
    await page.focus('[data-action="share-image"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[data-share-dialog][data-poster-ready="1"]', { timeout: 30000 });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.shareCopy), '');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('dialog[data-share-dialog] [role=status]').textContent !== '');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.inputValue('[data-share-text]'));
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.shareDownload), '', 'Download PNG is reachable');
    await axe('share dialog');
    await noSideways('share dialog');
    if (shots) await page.screenshot({ path: `${shots}/share-${lang}-${vp.width}.png` });
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[data-share-dialog]', { state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.action), 'share-image', 'focus returns to the button');
    assert.deepEqual([...hlog.pageErrors, ...hlog.consoleErrors], []);
    await ctx.close();
  }
});

test('a notebook with the Jupyter cell, executed by jupyter nbconvert, shows the view drawing its chart with the full page\'s readouts', async (tt) => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync, existsSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const has = spawnSync(python, ['-c', 'import nbconvert, ipykernel'], { encoding: 'utf8' });
  if (has.status !== 0) { tt.skip(`no nbconvert/ipykernel: ${has.stderr.trim().split('\n').pop()} (apt-get install python3-nbconvert python3-ipykernel)`); return; }
  const keys = 'dk=128&seed=4&heads=2&seqLen=64';
  // the dialog's notebook cell (embed/formats.ts notebookCell; tests/web/formats.test.ts holds its text)
  const cell = `# √dk Lab: Saturation (run the cell: its output is the live view)\nfrom IPython.display import IFrame\n\nIFrame("${srv.url}#v=1&exp=saturation&lang=en&${keys}&embed=1&show=charts", width="100%", height=900)`;
  const nb = { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [{ cell_type: 'markdown', id: 'md', metadata: {}, source: '# Attention saturates without 1/√d_k' }, { cell_type: 'code', id: 'lab', metadata: {}, execution_count: null, outputs: [], source: cell }] };
  const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-nb-'));
  let html;
  try {
    writeFileSync(join(dir, 'post.ipynb'), JSON.stringify(nb));
    // the basic template: the notebook's cells without the CDN scripts of the full page (the test is offline)
    const r = spawnSync(python, ['-m', 'nbconvert', '--execute', '--to', 'html', '--template', 'basic', join(dir, 'post.ipynb')], { encoding: 'utf8', timeout: 120000 });
    assert.equal(r.status, 0, r.stderr);
    html = readFileSync(join(dir, 'post.html'), 'utf8');
  } finally { rmSync(dir, { recursive: true, force: true }); }
  assert.match(html, /<iframe[^>]*src="[^"]*#v=1&(amp;)?exp=saturation/);
  const host = await hostPage(column(html));
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 1100 } });
  const hlog = watch(ctx, srv.origin);
  const page = await ctx.newPage();
  try {
    await page.goto(host.url);
    const frame = await (await page.locator('iframe').first().elementHandle()).contentFrame();
    await panelSettled(frame, 'saturation', 60000);
    await frame.waitForFunction(() => [...document.querySelectorAll('canvas[data-chart]')].some((c) => Number(c.dataset.renders ?? 0) >= 1), null, { timeout: 30000 });
    const inNotebook = await panelReadouts(frame, 'saturation');
    if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/notebook.png` });
    const full = await ctx.newPage();
    await full.goto(`${srv.url}#v=1&exp=saturation&lang=en&${keys}`);
    await panelSettled(full, 'saturation', 60000);
    const onPage = await panelReadouts(full, 'saturation');
    assert.ok(Object.keys(onPage).length >= 3);
    assert.deepEqual(inNotebook, onPage, 'the notebook\'s view shows the full page\'s readouts');
    console.log(`notebook vs full page: sat-entropy ${inNotebook['sat-entropy']} | ${onPage['sat-entropy']}, sat-maxw ${inNotebook['sat-maxw']} | ${onPage['sat-maxw']}`);
  } finally { await host.close(); }
  assert.deepEqual([...hlog.pageErrors, ...hlog.consoleErrors], []);
  await ctx.close();
});
