// Browser tests of the first screen (issue 18): what a receiver of a link sees before scrolling.
// The phone header's height; the landing's live chart and first point on the first screen on a
// desktop and a phone; a training link that shows curves without a click; embedded charts with a
// readable plot area in a 720 px column; snippets without embed.js that fit their frame at 358,
// 480 and 720 px; Copy link's short link reproducing the readouts; a printed lab within the page;
// the font stacks of Latin and Chinese text.
// Run with `npm run test:e2e` after `npm run build`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite, hostPage } from './browser.mjs';
import { panelSettled, panelReadouts } from './panel.mjs';
import { PANELS as VIEWS } from '../../web/src/state/schema.js';

const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let srv, browser, context, log;
useSuite('/lab/', (s) => ({ srv, browser, context, log } = s));

/** Opens the saturation view in `lang` and waits for its heading. */
async function openSaturation(page, lang) {
  await page.goto(`${srv.url}#v=1&exp=saturation&lang=${lang}`);
  await page.waitForSelector('[data-panel="saturation"] h2');
}

/** The bottom of the page's header (brand, language, the sticky bar) in CSS px. */
const headerBottom = (page) => page.evaluate(() => Math.round(document.querySelector('[data-bar]').getBoundingClientRect().bottom));

test('a phone: the header takes at most 15 % of the first screen in both languages; kernel and engine live in the device panel', async () => {
  const ctx = await browser.newContext(PHONE);
  const page = await ctx.newPage();
  for (const lang of ['en', 'zh-CN']) {
    await openSaturation(page, lang);
    const bottom = await headerBottom(page);
    assert.ok(bottom <= 0.15 * 844, `${lang}: header ${bottom} px of 844`);
    assert.equal(await page.locator('header.top [data-key="kernel"], header.top [data-status]').count(), 0, 'no developer control in the header');
  }
  // the kernel key keeps working in links: the device panel shows it and the engine uses it
  await page.goto(`${srv.url}#v=1&exp=device&kernel=scalar&lang=zh-CN`);
  await page.waitForSelector('[data-panel="device"] [data-key="kernel"] select');
  assert.equal(await page.inputValue('[data-panel="device"] [data-key="kernel"] select'), 'scalar');
  await page.waitForFunction(() => document.documentElement.dataset.engine === 'scalar');
  await page.waitForFunction(() => /标量/.test(document.querySelector('[data-panel="device"] [data-status]')?.textContent ?? ''));
  assert.match(await page.getAttribute('[data-panel="device"] [data-status]', 'title'), /^核心 \d+\.\d+\.\d+ · 构建 .+ · 内核 标量$/);
  await page.selectOption('[data-panel="device"] [data-key="kernel"] select', 'auto');
  // auto is the default: the address (the short form, issue 31) no longer names a kernel
  await page.waitForFunction(() => !location.hash.includes('kernel=') && document.documentElement.dataset.engine === 'simd');
  await ctx.close();
});

test('font stacks: Latin text in the system font (no family before it that a machine may lack: each costs a font lookup per size), CJK families only for Chinese text', async () => {
  const page = await context.newPage();
  const fonts = () => page.evaluate(() => ({
    body: getComputedStyle(document.body).fontFamily,
    // the language picker names 简体中文 in Chinese on every page
    zhOption: getComputedStyle(document.querySelector('option[value="zh-CN"]')).fontFamily,
    zhOptionLang: document.querySelector('option[value="zh-CN"]').lang,
  }));
  // Chinese: a face used only for "·" and "√" (unicode-range: the Latin glyphs of English text), then the system font and the CJK families
  const CJK = /^"?sqrtdk-latin-signs"?, system-ui, .*"PingFang SC".*"Noto Sans CJK SC", sans-serif$/;
  await openSaturation(page, 'en');
  const en = await fonts();
  assert.equal(en.body, 'system-ui, sans-serif');
  assert.equal(en.zhOptionLang, 'zh-CN');
  assert.match(en.zhOption, CJK);
  await openSaturation(page, 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');  // a hash change: the page is built again in Chinese
  const zh = await fonts();
  assert.match(zh.body, CJK);
  await page.close();
});

test(`desktop 1366 px: the ${VIEWS.length} tabs (one per view) take at most two rows in both languages, short labels with the full title in their tooltip, in reading order`, async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  for (const lang of ['en', 'zh-CN']) {
    await openSaturation(page, lang);
    const m = await page.evaluate(() => {
      const tabs = [...document.querySelectorAll('[data-bar] [data-nav]')];
      return {
        rows: new Set(tabs.map((a) => Math.round(a.getBoundingClientRect().top))).size,
        visible: tabs.filter((a) => a.offsetParent !== null).length,
        n: tabs.length,
        labels: tabs.map((a) => [a.textContent, a.title]),
        bar: Math.round(document.querySelector('[data-bar]').getBoundingClientRect().bottom),
      };
    });
    assert.equal(m.n, VIEWS.length);
    assert.equal(m.visible, VIEWS.length, `${lang}: every tab shown`);
    assert.ok(m.rows <= 2, `${lang}: ${m.rows} rows of tabs`);
    for (const [label, title] of m.labels) {
      // the label is the title's number and a short form of it; the tooltip names the view in full
      assert.equal(label.split(' ')[0].replace(/\D/g, ''), title.split(' ')[0].replace(/\D/g, ''), `${label} / ${title}`);
      assert.ok(title.length >= label.length, `${label} / ${title}`);
    }
    console.log(`${lang} 1366 px: tabs in ${m.rows} rows, header bottom ${m.bar} px`);
  }
  // the keyboard reaches every tab in order, after the language choice
  await page.focus('header.top [data-key="lang"] select');
  const order = [];
  for (let i = 0; i < VIEWS.length; i++) { await page.keyboard.press('Tab'); order.push(await page.evaluate(() => document.activeElement?.dataset.nav ?? document.activeElement?.tagName)); }
  assert.deepEqual(order, await page.$$eval('[data-nav]', (as) => as.map((a) => a.dataset.nav)));
  await ctx.close();
});

test('the landing: the live entropy chart and the first point of the answer on the first screen, desktop and phone', async () => {
  for (const [device, opts] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const ctx = await browser.newContext(opts);
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-chart-box="interview-entropy"]');
      return box && !box.classList.contains('pending') && !box.classList.contains('refining') && Number(box.querySelector('canvas').dataset.renders ?? 0) > 0
        && document.querySelector('[data-panel="interview"]').dataset.liveDone === '1';
    }, null, { timeout: 60000 });
    const m = await page.evaluate(() => {
      const r = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return [Math.round(b.top), Math.round(b.bottom)]; };
      return { h: innerHeight, bar: Math.round(document.querySelector('[data-bar]').getBoundingClientRect().bottom), canvas: r('canvas[data-chart="interview-entropy"]'), p1: r('[data-item="30s-p1"]'), answer: r('[data-depth="30s"]'), scroll: scrollY };
    });
    assert.equal(m.scroll, 0);
    assert.ok(m.canvas[0] >= m.bar && m.canvas[1] <= m.h, `${device}: chart ${JSON.stringify(m)}`);
    assert.ok(m.p1[1] <= m.h, `${device}: the first point ${JSON.stringify(m)}`);
    if (device === 'desktop') assert.ok(m.answer[1] <= m.h, `desktop: the whole 30-second answer ${JSON.stringify(m)}`);
    // the chart carries the lesson: three scales and the ln L ceiling, in a sentence for screen readers in the UI's words
    const summary = await page.textContent('[data-chart-summary="interview-entropy"]');
    for (const w of ['no scaling', '÷√d_k', '÷d_k', 'ln L', 'entropy (nats)']) assert.ok(summary.includes(w), `${w} in ${summary}`);
    assert.doesNotMatch(summary, /mean_entropy_nats|inv_sqrt_dk/);
    // the longer answers are sections one opens
    assert.equal(await page.locator('details[data-more="2min"]:not([open])').count(), 1);
    await ctx.close();
  }
});

test('a training link with the default configuration shows its curves growing without a click, Cancel beside them', async () => {
  const ctx = await browser.newContext(PHONE);
  const page = await ctx.newPage();
  const t0 = Date.now();
  await page.goto(`${srv.url}#v=1&exp=training`);
  await page.waitForFunction(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0) > 0
    && Number(document.querySelector('canvas[data-chart="training-loss"]').dataset.renders ?? 0) > 0, null, { timeout: 30000 });
  console.log(`training link: first curve points ${Date.now() - t0} ms after navigation (phone, loaded machine)`);
  const first = await page.evaluate(() => Number(document.querySelector('[data-chart-box="training-loss"]').dataset.points));
  await page.waitForFunction((n) => Number(document.querySelector('[data-chart-box="training-loss"]').dataset.points) > n, first);
  const m = await page.evaluate(() => {
    const c = document.querySelector('canvas[data-chart="training-loss"]').getBoundingClientRect();
    const cancel = document.querySelector('[data-action="train-cancel"]');
    return { h: innerHeight, canvasTop: c.top, canvasBottom: c.bottom, cancelBottom: cancel.getBoundingClientRect().bottom, cancelEnabled: !cancel.disabled, advancedOpen: document.querySelector('[data-train-advanced]').open };
  });
  assert.ok(m.canvasTop < m.h - 120 && m.cancelBottom <= m.h, `curves and Cancel on the first screen: ${JSON.stringify(m)}`);
  assert.equal(m.cancelEnabled, true);
  assert.equal(m.advancedOpen, false, 'the settings wait behind their disclosure');
  await page.click('[data-action="train-cancel"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'cancelled');
  // trauto=0: the link waits for Run
  const p2 = await ctx.newPage();
  await p2.goto(`${srv.url}#v=1&exp=training&trauto=0&trsteps=5`);
  await p2.waitForSelector('[data-action="train-run"]:not([disabled])');
  await p2.waitForTimeout(300);
  assert.equal(await p2.getAttribute('[data-panel="training"]', 'data-training'), 'idle', 'not started');
  // meanwhile the charts' empty axes hold the plan: the runs, and the core's cost model's time
  // (6 variants × 5 steps × its seconds per step; the cost model's figure, not a measurement)
  const plan = await p2.waitForFunction(() => {
    const e = document.querySelector('[data-chart-box="training-loss"][data-overlay] [data-train-estimate]');
    return e && e.dataset.seconds ? { seconds: Number(e.dataset.seconds), text: e.textContent, plan: document.querySelector('[data-train-plan]').textContent } : null;
  }).then((h) => h.jsonValue());
  assert.match(plan.plan, /^6 runs × 5 steps: task copy, T = 16, 2 layers, d_model = 64, 4 heads \(d_k = 16\)/);
  assert.ok(plan.seconds > 0 && plan.seconds < 5, JSON.stringify(plan));
  assert.match(plan.text, /cost model/);
  assert.equal(await p2.locator('[data-panel="training"] [data-readout^="train-final-"]').count(), 6, 'the table has its rows');
  // the plan's Run starts the run; the curves replace the plan
  await p2.click('[data-action="train-run-plan"]');
  await p2.waitForFunction(() => document.querySelector('[data-panel="training"]').dataset.training === 'done');
  assert.equal(await p2.locator('[data-chart-box][data-overlay]').count(), 0);
  await ctx.close();
});

test('embedded in a 720 px column every chart has a plot area of at least 180 px; the √d_k / ln L gap is labelled', async () => {
  const ctx = await browser.newContext({ viewport: { width: 720, height: 900 } });
  const page = await ctx.newPage();
  const plots = {};
  for (const p of ['variance', 'saturation', 'gradient', 'article', 'precision', 'longctx', 'gqa']) {
    await page.goto(`${srv.url}#v=1&embed=1&exp=${p}&show=charts`);
    await panelSettled(page, p, 60000);
    for (const id of await page.$$eval('canvas[data-chart]', (cs) => cs.filter((c) => c.offsetParent).map((c) => c.dataset.chart))) {
      await page.locator(`canvas[data-chart="${id}"]`).scrollIntoViewIfNeeded();
      await page.waitForFunction((id) => Number(document.querySelector(`canvas[data-chart="${id}"]`)?.dataset.plotH ?? 0) > 0, id);
      plots[id] = Number(await page.getAttribute(`canvas[data-chart="${id}"]`, 'data-plot-h'));
    }
  }
  console.log('plot heights at 720 px:', JSON.stringify(plots));
  assert.ok(Object.keys(plots).length >= 15);
  for (const [id, hgt] of Object.entries(plots)) assert.ok(hgt >= 180, `${id}: plot area ${hgt} px`);
  await ctx.close();
});

test('without embed.js the snippet fits its frame at 358, 480 and 720 px: no inner scrollbar, at most 15 % blank', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const snippets = [];
  // the training lab waiting for Run (trauto=0) and the device view before its benchmark: their
  // empty axes, rows and plan fill the frame sized for their results
  const WAITS = new Set(['training', 'device']);
  for (const [p, parts, extra = ''] of [['saturation', ['charts']], ['article', null], ['gqa', ['charts']], ['longctx', null],
    ['training', null, '&trauto=0'], ['device', null], ['device', ['charts']]]) {
    await page.goto(`${srv.url}#v=1&exp=${p}${extra}`);
    await page.waitForSelector(`[data-panel="${p}"]`);
    await page.click('[data-action="copy-embed"]');
    for (const box of parts ? await page.$$('[data-embed-part]') : []) {
      const part = await box.getAttribute('data-embed-part');
      if (parts.includes(part) !== await box.isChecked()) await box.click();
    }
    snippets.push([p, (await page.inputValue('[data-embed-code]')).replace(/<script[^>]*><\/script>/, '')]);
    await page.click('[data-embed-close]');
  }
  await page.close();
  const host = await hostPage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
    <style>body{margin:0;font:16px serif}main{width:720px;margin:0 auto}</style></head><body><main><h1>A post</h1>${snippets.map(([p, s]) => `<h2>${p}</h2>${s}`).join('\n')}</main></body></html>`);
  const out = {};
  try {
    const blog = await ctx.newPage();
    await blog.goto(host.url);
    for (const [i, [p]] of snippets.entries()) {
      const el = blog.locator('iframe[data-sqrtdk-embed]').nth(i);
      await el.scrollIntoViewIfNeeded();
      const frame = await (await el.elementHandle()).contentFrame();
      if (WAITS.has(p)) {
        await frame.waitForSelector(`[data-panel="${p}"] [data-chart-box][data-overlay] .train-plan-card button`);
        assert.equal(await frame.getAttribute(`[data-panel="${p}"]`, `data-${p}`), 'idle', `${p}: nothing ran`);
      } else await panelSettled(frame, p, 60000);
      for (const w of [720, 480, 358]) {
        await blog.evaluate((w) => { document.querySelector('main').style.width = `${w}px`; }, w);
        // the frames above grew: bring this one back into view (an off-screen frame does not lay out its charts)
        await el.scrollIntoViewIfNeeded();
        await blog.waitForTimeout(300);
        const m = await frame.evaluate(() => ({ content: Math.ceil(document.documentElement.getBoundingClientRect().height), scroll: document.documentElement.scrollHeight, inner: innerHeight, width: innerWidth }));
        (out[`${p}${i}`] ??= {})[w] = m;
        assert.equal(m.width, w);
        assert.ok(m.scroll <= m.inner, `${p} at ${w} px: content ${m.scroll} px in a ${m.inner} px frame`);
        assert.ok(m.inner - m.content <= 0.15 * m.inner, `${p} at ${w} px: ${m.inner - m.content} px blank of ${m.inner}`);
      }
      await blog.evaluate(() => { document.querySelector('main').style.width = '720px'; });
    }
    await blog.close();
  } finally {
    await host.close();
  }
  console.log('fallback fit (content / frame):', JSON.stringify(Object.fromEntries(Object.entries(out).map(([p, v]) => [p, Object.fromEntries(Object.entries(v).map(([w, m]) => [w, `${m.content}/${m.inner}`]))]))));
  await ctx.close();
});

test('Copy link gives a short link (no other view’s keys, no lang unless chosen) that reproduces the readouts', async () => {
  const page = await context.newPage();
  await page.goto(`${srv.url}#v=1&exp=saturation&dk=256&seed=9&aseed=4&trsteps=40&lang=en`);
  await panelSettled(page, 'saturation');
  const want = await panelReadouts(page, 'saturation');
  await page.click('[data-action="copy-link"]');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const hash = link.slice(link.indexOf('#') + 1);
  assert.deepEqual(hash.split('&').map((kv) => kv.split('=')[0]), ['v', 'exp', 'dk', 'seed', 'cv'], link);
  assert.ok(link.length < 90, `${link.length} characters`);
  // the address bar carries the same short form (issue 31; Back and Forward keep the full state)
  assert.equal(await page.evaluate(() => location.hash), link.slice(link.indexOf('#')), 'the address bar is Copy link\'s hash');
  const p2 = await context.newPage();
  await p2.goto(link);
  await panelSettled(p2, 'saturation');
  assert.deepEqual(await panelReadouts(p2, 'saturation'), want);
  // a language chosen by hand is carried
  await p2.selectOption('header.top [data-key="lang"] select', 'zh-CN');
  await p2.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await p2.click('[data-action="copy-link"]');
  assert.match(await p2.evaluate(() => navigator.clipboard.readText()), /#v=1&exp=saturation&lang=zh-CN&dk=256&seed=9&cv=/);
  await p2.close();
  await page.close();
});

test('an old-style link (./#v=1&exp=precision&lang=zh-CN) on a throttled 3G phone: its first paint is the precision view in Chinese, never the landing’s picture; the root without exp stays', async () => {
  const ctx = await browser.newContext({ ...PHONE, locale: 'en-US' });
  const page = await ctx.newPage();
  // what each document of the tab shows at its first contentful paint (the app mounts seconds later on this phone)
  const paints = [];
  await page.exposeBinding('__sqrtdkPaint', (_s, v) => paints.push(v));
  await page.addInitScript(() => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name !== 'first-contentful-paint') continue;
        const fp = document.querySelector('[data-first-paint]');
        window.__sqrtdkPaint({ path: location.pathname, hash: location.hash, lang: document.documentElement.lang, exp: fp?.dataset.firstPaint ?? null,
          heading: fp?.querySelector('h1, h2')?.textContent ?? null, shown: fp ? fp.getBoundingClientRect().height > 0 : false, at: Math.round(e.startTime) });
      }
    }).observe({ type: 'paint', buffered: true });
  });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  // DevTools' "Fast 3G" and a 4× slower CPU
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 562.5, downloadThroughput: 180000, uploadThroughput: 84375 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const link = '#v=1&exp=precision&lang=zh-CN&dk=256';
  await page.goto(`${srv.url}${link}`, { waitUntil: 'commit' });
  for (let t = Date.now(); paints.length === 0 && Date.now() - t < 15000;) await new Promise((r) => setTimeout(r, 50));
  const first = paints[0];
  assert.ok(first, 'a first paint within 15 s');
  // the root page never painted: the first paint of the tab is the share page's, in Chinese, the link's hash kept
  assert.deepEqual({ path: first.path, hash: first.hash, lang: first.lang, exp: first.exp, shown: first.shown },
    { path: '/lab/zh-CN/p/precision/', hash: link, lang: 'zh-CN', exp: 'precision', shown: true }, JSON.stringify(paints));
  assert.match(first.heading, /[\u4e00-\u9fff]/, first.heading);
  // no history entry added (the new tab's about:blank, then the link, replaced): Back leaves the link as before
  assert.equal(await page.evaluate(() => history.length), 2);
  // then the live view, in Chinese
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.waitForSelector('[data-panel="precision"] h2');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  // the root page without exp (or with the landing in English) stays the root
  for (const h of ['#v=1&lang=zh-CN&dk=256', '#v=1&exp=interview']) {
    await page.goto(`${srv.url}${h}`);
    await page.waitForSelector('[data-panel="interview"]');
    assert.equal(await page.evaluate(() => location.pathname), '/lab/', h);
  }
  await ctx.close();
});

test('printing a lab view: every chart within the page width', async () => {
  const page = await context.newPage();
  await page.goto(`${srv.url}#v=1&exp=longctx`);
  await panelSettled(page, 'longctx');
  await page.emulateMedia({ media: 'print' });
  // the layout of an A4 page (190 mm of 96 dpi CSS px), read before any chart could resize itself:
  // a printed page does not re-run the charts' layout, so their canvases must fit by CSS alone
  const m = await page.evaluate(() => {
    document.documentElement.style.width = '718px';
    const rights = [...document.querySelectorAll('canvas[data-chart]')].filter((c) => c.offsetParent).map((c) => Math.round(c.getBoundingClientRect().right));
    const width = document.documentElement.getBoundingClientRect().width;
    document.documentElement.style.width = '';
    return { rights, width };
  });
  await page.emulateMedia({ media: 'screen' });
  assert.ok(m.rights.length >= 3);
  for (const r of m.rights) assert.ok(r <= m.width, `a chart ends at ${r} px on a ${m.width} px page`);
  await page.close();
  assert.deepEqual({ pageErrors: log.pageErrors, consoleErrors: log.consoleErrors, foreign: log.foreign }, { pageErrors: [], consoleErrors: [], foreign: [] });
});
