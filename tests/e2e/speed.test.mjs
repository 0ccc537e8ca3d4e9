// Browser tests of the page's compute path (issue 9): the worker pool (one compiled module posted
// to every worker: the .wasm is fetched once, the SIMD128 build only), identical numbers for pool
// sizes 1, 2 and 4, and stale work dropped (a drag of 50 slider moves leaves at most one
// computation per panel started after the last move, and ends on the numbers of a fresh load).
// No timing is asserted: speed goals live in `npm run bench:ui`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { useSuite, openPanel } from './browser.mjs';
import { panelSettled, panelReadouts } from './panel.mjs';
import vm from 'node:vm';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const DK_STEPS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
const suite = useSuite('/speed/', undefined, { serviceWorkers: 'allow' });

async function open(query, hash, context = suite.context) {
  const page = await context.newPage();
  const wasm = [];
  page.on('request', (r) => { if (/\.wasm$/.test(new URL(r.url()).pathname)) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
  await page.goto(suite.srv.url + query + hash);
  return { page, wasm };
}
const stats = (page) => page.evaluate(() => window.__sqrtdkBench.stats());
/** Until no call waits for a worker and no worker is busy (every request of the view computed). */
const idle = (page) => page.waitForFunction(() => {
  const s = window.__sqrtdkBench.stats();
  return s.waiting === 0 && s.running === 0;
}, null, { timeout: 60000, polling: 100 });

test('the page preloads the SIMD128 core (the first part on the variance view) and compiles it once for the whole pool', async () => {
  const html = readFileSync(dist + 'index.html', 'utf8');
  const script = html.match(/<script src="\.\/(assets\/preload-core-[^"]+\.js)" async>/);
  assert.ok(script, 'index.html runs the preload script of the core');
  const code = readFileSync(dist + script[1], 'utf8');
  assert.match(code, /"sqrtdk-simd-first-[^"]+\.wasm" : "sqrtdk-simd-[^"]+\.wasm"/);
  // run on a stub document: it adds the view's two preloads, and none once the page has asked for
  // a core itself (a preload after the page's fetch would download the .wasm a second time)
  const runScript = (asked, hash) => {
    const added = [];
    const root = { getAttribute: () => null, hasAttribute: (name) => asked && name === 'data-core-asked' };
    vm.runInNewContext(code, { document: { documentElement: root, currentScript: { src: 'http://lab.test/assets/p.js' }, createElement: () => ({}), head: { appendChild: (l) => added.push(l) } }, location: { hash, href: 'http://lab.test/' }, URL });
    return added;
  };
  const added = runScript(false, '#v=1&exp=saturation');
  assert.deepEqual(added.map((l) => l.rel), ['preload', 'modulepreload']);
  assert.match(added[0].href, /\/assets\/sqrtdk-simd-(?!first)[^/]+\.wasm$/);
  assert.equal(runScript(true, '#v=1&exp=saturation').length, 0, 'no preload once the page has asked for its core');
  const preloads = (page) => page.evaluate(() => [...document.querySelectorAll('link[rel=preload][as=fetch]')].map((l) => l.href.split('/').pop()));
  const { page, wasm } = await open('?pool=3', '#v=1&exp=saturation');
  await panelSettled(page, 'saturation');
  assert.equal((await stats(page)).poolSize, 3);
  // a view beyond the first part preloads the full SIMD128 core (unless the page asked for it
  // before the async preload script ran: then the script adds nothing, or it would be fetched twice)
  const full = await preloads(page);
  assert.ok(full.length <= 1 && full.every((f) => /^sqrtdk-simd-(?!first)/.test(f)), full.join(', '));
  // three workers, but the SIMD128 build is fetched by the page alone (the preload, which
  // compileStreaming reuses), never by a worker, never the baseline build nor the first part
  assert.ok(wasm.length >= 1 && wasm.length <= 2 && wasm.every((f) => /^sqrtdk-simd-(?!first)/.test(f)), wasm.join(', '));
  await page.waitForFunction(() => document.documentElement.dataset.engine === 'simd');
  await page.close();
  // the variance view preloads and starts with the first part; the full core comes in idle time,
  // fetched once for the pool, and the next view computes with it
  const fresh = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });  // an empty cache
  const v = await open('?pool=2', '#v=1&exp=variance', fresh);
  await panelSettled(v.page, 'variance');
  const first = await preloads(v.page);
  assert.ok(first.length <= 1 && first.every((f) => /^sqrtdk-simd-first-/.test(f)), first.join(', '));
  assert.ok(/^sqrtdk-simd-first-/.test(v.wasm[0] ?? ''), v.wasm.join(', '));
  await v.page.waitForFunction(() => document.documentElement.dataset.engine === 'simd');
  await openPanel(v.page, 'saturation');
  assert.deepEqual(v.wasm.map((f) => f.replace(/-[^-]+\.wasm$/, '')).sort(), ['sqrtdk-simd', 'sqrtdk-simd-first'], v.wasm.join(', '));
  await fresh.close();
});

test('an embedded variance view computes on the core\'s first part alone; the full core comes only when its state turns to another view', async () => {
  const fresh = await suite.browser.newContext({ viewport: { width: 720, height: 900 } });  // an empty cache
  const { page, wasm } = await open('', '#v=1&embed=1&exp=variance', fresh);
  await panelSettled(page, 'variance');
  // well past the page's idle-time load of the full core (FULL_CORE_AFTER_MS, then an idle callback)
  await page.waitForTimeout(1500);
  // (a preload and the fetch that takes it may both show as requests: the builds asked for, once each)
  const builds = () => [...new Set(wasm.map((f) => f.replace(/-[^-]+\.wasm$/, '')))].sort();
  assert.deepEqual(builds(), ['sqrtdk-simd-first'], wasm.join(', '));
  await page.evaluate(() => { location.hash = location.hash.replace('exp=variance', 'exp=saturation'); });
  await page.waitForSelector('[data-panel="saturation"]');
  await panelSettled(page, 'saturation');
  assert.deepEqual(builds(), ['sqrtdk-simd', 'sqrtdk-simd-first'], wasm.join(', '));
  await fresh.close();
});

test('pool sizes 1, 2 and 4 give the same numbers on every computing panel', async () => {
  const panels = ['variance', 'saturation', 'gradient', 'article', 'longctx', 'gqa'];
  const seen = {};
  for (const n of [1, 2, 4]) {
    const { page } = await open(`?pool=${n}`, '#v=1&exp=variance&dk=256&heads=6');
    assert.equal((await stats(page)).poolSize, n);
    for (const p of panels) {
      if (p !== 'variance') await page.click(`[data-nav="${p}"]`);
      await panelSettled(page, p);
      await idle(page);
      const ro = await panelReadouts(page, p);
      const csv = await page.evaluate((p) => [...document.querySelectorAll(`[data-panel="${p}"] [data-chart-box]`)]
        .map((b) => b.querySelector('[data-chart-summary]')?.textContent ?? '').join('|'), p);
      if (seen[p]) {
        assert.deepEqual(ro, seen[p].ro, `${p}: readouts with ${n} workers`);
        assert.equal(csv, seen[p].csv, `${p}: chart summaries with ${n} workers`);
      } else seen[p] = { ro, csv };
    }
    await page.close();
  }
});

test('a drag of 50 moves starts at most one computation per panel after the last move, and ends on the right numbers', async () => {
  for (const panel of ['saturation', 'variance']) {
    const { page } = await open('', `#v=1&exp=${panel}`);
    await idle(page);
    await panelSettled(page, panel);
    const before = await stats(page);
    const tLast = await page.evaluate(async (panel) => {
      const input = document.querySelector(`[data-panel="${panel}"] [data-key="dk"] input[type=range]`);
      let last = 0;
      for (let i = 0; i < 50; i++) {
        const v = i === 49 ? 12 : [9, 11, 10, 8][i % 4];  // 4096 only at the last move (never cached before)
        if (i === 49) last = performance.now();
        input.value = String(v);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 4));
      }
      return last;
    }, panel);
    await idle(page);
    await panelSettled(page, panel, 60000);
    const after = await stats(page);
    const late = after.log.filter((e) => e.t >= tLast);
    const perPanel = {};
    for (const e of late) perPanel[e.panel] = (perPanel[e.panel] ?? 0) + 1;
    for (const [p, n] of Object.entries(perPanel)) assert.ok(n <= 1, `${panel}: ${n} computations of ${p} started after the last move: ${JSON.stringify(late)}`);
    assert.ok(late.length >= 1, `${panel}: the last value was computed: ${tLast} ${JSON.stringify({ ...after, log: after.log.slice(-4) })}`);
    assert.equal(after.waiting, 0);
    assert.equal(after.running, 0, `no worker is left busy: ${JSON.stringify({ ...after, log: after.log.slice(-6) })}`);
    const started = Object.values(after.started).reduce((a, b) => a + b, 0) - Object.values(before.started).reduce((a, b) => a + b, 0);
    assert.ok(started <= 50, `${started} computations for 50 moves`);
    const dragged = await panelReadouts(page, panel);
    await page.close();
    // the same numbers as a fresh page opened at d_k = 4096
    const fresh = await open('', `#v=1&exp=${panel}&dk=${DK_STEPS[12]}`);
    await idle(fresh.page);
    await panelSettled(fresh.page, panel, 60000);
    assert.deepEqual(dragged, await panelReadouts(fresh.page, panel));
    await fresh.page.close();
  }
});

test('no console errors and no foreign requests', () => {
  assert.deepEqual(suite.log.pageErrors, []);
  assert.deepEqual(suite.log.consoleErrors, []);
  assert.deepEqual(suite.log.foreign, []);
});

