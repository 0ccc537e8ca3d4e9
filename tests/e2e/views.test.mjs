// Browser tests of the one-panel views as readers reach them: deep links and tabs on a desktop and
// a phone, Back / Forward, the language switch, embeds in a cross-origin blog column, narrow
// screens, keyboard only, and axe-core in both languages and both colour schemes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { useSuite, watch, moveSlider, openPanel, hostPage, settled } from './browser.mjs';
import { panelSettled, CHARTLESS, FIRST, settle, allDrawn, inFirstScreen } from './panel.mjs';

const axeSource = createRequire(import.meta.url)('axe-core').source;
const PANELS = ['variance', 'saturation', 'gradient', 'article', 'followups', 'precision', 'longctx', 'gqa', 'tensors', 'training', 'device', 'mup', 'wild', 'sumone'];
/** Keys a layout check adds to a panel's link: the wild view at its shortest L (its default 4096 costs 28 calls of ~1 s; L is tested on its own below) */
const LIGHT = { wild: '&wlen=256' };
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let srv, browser, log;
useSuite('/blog/lab/', (s) => ({ srv, browser, log } = s));

for (const [device, opts] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${device}: every exp= deep link opens that panel alone, heading and first chart in the first screen, charts drawn`, async () => {
    for (const p of PANELS) {
      const ctx = await browser.newContext(opts);
      const page = await ctx.newPage();
      await page.goto(`${srv.url}#v=1&exp=${p}${LIGHT[p] ?? ''}`);
      await settle(page, p);
      assert.deepEqual(await page.$$eval('[data-panel]', (els) => els.map((e) => e.dataset.panel)), [p]);
      const where = await inFirstScreen(page, p);
      assert.ok(where.ok, `${device} ${p}: ${JSON.stringify(where)}`);
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'nothing had to scroll');
      // the first chart (when it is a chart, not a table) is drawn without any scrolling
      if (!CHARTLESS.has(p)) assert.ok(await page.$eval(`[data-panel="${p}"]`, (root, FIRST) => { const f = root.querySelector(FIRST); return f.tagName !== 'CANVAS' || Number(f.dataset.renders ?? 0) >= 1; }, FIRST), `${p}: the first chart is drawn`);
      await allDrawn(page, p);
      assert.match(await page.title(), new RegExp(`— √dk Lab$`));
      await ctx.close();
    }
  });

  test(`${device}: the tabs (a menu on the phone) switch the view from anywhere on the page, and the bar stays in view`, async () => {
    const ctx = await browser.newContext(opts);
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=1&exp=variance`);
    await settle(page, 'variance');
    for (const p of ['gqa', 'saturation', 'tensors', 'precision']) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const bar = await page.$eval('[data-bar]', (b) => b.getBoundingClientRect().top);
      assert.ok(bar >= -1 && bar < 2, `the bar is stuck to the top while reading (${bar})`);
      if (device === 'desktop') {
        await page.click(`[data-nav="${p}"]`);
        assert.equal(await page.getAttribute(`[data-nav="${p}"]`, 'aria-current'), 'page');
      } else {
        assert.equal(await page.isVisible('[data-nav-menu]'), true);
        await page.selectOption('[data-nav-menu]', p);
      }
      await settle(page, p);
      const where = await inFirstScreen(page, p);
      assert.ok(where.ok, `${device} tab → ${p}: ${JSON.stringify(where)}`);
      await page.waitForFunction((p) => location.hash.startsWith(`#v=1&exp=${p}&`), p);
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H2', 'focus moves to the new panel heading');
    }
    // the pager at the end of the view keeps the order of the story: precision → long context
    await page.click('[data-pager="next"]');
    await settle(page, 'longctx');
    await page.click('[data-pager="prev"]');
    await settle(page, 'precision');
    await ctx.close();
  });
}

test('Back and Forward step through three panels and restore each one’s state; moving a control adds no entry', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=variance`);
  await settle(page, 'variance');
  const length0 = await page.evaluate(() => history.length);
  for (const i of [8, 9, 10]) await moveSlider(page, 'variance', 'dk', i);   // … d_k 1024
  await page.waitForFunction(() => location.hash.includes('dk=1024'));
  await openPanel(page, 'saturation');
  for (const i of [5, 6]) await moveSlider(page, 'saturation', 'heads', i);
  await page.waitForFunction(() => location.hash.includes('heads=6'));
  await openPanel(page, 'gqa');
  await page.selectOption('[data-panel="gqa"] [data-key="hq"] select', '12');
  await page.waitForFunction(() => location.hash.includes('hq=12'));
  assert.equal(await page.evaluate(() => history.length), length0 + 2, 'one entry per panel, none per control change');

  const shows = async (panel, key, value) => {
    await page.waitForSelector(`[data-panel="${panel}"]`);
    await page.waitForFunction(([p, k, v]) => document.querySelector(`[data-panel="${p}"] [data-key="${k}"] output, [data-panel="${p}"] [data-key="${k}"] select`)?.value === v
      || document.querySelector(`[data-panel="${p}"] [data-key="${k}"] output`)?.textContent === v, [panel, key, value]);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`^#v=1&exp=${panel}&.*${key === 'hq' ? 'hq' : key}=${value}`));
  };
  await page.goBack();
  await shows('saturation', 'heads', '6');
  await page.goBack();
  await shows('variance', 'dk', '1024');
  await settle(page, 'variance');
  assert.match(await page.textContent('[data-chart-box="variance-hist-raw"] .chart-title'), /d_k = 1024/);
  await page.goForward();
  await shows('saturation', 'heads', '6');
  await page.goForward();
  await shows('gqa', 'hq', '12');
  assert.deepEqual(await page.$$eval('[data-panel]', (els) => els.map((e) => e.dataset.panel)), ['gqa']);
  await ctx.close();
});

test('the language switch keeps the view, the reader’s place and the focus', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=gqa&lang=en`);
  await settle(page, 'gqa');
  const headBefore = await page.$eval('[data-panel="gqa"] h2', (h) => h.getBoundingClientRect().top);
  await page.focus('header [data-key="lang"] select');
  await page.keyboard.press('ArrowDown');  // English → 简体中文, as a keyboard user changes it
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await settle(page, 'gqa');
  assert.deepEqual(await page.$$eval('[data-panel]', (els) => els.map((e) => e.dataset.panel)), ['gqa']);
  assert.equal(await page.evaluate(() => document.activeElement?.closest('[data-key]')?.dataset.key), 'lang', 'focus stays on the language control');
  const headAfter = await page.$eval('[data-panel="gqa"] h2', (h) => h.getBoundingClientRect().top);
  // the header's text is shorter in Chinese, so the panel may move up by that much, no more
  assert.ok(Math.abs(headAfter - headBefore) <= 80, `the panel stays where it was (${headBefore} → ${headAfter} px)`);
  await page.waitForFunction(() => /^#v=1&exp=gqa&lang=zh-CN&/.test(location.hash));  // the URL follows after its debounce
  assert.match(await page.title(), /GQA/);
  await ctx.close();
});

test('embed dialog: parts, colours, a live preview, and a snippet with only the panel’s keys', async () => {
  const ctx = await browser.newContext(DESKTOP);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.origin });
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=saturation&dk=256&seed=9`);
  await settle(page, 'saturation');
  await page.click('[data-action="copy-embed"]');
  await page.waitForSelector('dialog[data-embed-dialog][open]');
  await page.uncheck('[data-embed-part="controls"]');
  await page.uncheck('[data-embed-part="formula"]');
  await page.check('[data-embed-theme="dark"]');
  const code = await page.inputValue('[data-embed-code]');
  const src = /src="([^"]+)"/.exec(code)[1].replace(/&amp;/g, '&');
  const hash = src.slice(src.indexOf('#') + 1);
  const keys = hash.split('&').map((kv) => kv.split('=')[0]);
  // saturation reads dk, seed, heads, seqLen, scale, causal, softcap, sscale, sink, salibi; plus exp, embed, show, theme, its language and the core version
  assert.deepEqual(keys.sort(), ['causal', 'cv', 'dk', 'embed', 'exp', 'heads', 'lang', 'salibi', 'scale', 'seed', 'seqLen', 'show', 'sink', 'softcap', 'sscale', 'theme', 'v'].sort());
  assert.match(hash, /dk=256/);
  assert.match(hash, /seed=9/);
  assert.match(hash, /show=charts,text/);
  assert.match(hash, /theme=dark/);
  assert.match(code, /height="\d+"/);
  assert.match(code, /<script src="[^"]*\/blog\/lab\/embed\.js" async><\/script>/);
  // the preview shows exactly that embed
  const frame = page.frameLocator('[data-embed-preview]');
  await frame.locator('[data-panel="saturation"]').waitFor();
  await page.waitForFunction(() => /theme=dark/.test(document.querySelector('[data-embed-preview]').src));
  assert.equal(await frame.locator('[data-part="controls"]').first().isVisible(), false);
  assert.equal(await frame.locator('html').getAttribute('data-theme'), 'dark');
  await page.click('[data-embed-copy]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog[data-embed-dialog]', { state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.action), 'copy-embed', 'focus returns to the button');
  await ctx.close();
});

test('the embed of every panel in a cross-origin 720 px column: sized by the embed script, no inner scrollbar; the plain iframe fits its fixed height', async () => {
  // the snippets exactly as the dialog gives them
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  // trauto=0: the training embed waits for Run (its sizing is what is tested here, not a run)
  await page.goto(`${srv.url}#v=1&exp=variance&trauto=0${LIGHT.wild}`);
  const snippets = {};
  for (const p of PANELS) {
    if (p !== 'variance') await page.click(`[data-nav="${p}"]`);
    await page.waitForSelector(`[data-panel="${p}"]`);
    await page.click('[data-action="copy-embed"]');
    snippets[p] = await page.inputValue('[data-embed-code]');
    await page.click('[data-embed-close]');
  }
  await page.close();
  const column = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
    <style>body{margin:0;font:16px serif}main{width:720px;margin:0 auto}</style></head><body><main><h1>A post</h1>${body}</main></body></html>`;
  const withScript = await hostPage(column(PANELS.map((p) => `<h2>${p}</h2>${snippets[p]}`).join('\n')));
  const plain = await hostPage(column(PANELS.map((p) => `<h2>${p}</h2>${snippets[p].replace(/<script[^>]*><\/script>/, '')}`).join('\n')));
  const hlog = watch(ctx, srv.origin);
  const heights = {};
  try {
    for (const [name, host] of [['script', withScript], ['plain', plain]]) {
      const blog = await ctx.newPage();
      await blog.goto(host.url);
      for (const [i, p] of PANELS.entries()) {
        const el = blog.locator('iframe[data-sqrtdk-embed]').nth(i);
        await el.scrollIntoViewIfNeeded();
        const frame = await (await el.elementHandle()).contentFrame();
        await frame.waitForSelector(`[data-panel="${p}"] h2`);
        if (!CHARTLESS.has(p)) await panelSettled(frame, p, 60000);
        if (name === 'script') {
          await blog.waitForFunction((i) => document.querySelectorAll('iframe[data-sqrtdk-embed]')[i].hasAttribute('data-sqrtdk-sized'), i);
          await frame.waitForTimeout(200);
        }
        const m = await frame.evaluate(() => ({ content: document.documentElement.scrollHeight, inner: innerHeight, overflowX: document.documentElement.scrollWidth > innerWidth }));
        // a chart being laid out may overflow for a frame: the settled layout must not (3 s to settle)
        if (m.overflowX) m.overflowX = !(await frame.waitForFunction(() => document.documentElement.scrollWidth <= innerWidth, null, { timeout: 3000 }).then(() => true, () => false));
        assert.ok(m.content <= m.inner, `${name} ${p}: content ${m.content} px in a ${m.inner} px frame`);
        assert.equal(m.overflowX, false, `${name} ${p}: no horizontal scrollbar`);
        (heights[p] ??= {})[name] = [m.content, m.inner];
        // without the script the frame fits a narrower column too (the snippet's height is a function of its width)
        if (name === 'plain') {
          for (const w of [480, 358]) {
            await blog.evaluate((w) => { document.querySelector('main').style.width = `${w}px`; }, w);
            // the frames above grew: bring this one back into view (an off-screen frame does not lay out its charts)
            await el.scrollIntoViewIfNeeded();
            await blog.waitForTimeout(300);
            const n = await frame.evaluate(() => ({ content: document.documentElement.scrollHeight, inner: innerHeight }));
            assert.ok(n.content <= n.inner, `plain ${p} at ${w} px: content ${n.content} px in a ${n.inner} px frame`);
            heights[p][w] = [n.content, n.inner];
          }
          await blog.evaluate(() => { document.querySelector('main').style.width = '720px'; });
        }
      }
      await blog.close();
    }
  } finally {
    await withScript.close();
    await plain.close();
  }
  console.log('embed heights (content, frame) at 720 px:', JSON.stringify(heights));
  assert.deepEqual([...hlog.pageErrors, ...hlog.consoleErrors], []);
  await ctx.close();
});

test('embedded text never asks the reader to move a control that is hidden', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&embed=1&exp=gradient&dk=16&show=charts,text`);
  await settle(page, 'gradient');
  const text = await page.textContent('[data-panel="gradient"]');
  assert.match(text, /has not collapsed yet/);
  assert.doesNotMatch(text, /move d_k/);
  await page.goto(`${srv.url}#v=1&embed=1&exp=gradient&dk=16`);
  await settle(page, 'gradient');
  assert.match(await page.textContent('[data-panel="gradient"]'), /move d_k up/);
  // the training lab without its controls: Run stands with the charts, and the text never asks
  // to change a setting it hides (trauto=0: the link waits for Run)
  await page.goto(`${srv.url}#v=1&embed=1&exp=training&show=charts,text&trauto=0`);
  await page.waitForSelector('[data-panel="training"] .train-placeholder');
  const visible = await page.evaluate(() => [...document.querySelectorAll('[data-panel="training"] *')].filter((e) => e.offsetParent !== null && e.children.length === 0).map((e) => e.textContent).join(' '));
  assert.equal(await page.isVisible('[data-action="train-run"]'), true);
  assert.match(visible, /press Run/i);
  assert.doesNotMatch(visible, /All settings/);
  await ctx.close();
});

for (const lang of ['en', 'zh-CN']) {
  test(`no horizontal scroll at 360 px on any panel (${lang}); tables scroll inside a labelled box`, async () => {
    const ctx = await browser.newContext({ ...PHONE, viewport: { width: 360, height: 740 } });
    const page = await ctx.newPage();
    // trauto=0: a layout check of every view; the training link's own run is tested in first-screen.test.mjs
    await page.goto(`${srv.url}#v=1&exp=variance&lang=${lang}&trauto=0`);
    for (const p of PANELS) {
      if (p !== 'variance') await page.selectOption('[data-nav-menu]', p);
      await settle(page, p);
      const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
      assert.ok(m.sw <= m.cw, `${p}: page ${m.sw} px wide in a ${m.cw} px screen`);
      for (const wrap of await page.$$('[data-panel] .table-wrap')) {
        assert.equal(await wrap.getAttribute('role'), 'region');
        assert.ok((await wrap.getAttribute('aria-label'))?.length > 0, `${p}: the table box has a label`);
        assert.equal(await wrap.getAttribute('tabindex'), '0');
      }
      // every control a finger can reach is at least 44 × 44 px (WCAG 2.5.5)
      const small = await page.$$eval('[data-panel] :is(button, select, input:not([type=file]), a[href], summary), [data-bar] :is(button, select)', (els) => els
        .filter((e) => e.offsetParent !== null && !e.closest('.katex'))
        .map((e) => { const r = e.getBoundingClientRect(); const box = e.type === 'checkbox' || e.type === 'radio' ? e.closest('label')?.getBoundingClientRect() ?? r : r; return [e.outerHTML.slice(0, 60), Math.round(box.width), Math.round(box.height)]; })
        .filter(([, w, h]) => w < 44 || h < 44));
      assert.deepEqual(small, [], `${p}: touch targets under 44 px`);
    }
    await ctx.close();
  });
}

test('keyboard only: from load, the first control of every panel is reached and changed in at most 10 Tab presses', async () => {
  const ctx = await browser.newContext(DESKTOP);
  for (const p of PANELS) {
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=1&exp=${p}`);
    await page.waitForSelector(`[data-panel="${p}"] h2`);
    const firstControl = await page.evaluate((p) => {
      const el = document.querySelector(`[data-panel="${p}"] [data-part="controls"] :is(input, select, button), [data-panel="${p}"] .presets-list a`);
      el.dataset.first = '1';
      return el.tagName + (el.type ? ':' + el.type : '');
    }, p);
    let presses = 0;
    for (; presses < 10; presses++) {
      if (await page.evaluate(() => document.activeElement?.dataset.first === '1')) break;
      await page.keyboard.press('Tab');
      if (presses === 0) {
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.skip), '', 'the first Tab reaches the skip link');
        assert.equal(await page.isVisible('[data-skip]'), true, 'the skip link shows when focused');
        await page.keyboard.press('Enter');
      }
    }
    assert.ok(await page.evaluate(() => document.activeElement?.dataset.first === '1'), `${p}: the first control (${firstControl}) is reached in ${presses} Tab presses`);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', `${p}: focus is visible`);
    const before = await page.evaluate(() => location.hash);
    const drawnBefore = await page.evaluate(() => [...document.querySelectorAll('canvas[data-chart]')].reduce((a, c) => a + Number(c.dataset.renders ?? 0), 0));
    // a slider at its top (the wild view's L defaults to its largest, 4096) moves down
    if (firstControl === 'INPUT:range') await page.keyboard.press(await page.evaluate(() => document.activeElement.value === document.activeElement.max) ? 'ArrowLeft' : 'ArrowRight');
    else if (firstControl.startsWith('SELECT')) await page.keyboard.press('ArrowDown');
    else if (firstControl === 'INPUT:number' || firstControl === 'INPUT:text') { await page.keyboard.press('Control+A'); await page.keyboard.type('3'); await page.keyboard.press('Enter'); }
    else await page.keyboard.press('Enter');
    // a changed control changes the link, or (a button that reloads what is shown) redraws the charts
    await page.waitForFunction(([b, n, isButton]) => location.hash !== b
      || (isButton && [...document.querySelectorAll('canvas[data-chart]')].reduce((a, c) => a + Number(c.dataset.renders ?? 0), 0) > n), [before, drawnBefore, firstControl === 'BUTTON:button'], { timeout: 10000 }).catch((e) => { throw new Error(`${p}: ${firstControl} changed neither the link nor a chart: ${e.message}`); });
    await page.close();
  }
  await ctx.close();
});

// The accessible value of a slider is its aria-valuetext (ARIA 1.2, § aria-valuetext; the pattern
// of native range inputs in MUI and others). Chromium's CDP accessibility dump and Playwright's
// ariaSnapshot report the range's raw value (the step index) whatever aria-valuetext says, even for
// role=slider, so the test reads the attribute that assistive technology is given.
test('a slider’s accessible value is its visible value, before and after a keyboard move, on every panel', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=variance&dk=4096&seqLen=64`);
  let sliders = 0;
  for (const p of PANELS) {
    if (p !== 'variance') await openPanel(page, p);
    else await settle(page, p);
    for (const input of await page.$$(`[data-panel="${p}"] input[type=range]`)) {
      if (!(await input.isVisible())) continue;
      const pair = () => input.evaluate((el) => [el.getAttribute('aria-valuetext'), el.closest('.control').querySelector('output').textContent]);
      const [text0, shown0] = await pair();
      assert.equal(text0, shown0, `${p}: aria-valuetext ${text0} vs shown ${shown0}`);
      await input.focus();
      const atMin = await input.evaluate((el) => Number(el.value) <= Number(el.min));
      await input.evaluate((el) => { el.dataset.before = el.getAttribute('aria-valuetext'); });
      await page.keyboard.press(atMin ? 'ArrowRight' : 'ArrowLeft');
      await page.waitForFunction((el) => el.getAttribute('aria-valuetext') !== el.dataset.before, input);
      const [text1, shown1] = await pair();
      assert.equal(text1, shown1, `${p}: after a move, aria-valuetext ${text1} vs shown ${shown1}`);
      assert.notEqual(text1, text0);
      sliders++;
    }
  }
  assert.ok(sliders >= 11, `${sliders} sliders checked`);
  await ctx.close();
});

// one visit of each panel per language, checked in both colour schemes: the page follows
// prefers-color-scheme live (theme.ts), so the scheme is switched in place, not by a second visit
test('axe-core finds no violation on any panel, in both languages and both colour schemes', async () => {
  const counts = {};
  for (const lang of ['en', 'zh-CN']) {
    const ctx = await browser.newContext({ ...DESKTOP, colorScheme: 'light' });
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=1&exp=variance&lang=${lang}`);
    let scheme = 'light';
    for (const p of PANELS) {
      if (p !== 'variance') await page.click(`[data-nav="${p}"]`);
      await settle(page, p);
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
      for (const turn of [0, 1]) {
        if (turn === 1) {
          scheme = scheme === 'light' ? 'dark' : 'light';
          await page.emulateMedia({ colorScheme: scheme });
        }
        await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
        const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
        counts[`${scheme}/${lang}/${p}`] = r.violations.length;
        assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), [], `${scheme} ${lang} ${p}`);
      }
    }
    await ctx.close();
  }
  assert.equal(Object.keys(counts).length, PANELS.length * 4, 'every panel in both languages and both schemes');
  console.log('axe-core violations:', JSON.stringify(counts));
});

test('a link with hundreds of unknown keys: a short notice (first keys named, then how many more), the panel works', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  // as many as fit under the hash's size limit (8,192 characters; a longer hash is refused unread: refusals.test.mjs)
  const junk = Array.from({ length: 700 }, (_, i) => `k${i}${'x'.repeat(i % 100 === 0 ? 200 : 0)}=${i % 10}`).join('&');
  assert.ok(junk.length < 8000, `${junk.length} characters`);
  await page.goto(`${srv.url}#v=1&exp=article&${junk}`);
  await settle(page, 'article');
  const items = await page.$$eval('[data-notice="parse"] li', (li) => li.map((l) => l.textContent));
  assert.equal(items.length, 9, 'eight keys named, then one line for the rest');
  assert.match(items[8], /and 692 more/);
  assert.ok(items.every((x) => x.length < 200), 'keys and values are cut short');
  assert.ok((await page.textContent('[data-notice="parse"]')).length < 2000);
  await page.waitForFunction(() => location.hash.startsWith('#v=1&exp=article&') && !location.hash.includes('k0'));
  await ctx.close();
});

test('μP: ρ moves the charts and C3’s verdict; Scales in the wild: L moves the chart, a row opens saturation with its scale; Your model reads a pasted config', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=mup&rho=0&seed=1`);
  await settle(page, 'mup');
  const verdict = () => page.getAttribute('[data-panel="mup"] [data-claim="C3"]', 'data-verdict');
  assert.equal(await verdict(), 'agree', 'iid: C3 holds');
  const chart = () => page.textContent('[data-chart-box="mup-entropy"]');
  const before = await chart();
  await moveSlider(page, 'mup', 'rho', 0.3);
  await page.waitForFunction(() => /[&]rho=0\.3(&|$)/.test(location.hash));
  await settle(page, 'mup');
  assert.notEqual(await chart(), before, 'the entropy chart follows ρ');
  assert.equal(await verdict(), 'disagree', 'ρ = 0.3: C3 does not hold');
  // the mean of q·k at d_k = 1024 is about ρ·d_k = 307
  const mean = Number(await page.textContent('[data-readout="mup-mean-1024"]'));
  assert.ok(Math.abs(mean - 307.2) < 10, `mean(q·k) at 1024: ${mean}`);

  await page.goto(`${srv.url}#v=1&exp=wild&wlen=256`);
  await settle(page, 'wild');
  const rows = await page.$$eval('[data-wild-row]', (trs) => trs.map((tr) => tr.dataset.wildRow));
  assert.ok(rows.length >= 12, `${rows.length} models`);
  // the models of the saved configs the core's catalogue does not list, read by modelConfig (issue 27)
  for (const m of ['DeepSeek-V3.2-Exp', 'Kimi K2', 'Qwen3-Next 80B-A3B']) assert.ok(rows.includes(m), `${m} in ${rows}`);
  const kimi = rows.indexOf('Kimi K2');
  assert.equal(await page.textContent(`[data-readout="wild-scale-${kimi}"]`), '0.130861');
  assert.match(await page.textContent('[data-wild-status]'), /and 3 read from their config\.json/);
  const w0 = await page.textContent('[data-chart-box="wild-entropy"]');
  await moveSlider(page, 'wild', 'wlen', 1);
  await page.waitForFunction(() => /[&]wlen=512(&|$)/.test(location.hash));
  await settle(page, 'wild');
  assert.notEqual(await page.textContent('[data-chart-box="wild-entropy"]'), w0, 'the chart follows L');
  const scale = Number(await page.textContent('[data-readout="wild-scale-0"]'));
  await page.click('a[data-wild-link="0"]');
  await settle(page, 'saturation');
  assert.match(await page.evaluate(() => location.hash), /[&]sscale=/);
  const c = Number(await page.textContent('[data-readout="sat-c"]'));
  assert.ok(Math.abs(c - scale) <= 1e-3 * scale, `saturation uses the row's scale: ${c} vs ${scale}`);

  // Your model: a pasted config.json gives its scale and puts its numbers (not the file) in the link; a bad one shows
  // its message beside the drop zone and keeps the reading; a saved one in Chinese, with its message in Chinese
  await page.goto(`${srv.url}#v=1&exp=wild&wlen=256`);
  await page.waitForSelector('[data-your-model]');
  await page.click('[data-ym-paste] summary');
  const gemma2 = '{"model_type": "gemma2", "head_dim": 128, "hidden_size": 4608, "num_attention_heads": 32, "num_key_value_heads": 16, "query_pre_attn_scalar": 144, "attn_logit_softcapping": 50.0, "vocab_size": 256000}';
  await page.fill('[data-ym-text]', gemma2);
  await page.click('[data-ym-read]');
  await page.waitForFunction(() => /[&]ymdh=128&ymsc=0\.083333&ymcap=50(&|$)/.test(location.hash));
  assert.equal(await page.textContent('[data-readout="ym-scale"]'), '0.0833333', '144^−½');
  assert.equal(await page.textContent('[data-readout="ym-ratio"]'), '0.9428×');
  assert.ok(await page.isVisible('[data-ym-mod="softcap"]'));
  assert.doesNotMatch(await page.evaluate(() => location.hash), /query_pre_attn_scalar|gemma2/, 'the link carries numbers, not the file');
  await page.waitForFunction(() => /^\d/.test(document.querySelector('[data-readout="ym-entropy"]').textContent));
  await page.fill('[data-ym-text]', '{"head_dim": 128, "num_attention_heads": 0,');
  await page.click('[data-ym-read]');
  assert.match(await page.textContent('[data-ym-msg]'), /^Not read: modelConfig: not valid JSON/);
  assert.equal(await page.textContent('[data-readout="ym-scale"]'), '0.0833333', 'the previous reading is kept');
  assert.equal(await page.inputValue('[data-ym-text]'), '{"head_dim": 128, "num_attention_heads": 0,', 'the text is kept');
  await page.fill('[data-ym-text]', '{"hidden_size": 4096, "num_attention_heads": -32}');
  await page.click('[data-ym-read]');
  assert.match(await page.textContent('[data-ym-msg]'), /num_attention_heads = -32 is out of range/);
  await page.goto(`${srv.url}#v=1&exp=wild&wlen=256&lang=zh-CN&ym=deepseek-v3`);
  await page.waitForFunction(() => document.querySelector('[data-readout="ym-scale"]')?.textContent === '0.135234');
  assert.match(await page.textContent('[data-ym-status]'), /^已读取：DeepSeek-V3/);
  await page.click('[data-ym-paste] summary');
  await page.fill('[data-ym-text]', 'not json');
  await page.click('[data-ym-read]');
  assert.match(await page.textContent('[data-ym-msg]'), /^未读取：modelConfig: not valid JSON/);
  await page.click('a[data-ym-link="saturation"]');
  await settle(page, 'saturation');
  assert.equal(Number(await page.textContent('[data-readout="sat-c"]')).toFixed(4), '0.1352', 'saturation opens with DeepSeek-V3’s scale');
  await ctx.close();
});

test('Does attention have to sum to one?: the sources’ closed forms live, λ moves the differential’s row sum, QK-Clip lands on τ, both languages', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=sumone&seed=1`);
  await settle(page, 'sumone');
  await allDrawn(page, 'sumone');
  const ro = (id) => page.textContent(`[data-readout="${id}"]`);
  // all-zero logits: sigmoid (b = −ln n) and off-by-one give n/(n + 1); [2, 1, 0]: sigmoid 1.4366
  assert.equal(await ro('sum-check-zero4-sigmoid'), '0.800000');
  assert.equal(await ro('sum-check-zero4-offByOne'), '0.800000');
  assert.equal(await ro('sum-check-zero128-sigmoid'), '0.992248');
  assert.equal(await ro('sum-check-two10-sigmoid'), '1.436601');
  assert.equal(Number(await ro('sum-softmax-rowSum')), 1);
  assert.equal(Number(await ro('sum-differential-rowSum')).toFixed(3), '0.200', 'differential: 1 − λ at λ 0.8');
  assert.match(await ro('sum-differential-entropy'), /^(\d|n\/a$)/, 'the entropy of rows without negative weights, or n/a');
  // λ 0.8 → 0.85 (one step): the differential's rows sum to 0.15
  await moveSlider(page, 'sumone', 'nlambda', 0.85);
  await page.waitForFunction(() => /[&]nlambda=0\.85(&|$)/.test(location.hash));
  await settle(page, 'sumone');
  assert.equal(Number(await ro('sum-differential-rowSum')).toFixed(3), '0.150');
  // QK-Clip at τ = 100 with q × 30: some heads clipped, each clipped group's top head at τ
  const clipped = await ro('qc-clipped');
  assert.match(clipped, /^[1-8] \/ 8$/);
  const after = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((h) => ro(`qc-after-${h}`).then(Number)));
  assert.ok(after.every((x) => x <= 100.001), `after clipping: ${after}`);
  assert.ok(after.some((x) => Math.abs(x - 100) < 0.01), `a head at τ: ${after}`);
  // the same view in Chinese
  await page.goto(`${srv.url}#v=1&exp=sumone&seed=1&lang=zh-CN`);
  await settle(page, 'sumone');
  assert.equal(await page.textContent('[data-panel="sumone"] h2'), '注意力权重必须和为 1 吗？');
  assert.equal(await ro('sum-check-zero128-offByOne'), '0.992248');
  await ctx.close();
});

test('Long context: two chunks of keys merged by their LSE give the full call, base 2 read as nats does not, an empty chunk is neutral; both languages', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const ro = (id) => page.textContent(`[data-readout="${id}"]`);
  await page.goto(`${srv.url}#v=1&exp=longctx`);
  await settle(page, 'longctx');
  await page.waitForFunction(() => document.querySelector('[data-readout="lm-diff"]')?.textContent !== '–');
  const diff = Number(await ro('lm-diff'));
  assert.ok(diff > 0 && diff < 2e-6, `merged vs full: ${diff}`);
  const base2 = Number(await ro('lm-base2'));
  assert.ok(base2 > 0.02 && base2 < 1, `base 2 read as nats: ${base2}`);
  assert.equal(await ro('lm-empty'), '0');
  assert.equal(await ro('lm-rows'), '0 / 512', '4 heads × the first 128 causal rows see no key of chunk B');
  assert.match(await page.textContent('[data-lm-text]'), /first 128 keys/);
  // chunk A empty (lmsplit 0): every row's A is (0, −∞), and the merge is the full call bit for bit
  await moveSlider(page, 'longctx', 'lmsplit', 0);
  await page.waitForFunction(() => /[&]lmsplit=0(&|$)/.test(location.hash));
  await page.waitForFunction(() => document.querySelector('[data-readout="lm-rows"]')?.textContent === '1024 / 0');
  assert.equal(await ro('lm-diff'), '0');
  assert.equal(await ro('lm-base2'), '0');
  // ALiBi off by default: no chart of it on the view
  assert.equal(await page.locator('[data-chart-box="longctx-alibi"]').count(), 0, 'lalibi off: no ALiBi chart');
  // ALiBi on (lalibi=1), in Chinese: 8 heads × 7 lengths + 1/√d_k alone + ln L drawn, the m = 1/2 head far below 1/√d_k alone
  await page.goto(`${srv.url}#v=1&exp=longctx&lang=zh-CN&lmlen=128&lalibi=1`);
  await settle(page, 'longctx');
  await page.waitForFunction(() => document.querySelector('[data-readout="lm-rows"]')?.textContent === '0 / 256');
  assert.match(await page.textContent('[data-lm] h3'), /log-sum-exp/);
  assert.match(await page.textContent('[data-lm-text]'), /块 A 含前 64 个键/);
  assert.equal(await page.getAttribute('[data-chart-box="longctx-alibi"]', 'data-points'), '70');
  assert.ok(Number(await ro('al-steep')) < Number(await ro('al-plain')) - 3, 'm = 1/2 far below 1/√d_k alone at L 1024');
  assert.match(await page.textContent('[data-al-text]'), /第 1 头/);
  await ctx.close();
});

test('Saturation: does ALiBi need the 1/√d_k? — off by default; on, each head under ÷√d_k, no scale and ÷d_k from the core; both languages', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const ro = async (id) => Number(await page.textContent(`[data-readout="${id}"]`));
  // a bad value is named beside its checkbox as well as in the notice, until the reader uses the box
  await page.goto(`${srv.url}#v=1&exp=saturation&salibi=yes`);
  await settle(page, 'saturation');
  assert.equal(await page.locator('[data-chart-box="saturation-alibi"]').count(), 0, 'salibi off: no ALiBi chart');
  assert.match(await page.textContent('[data-key="salibi"] [data-link-issue="salibi"]'), /“salibi=yes” is not a valid value; using 0/);
  await page.check('[data-panel="saturation"] [data-key="salibi"] input');
  assert.equal(await page.locator('[data-link-issue]').count(), 0, 'gone once the box is used');
  await page.waitForFunction(() => /[&]salibi=1(&|$)/.test(location.hash));
  await page.waitForFunction(() => document.querySelector('[data-readout="sal-inv_dk-gentle"]')?.textContent.trim().match(/^\d/));
  assert.equal(await page.getAttribute('[data-chart-box="saturation-alibi"]', 'data-points'), '48', '3 scales × (ALiBi + no bias) × 8 heads');
  const f = {};
  for (const sc of ['inv_sqrt_dk', 'none', 'inv_dk']) for (const w of ['steep', 'gentle']) f[`${sc}-${w}`] = await ro(`sal-${sc}-${w}`);
  console.log('saturation ALiBi at d_k 64, L 128, seed 1:', JSON.stringify(f));
  const spread = (sc) => f[`${sc}-gentle`] - f[`${sc}-steep`];
  assert.ok(spread('inv_sqrt_dk') > 1.5, `÷√d_k: the heads follow their slopes (${spread('inv_sqrt_dk')})`);
  assert.ok(spread('none') < 0.5 * spread('inv_sqrt_dk'), `no scale: q·k swamps the slopes (${spread('none')})`);
  assert.match(await page.textContent('[data-sal-text]'), /d_k = 64, L = 128/);
  // the page is not settled before the section is: its chart and readouts are there once it is (TRUE read as 1)
  const zh = await ctx.newPage();
  await zh.goto(`${srv.url}#v=1&exp=saturation&lang=zh-CN&salibi=TRUE&dk=128&seqLen=64`);
  await settled(zh);
  assert.equal(await zh.getAttribute('[data-chart-box="saturation-alibi"]', 'data-points'), '48');
  assert.match(await zh.textContent('[data-readout="sal-none-gentle"]'), /^\d/);
  assert.match(await zh.textContent('[data-sal-text]'), /d_k = 128、L = 64/);
  assert.match(await zh.textContent('[data-sal] h3'), /ALiBi 还需要/);
  assert.match(await zh.textContent('[data-sal-text]'), /第 1 头/);
  assert.match(await zh.textContent('[data-issue-key="salibi"]'), /salibi=TRUE/, 'TRUE is read, and the notice says it was corrected');
  await ctx.close();
});

test('GQA/MQA: d_v ≠ d_k — the MLA preset (Kimi K2) scales by 1/√192, the weights unchanged, MLA\'s latent cache; both languages', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const ro = (id) => page.textContent(`[data-readout="${id}"]`);
  await page.goto(`${srv.url}#v=1&exp=gqa`);
  await settle(page, 'gqa');
  await page.click('[data-preset="mla-kimi-k2"]');
  await page.waitForFunction(() => /[&]gdk=192&gdv=128&/.test(location.hash) && /[&]hq=64&hkv=64&/.test(location.hash));
  await page.waitForFunction(() => document.querySelector('[data-readout="dv-scale"]')?.textContent === '0.0721688');
  assert.equal(await ro('dv-wrongScale'), '0.0883883');
  assert.equal(await ro('dv-weights'), '0');
  assert.equal(await ro('dv-output'), '64 × 32 × 128');
  assert.equal(await ro('dv-kvExpanded'), '2.38 MiB');
  assert.equal(await ro('dv-kvLatent'), '68.6 KiB');
  const [right, wrong] = (await ro('dv-entropy')).split(' / ').map(Number);
  assert.ok(wrong < right, `1/√d_v sharpens the rows: ${right} → ${wrong}`);
  await page.goto(`${srv.url}#v=1&exp=gqa&lang=zh-CN&gdk=192&gdv=128&hq=64&hkv=64&kvl=61`);
  await settle(page, 'gqa');
  await page.waitForFunction(() => document.querySelector('[data-readout="dv-scale"]')?.textContent === '0.0721688');
  assert.match(await page.textContent('[data-dv-text]'), /MLA 每层只缓存/);
  await ctx.close();
});

test('no console errors, no dialogs, no requests to other hosts', () => {
  assert.deepEqual(log.pageErrors, []);
  assert.deepEqual(log.consoleErrors, []);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.foreign, []);
});
