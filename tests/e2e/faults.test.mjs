// Browser tests of faults that real hosting produces (issue 21), on the built page (dist/) served
// by the test's own server, with requests failed by the test: every .wasm a 404 (a handful of
// requests, then the notice with Retry and Reload, and nothing more until the reader acts);
// offline during the download, then online (it recovers by itself); a junk .wasm in the service
// worker's cache (evicted, fetched once more); a deployment under an open tab (every hashed file
// renamed: the old tab still switches language and trains); two tabs answering the drill (every
// answer kept); storage blocked (the notice, the session's count); embed.js and a foreign frame;
// kernel=simd where SIMD128 is missing. The backoff between start attempts is injected with
// ?backoff= so that nothing waits the production delays. Run after `npm run build`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { useSuite, hostPage, openPanel } from './browser.mjs';
import { panelSettled } from './panel.mjs';
import { CORE_VERSION } from '../../wasm/js/version.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const DESKTOP = { viewport: { width: 1280, height: 900 }, locale: 'en-US' };
let srv, browser;

useSuite('/faults/', (s) => ({ srv, browser } = s), { serviceWorkers: 'allow' });

/**
 * A fresh context whose pages count their requests for the core (.wasm) and worker scripts (the
 * page's and its workers'; the service worker's precache downloads are not the page's).
 */
async function counted() {
  const ctx = await browser.newContext(DESKTOP);
  const n = { wasm: 0, worker: 0 };
  ctx.on('page', (page) => page.on('request', (r) => {
    const u = r.url();
    if (/\.wasm(\?|$)/.test(u)) n.wasm++;
    if (/\/assets\/worker-[^/]*\.js/.test(u)) n.worker++;
  }));
  return { ctx, n };
}
const filled = (page) => page.waitForFunction(() => [...document.querySelectorAll('[data-readout]')].every((r) => r.textContent !== '–'), null, { timeout: 30000 });

test('every .wasm a 404: a handful of requests, then the notice with Retry and Reload, nothing more until Retry', async () => {
  const { ctx, n } = await counted();
  let broken = true;
  await ctx.route(/\.wasm$/, (r) => (broken ? r.fulfill({ status: 404, body: 'not found' }) : r.continue()));
  const page = await ctx.newPage();
  await page.goto(srv.url + '?backoff=100,200,300#v=1&exp=saturation');
  await page.waitForSelector('[data-notice="core-unavailable"]', { timeout: 15000 });
  const notice = await page.textContent('[data-notice="core-unavailable"]');
  assert.match(notice, /could not be loaded.*network.*newer version.*WebAssembly/s);
  assert.match(notice, /HTTP 404/);
  assert.equal(await page.textContent('[data-action="core-retry"]'), 'Retry');
  assert.equal(await page.textContent('[data-action="core-reload"]'), 'Reload');
  assert.equal(await page.textContent('[data-core-status]'), 'The lab’s code could not be loaded');
  // named as what it is beside the panel, not as a refusal
  const errs = await page.$$eval('[data-err-for]', (els) => els.map((e) => e.textContent).filter(Boolean));
  assert.ok(errs.length > 0 && errs.every((e) => /^Not computed: the lab’s code could not be loaded/.test(e)), errs.join(' | '));
  const atNotice = { wasm: n.wasm, worker: n.worker };
  // 4 attempts (the first and 3 retries): each the page's fetch, a worker script and nothing else
  assert.ok(n.wasm <= 6 && n.worker <= 6, `requests until the notice: ${JSON.stringify(n)}`);
  await page.waitForTimeout(1500);
  assert.deepEqual({ wasm: n.wasm, worker: n.worker }, atNotice, 'no request after giving up');
  assert.equal(await page.evaluate(() => window.__sqrtdkRestarts ?? 0), 0, 'no worker restarted as a crash');
  // the reader presses Retry once the host serves the core again: the panel computes
  broken = false;
  await page.click('[data-action="core-retry"]');
  await panelSettled(page, 'saturation', 30000);
  assert.equal(await page.$('[data-notice="core-unavailable"]'), null, 'the notice is gone');
  // the start's status line says nothing once the core computes (the device panel names the engine)
  assert.equal(await page.isHidden('[data-core-status]'), true);
  assert.equal(await page.getAttribute('html', 'data-engine'), 'simd');
  await ctx.close();
});

test('the variance view on the core\'s first part computes when the full core is a 404; the next view says why it cannot', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const asked = [];
  await ctx.route(/sqrtdk-simd-(?!first)[^/]*\.wasm$/, (r) => { asked.push(r.request().url()); return r.fulfill({ status: 404, body: 'not found' }); });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=variance');
  await panelSettled(page, 'variance', 30000);
  assert.equal(await page.$('[data-notice="core-unavailable"]'), null, 'the first part computes: no notice');
  await page.locator('[data-nav="saturation"]').click();
  await page.waitForSelector('[data-panel="saturation"]', { timeout: 30000 });
  // said as what it is (not a refusal of the reader's values)
  await page.waitForFunction(() => [...document.querySelectorAll('[data-panel="saturation"] [data-err-for]')].some((e) => /^Not computed: the part of the lab’s code this view needs could not be loaded/.test(e.textContent ?? '')), null, { timeout: 30000 });
  assert.ok(asked.length >= 1, 'the full core was asked for');
  assert.equal(await page.evaluate(() => window.__sqrtdkRestarts ?? 0), 0, 'no worker restarted as a crash');
  // back on the variance view, the first part still answers
  await page.locator('[data-nav="variance"]').click();
  await panelSettled(page, 'variance', 30000);
  await ctx.close();
});

test('a view waiting for a slow full core says so in the status bar, then opens', async () => {
  const ctx = await browser.newContext(DESKTOP);
  // the full core's .wasm answers 5 s after it is asked for (a slow network; the page asks for it
  // in idle time after the variance view, which starts on the core's first part)
  await ctx.route(/sqrtdk-simd-(?!first)[^/]*\.wasm$/, async (r) => { await new Promise((x) => setTimeout(x, 5000)); return r.continue(); });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=variance');
  await panelSettled(page, 'variance', 30000);
  await page.locator('[data-nav="saturation"]').click();
  // the old view stays while the next one's core loads: the status bar says what the page waits for
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-core-status]');
    return s && !s.hidden && s.dataset.state === 'loading' && /^Loading the WebAssembly core/.test(s.textContent ?? '');
  }, null, { timeout: 2500 });
  await panelSettled(page, 'saturation', 30000);
  assert.equal(await page.$eval('[data-core-status]', (s) => s.hidden), true, 'nothing to say once the view is in');
  await ctx.close();
});

test('offline while the core downloads, then online: it recovers by itself (zh-CN: the status in Chinese)', async () => {
  const { ctx, n } = await counted();
  let offline = true;
  await ctx.route(/\.wasm$/, (r) => (offline ? r.abort('internetdisconnected') : r.continue()));
  const page = await ctx.newPage();
  // a long backoff: only the browser's `online` event can bring the core back within the test
  await page.goto(srv.url + '?backoff=60000#v=1&exp=saturation&lang=zh-CN');
  // the page's words came with it (the core's .wasm is what the route holds back); then the browser goes offline
  await page.waitForSelector('[data-core-status]', { state: 'attached' });
  await ctx.setOffline(true);
  await page.waitForFunction(() => /核心未能加载（第 1 次，共 2 次）/.test(document.querySelector('[data-core-status]')?.textContent ?? ''), null, { timeout: 15000 });
  const during = n.wasm + n.worker;
  offline = false;
  await ctx.setOffline(false);
  await panelSettled(page, 'saturation', 30000);
  assert.equal(await page.getAttribute('html', 'data-engine'), 'simd');
  assert.ok(during <= 6, `requests while offline: ${during}`);
  await ctx.close();
});

/** The addresses the service worker's precache holds, sorted. */
const precached = (page) => page.evaluate(async () => {
  const name = (await caches.keys()).find((n) => n.startsWith('workbox-precache'));
  return name ? (await (await caches.open(name)).keys()).map((r) => r.url).sort() : [];
});

test('a junk .wasm in the service worker’s cache is evicted and fetched once more; the precache holds every file again, and offline the views of the full core open', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=saturation');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  await panelSettled(page, 'saturation');
  const before = await precached(page);
  assert.ok(before.length > 50, `the precache is complete: ${before.length} files`);
  // what a captive portal leaves: an HTML page cached under the core's address
  const junked = await page.evaluate(async () => {
    const out = [];
    for (const name of await caches.keys()) {
      const c = await caches.open(name);
      for (const req of await c.keys()) {
        if (!/sqrtdk-simd-(?!first)[^/]*\.wasm/.test(req.url)) continue;  // the full core (this view's; the first part is the variance view's)
        await c.put(req, new Response('<html>captive portal</html>', { headers: { 'content-type': 'application/wasm' } }));
        out.push(req.url);
      }
    }
    return out;
  });
  assert.equal(junked.length, 1, 'the precache holds the SIMD core');
  const asked = [];
  page.on('request', (r) => { if (/\.wasm$/.test(r.url())) asked.push(r.url()); });
  await page.reload();
  await panelSettled(page, 'saturation', 30000);
  assert.equal(asked.length, 2, `the page asked for the core twice (the junk, then afresh): ${asked.join(', ')}`);
  assert.equal(await page.evaluate(() => window.__sqrtdkRestarts ?? 0), 0);
  assert.equal(await page.$('[data-notice="core-unavailable"]'), null);
  const valid = await page.evaluate(async (url) => {
    const hit = await caches.match(url);
    return hit ? WebAssembly.validate(await hit.arrayBuffer()) : 'evicted';
  }, junked[0]);
  assert.equal(valid, true, 'the fresh core took the junk’s place in the precache');
  assert.deepEqual(await precached(page), before, 'the repaired precache holds every file it held before');
  // offline (until the next deployment): the views of the full core still open
  await ctx.setOffline(true);
  await page.reload();
  await panelSettled(page, 'saturation', 30000);
  await page.locator('[data-nav="gradient"]').click();
  await panelSettled(page, 'gradient', 30000);
  assert.equal(await page.$('[data-notice="core-unavailable"]'), null);
  await ctx.close();
});

test('Retry after a core of another build: it fetches the core again (not the rejected module) and computes once the server is fixed', async () => {
  const { ctx, n } = await counted();
  const assets = path.join(dist, 'assets');
  const other = readFileSync(path.join(assets, readdirSync(assets).find((f) => /^sqrtdk-base-.*\.wasm$/.test(f))));
  let broken = true;
  // the full SIMD128 core's address serves the baseline build's bytes: valid WebAssembly, not this core
  await ctx.route(/sqrtdk-simd-(?!first)[^/]*\.wasm$/, (r) => (broken ? r.fulfill({ status: 200, contentType: 'application/wasm', body: other }) : r.continue()));
  const page = await ctx.newPage();
  await page.goto(srv.url + '?backoff=100,200,300#v=1&exp=saturation');
  await page.waitForSelector('[data-notice="core-unavailable"]', { timeout: 20000 });
  assert.match(await page.textContent('[data-notice="core-unavailable"]'), /loadCore: .* is not/);
  await page.waitForTimeout(500);
  const atNotice = n.wasm;
  broken = false;
  await page.click('[data-action="core-retry"]');
  await panelSettled(page, 'saturation', 30000);
  assert.ok(n.wasm > atNotice, `Retry fetched the core again (${atNotice} → ${n.wasm} requests)`);
  assert.equal(await page.$('[data-notice="core-unavailable"]'), null, 'the notice is gone');
  assert.equal(await page.getAttribute('html', 'data-engine'), 'simd');
  await ctx.close();
});

test('the training lab and the interview’s training number recover when the core comes back after 8 s of 404, without a reload', async () => {
  const ctx = await browser.newContext(DESKTOP);
  let brokenUntil = 0;
  await ctx.route(/\.wasm$/, (r) => (Date.now() < brokenUntil ? r.fulfill({ status: 404, body: 'not found' }) : r.continue()));
  // the pool's backoff (and the training worker's) at 1, 2, 4, 8 s: the core comes back during the wait
  const page = await ctx.newPage();
  brokenUntil = Date.now() + 8000;
  await page.goto(srv.url + '?backoff=1000,2000,4000,8000#v=1&exp=training&trsteps=20&trvar=inv_sqrt_dk&trseed=2');
  // said as what it is: the worker could not load its core, not a refusal of the configuration
  await page.waitForFunction(() => /could not load the lab’s code/.test(document.querySelector('[data-panel="training"] [data-err-for="train-run"]')?.textContent ?? ''), null, { timeout: 20000 });
  assert.doesNotMatch(await page.textContent('[data-panel="training"]'), /Refused/);
  // the linked run starts by itself once the core is back, and finishes
  await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
  assert.ok(Date.now() >= brokenUntil, 'the run waited for the core');
  assert.equal(await page.textContent('[data-panel="training"] [data-err-for="train-run"]'), '');
  await ctx.close();
  // the interview: its training number too (a fresh context: no service worker holds the core)
  const ctx2 = await browser.newContext(DESKTOP);
  await ctx2.route(/\.wasm$/, (r) => (Date.now() < brokenUntil ? r.fulfill({ status: 404, body: 'not found' }) : r.continue()));
  const iv = await ctx2.newPage();
  brokenUntil = Date.now() + 8000;
  await iv.goto(srv.url + '?backoff=1000,2000,4000,8000#v=1&exp=interview');
  await iv.waitForFunction(() => document.querySelector('[data-live="trainVar"][data-value]') !== null, null, { timeout: 60000 });
  assert.ok(Date.now() >= brokenUntil, 'the training number waited for the core');
  assert.ok(Number(await iv.getAttribute('[data-live="trainVar"]', 'data-value')) > 0);
  await ctx2.close();
});

/** A copy of dist/ as the next deployment would be: every hashed asset renamed, every reference with it. */
function renamedDeploy() {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sqrtdk-deploy-'));
  const next = path.join(tmp, 'dist');
  cpSync(dist, next, { recursive: true });
  const assets = path.join(next, 'assets');
  const renames = [];
  for (const f of readdirSync(assets)) {
    const m = /^(.*-)([A-Za-z0-9_-]{8})(\.[a-z0-9]+)$/.exec(f);
    if (!m) continue;
    const to = `${m[1]}${m[2].slice(0, 4)}Nx${m[2].slice(6)}${m[3]}`;
    renameSync(path.join(assets, f), path.join(assets, to));
    renames.push([f, to]);
  }
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) { walk(p); continue; }
      if (!/\.(html|js|css|webmanifest)$/.test(f)) continue;
      let s = readFileSync(p, 'utf8');
      for (const [a, b] of renames) s = s.split(a).join(b);
      writeFileSync(p, s);
    }
  };
  walk(next);
  return { next, renames: renames.length, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

test('a deployment under an open tab (every hashed file renamed, the update taken): the old tab switches language and trains', async () => {
  const deploy = renamedDeploy();
  assert.ok(deploy.renames > 20, `${deploy.renames} files renamed`);
  const ctx = await browser.newContext(DESKTOP);
  const missing = [];
  ctx.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
  try {
    const page = await ctx.newPage();
    // the training view is opened only after the deployment: its worker script is loaded then
    await page.goto(srv.url + '#v=1&exp=saturation&trsteps=10&trvar=inv_sqrt_dk&trseed=2');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    srv.setRoot(deploy.next);
    // the new version installs and is taken (as the click in another tab does): it controls this tab too
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg.update();
      const sw = reg.installing ?? reg.waiting;
      if (sw && sw.state !== 'installed') await new Promise((r) => sw.addEventListener('statechange', () => sw.state === 'installed' && r()));
      const changed = new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
      reg.waiting.postMessage({ type: 'SKIP_WAITING' });
      await changed;
    });
    await page.waitForSelector('[data-notice="update"][data-kind="taken"]', { timeout: 15000 });
    assert.match(await page.textContent('[data-notice="update"]'), /installed in another tab.*keeps working with its own version/);
    // the language switch needs this version's zh-CN chunk (never loaded yet): it comes
    await page.selectOption('[data-key="lang"] select', 'zh-CN');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.waitForFunction(() => document.querySelector('[data-panel="saturation"] .formula .katex'), null, { timeout: 15000 });
    await openPanel(page, 'training');
    assert.equal(await page.$('[data-notice="stale"]'), null, 'no part of the page failed');
    // and it trains: the training worker's script is this version's, loaded only now
    await page.waitForSelector('[data-action="train-run"]:not([disabled])', { timeout: 30000 });
    await page.click('[data-action="train-run"]');
    await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
    assert.deepEqual(missing.filter((u) => u.includes('/assets/')), [], 'no file of the old version went missing');
  } finally {
    srv.setRoot(dist);
    await ctx.close();
    deploy.cleanup();
  }
});

/** Answers the drill question of `hash` with its first option (the score does not matter here). */
async function answer(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForFunction((h) => document.querySelector('[data-drill-form]')?.dataset.q === new URLSearchParams(h.slice(1)).get('dq')
    && document.querySelector('[data-drill-form]').dataset.seed === new URLSearchParams(h.slice(1)).get('dseed') && !document.querySelector('[data-drill-score]'), hash);
  await page.check('[data-drill-option="0"]');
  await page.click('[data-drill-reveal]');
  await page.waitForSelector('[data-drill-score]', { timeout: 30000 });
}
const answered = (page) => page.$eval('[data-drill-progress]', (p) => Number(p.dataset.answered));

test('two tabs answering the drill keep every answer, and each shows the other’s; the reset asks first', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const a = await ctx.newPage();
  const b = await ctx.newPage();
  await a.goto(srv.url + '#v=1&exp=interview&dq=uniform&dseed=1');
  await b.goto(srv.url + '#v=1&exp=interview&dq=uniform&dseed=2');
  await a.waitForSelector('[data-drill-form][data-q]');
  await b.waitForSelector('[data-drill-form][data-q]');
  // both reveal at once, twice each, on different seeds
  for (let i = 0; i < 2; i++) {
    await Promise.all([answer(a, `#v=1&exp=interview&dq=uniform&dseed=${10 + i}`), answer(b, `#v=1&exp=interview&dq=uniform&dseed=${20 + i}`)]);
  }
  await a.waitForFunction(() => Number(document.querySelector('[data-drill-progress]').dataset.answered) === 4, null, { timeout: 5000 });
  await b.waitForFunction(() => Number(document.querySelector('[data-drill-progress]').dataset.answered) === 4, null, { timeout: 5000 });
  const stored = await a.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('sqrtdk-drill-v1')).answered).sort());
  assert.deepEqual(stored, ['uniform:10', 'uniform:11', 'uniform:20', 'uniform:21']);
  // one click does not reset: it asks, and "keep" keeps
  await a.click('[data-drill-reset]');
  assert.match(await a.textContent('[data-drill-reset-q]'), /Forget all 4 answers\?/);
  await a.click('[data-drill-reset-no]');
  assert.equal(await answered(a), 4);
  await a.click('[data-drill-reset]');
  await a.click('[data-drill-reset-yes]');
  assert.equal(await answered(a), 0);
  await b.waitForFunction(() => Number(document.querySelector('[data-drill-progress]').dataset.answered) === 0, null, { timeout: 5000 });
  await ctx.close();
});

test('storage blocked: "progress is not kept here", and the session’s answers still counted', async () => {
  const ctx = await browser.newContext({ ...DESKTOP, locale: 'zh-CN' });
  await ctx.addInitScript(() => { Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } }); });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=interview&lang=zh-CN&dq=uniform&dseed=3');
  await page.waitForSelector('[data-drill-form][data-q]');
  assert.match(await page.textContent('[data-drill-storage]'), /这里不会保存进度/);
  assert.equal(await page.isVisible('[data-drill-storage]'), true);
  await answer(page, '#v=1&exp=interview&lang=zh-CN&dq=uniform&dseed=4');
  await answer(page, '#v=1&exp=interview&lang=zh-CN&dq=uniform&dseed=5');
  assert.equal(await answered(page), 2);
  assert.match(await page.textContent('[data-drill-progress]'), /已答 2 题/);
  await ctx.close();
});

test('embed.js sizes only frames of the lab’s own origin, capped; a foreign frame marked data-sqrtdk-embed is ignored', async () => {
  const foreign = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<script>setInterval(() => parent.postMessage({ type: "sqrtdk:height", height: 19999 }, "*"), 50)</script>');
  });
  await new Promise((r) => foreign.listen(0, '127.0.0.1', r));
  const fo = `http://127.0.0.1:${foreign.address().port}`;
  const ctx = await browser.newContext(DESKTOP);
  // a page of the lab's own origin that reports an absurd height
  await ctx.route(`${srv.url}tall.html`, (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<script>setInterval(() => parent.postMessage({ type: "sqrtdk:height", height: 50000 }, "*"), 50)</script>' }));
  const host = await hostPage(`<!doctype html><iframe id="foreign" data-sqrtdk-embed src="${fo}/x.html" height="300"></iframe>`
    + `<iframe id="tall" data-sqrtdk-embed src="${srv.url}tall.html" height="300"></iframe><script src="${srv.url}embed.js"></script>`);
  try {
    const page = await ctx.newPage();
    await page.goto(host.url);
    await page.waitForFunction(() => document.getElementById('tall').hasAttribute('data-sqrtdk-sized'), null, { timeout: 10000 });
    assert.equal(await page.getAttribute('#tall', 'data-sqrtdk-sized'), '12000', 'capped');
    await page.waitForTimeout(300);
    assert.equal(await page.getAttribute('#foreign', 'data-sqrtdk-sized'), null);
    assert.equal(await page.$eval('#foreign', (f) => f.getBoundingClientRect().height), 304, 'the foreign frame keeps its own height');
  } finally {
    await host.close();
    foreign.close();
    await ctx.close();
  }
});

test('kernel=simd where the engine has no SIMD128: the scalar kernel with a notice, and numbers', async () => {
  const ctx = await browser.newContext(DESKTOP);
  // the page's feature test says no SIMD128 (wasm-feature-detect asks WebAssembly.validate)
  await ctx.addInitScript(() => { WebAssembly.validate = () => false; });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=precision&kernel=simd');
  await page.waitForSelector('[data-notice="kernel-fallback"]');
  assert.match(await page.textContent('[data-notice="kernel-fallback"]'), /no WebAssembly SIMD128: the scalar kernel is used/);
  await panelSettled(page, 'precision', 30000);
  assert.equal(await page.getAttribute('html', 'data-engine'), 'scalar');
  await page.waitForFunction(() => /kernel=scalar/.test(location.hash));
  assert.deepEqual(await page.$$eval('[data-err-for]', (els) => els.map((e) => e.textContent).filter(Boolean)), []);
  await ctx.close();
});

/** Starts recording the page's long tasks (PerformanceObserver 'longtask', ms) into window.__longTasks. */
const recordLongTasks = (page) => page.evaluate(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
});
const longTasks = (page) => page.evaluate(() => window.__longTasks);

test('a 2 MiB drill store (150,000 answers, as any page of a shared origin may write) is read in bounded time: ignored with a notice, and an answer makes no task over 50 ms', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=variance');
  const chars = await page.evaluate(() => {
    const answered = {};
    for (let i = 0; i < 150000; i++) answered[`std:${i}`] = 1;
    localStorage.setItem('sqrtdk-drill-v1', JSON.stringify({ answered }));
    return localStorage.getItem('sqrtdk-drill-v1').length;
  });
  assert.ok(chars > 2 * 1024 * 1024, `${chars} characters`);
  await page.goto(srv.url + '#v=1&exp=interview&dq=uniform&dseed=3');
  await page.reload();
  await page.waitForSelector('[data-drill-form][data-q]');
  await page.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1', null, { timeout: 60000 });
  assert.equal(await page.isVisible('[data-drill-ignored]'), true);
  assert.match(await page.textContent('[data-drill-ignored]'), /more than this page reads \(over 5,000 answers or 256 KiB/);
  assert.equal(await answered(page), 0, 'a store past the bound is not read');
  await page.waitForTimeout(500);
  await recordLongTasks(page);
  await page.check('[data-drill-option="0"]');
  await page.click('[data-drill-reveal]');
  await page.waitForSelector('[data-drill-score]', { timeout: 30000 });
  await page.waitForTimeout(300);
  const long = await longTasks(page);
  console.log(`# long tasks of a drill answer with a ${chars}-character store: ${JSON.stringify(long)}`);
  assert.deepEqual(long.filter((ms) => ms > 50), [], 'no task over 50 ms');
  assert.equal(await answered(page), 1);
  // the store now holds what was read and the answer
  const score = Number(await page.getAttribute('[data-drill-score]', 'data-drill-score'));
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('sqrtdk-drill-v1')).answered), { 'uniform:3': score });
  // a store within 256 KiB with 6,000 answers: its first 5,000 count, with the notice
  await page.evaluate(() => {
    const answered = {};
    for (let i = 0; i < 6000; i++) answered[`std:${i}`] = 1;
    localStorage.setItem('sqrtdk-drill-v1', JSON.stringify({ answered }));
  });
  await page.reload();
  await page.waitForSelector('[data-drill-form][data-q]');
  await page.waitForFunction(() => Number(document.querySelector('[data-drill-progress]')?.dataset.answered) === 5000, null, { timeout: 10000 });
  assert.equal(await page.isVisible('[data-drill-ignored]'), true);
  await ctx.close();
});

test('a 5 MiB CSV of own tensors is read off the page’s thread: no task over 50 ms while Q and K are read and computed', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=tensors');
  await panelSettled(page, 'tensors', 30000);
  // [512, 1024] of numbers with 7 decimals (a linear congruential generator): 5.5 MiB each
  const csv = (seed) => {
    let x = seed;
    const rows = [];
    for (let i = 0; i < 512; i++) {
      const r = [];
      for (let j = 0; j < 1024; j++) { x = (x * 1103515245 + 12345) % 2147483648; r.push(((x / 2147483648) * 4 - 2).toFixed(7)); }
      rows.push(r.join(','));
    }
    return Buffer.from(rows.join('\n'));
  };
  const q = csv(1), k = csv(2);
  assert.ok(q.length > 5 * 1024 * 1024, `${q.length} bytes`);
  // files on disk, as a reader picks them (a buffer would be built into a File by a script on the page's thread)
  const dir = mkdtempSync(path.join(tmpdir(), 'sqrtdk-csv-'));
  writeFileSync(path.join(dir, 'q.csv'), q);
  writeFileSync(path.join(dir, 'k.csv'), k);
  await page.waitForTimeout(500);
  await recordLongTasks(page);
  await page.setInputFiles('[data-panel="tensors"] input[data-slot="q"]', path.join(dir, 'q.csv'));
  await page.waitForFunction(() => /q\.csv · csv · \[512, 1024\]/.test(document.querySelector('[data-panel="tensors"]').textContent), null, { timeout: 30000 });
  await page.setInputFiles('[data-panel="tensors"] input[data-slot="k"]', path.join(dir, 'k.csv'));
  await page.waitForFunction(() => /k\.csv · csv · \[512, 1024\]/.test(document.querySelector('[data-panel="tensors"]').textContent), null, { timeout: 30000 });
  // the diagnostics of the files drawn (the text names their shapes)
  await page.waitForFunction(() => /\[512, 1024\]/.test(document.querySelector('[data-panel="tensors"] .explain')?.textContent ?? ''), null, { timeout: 120000 });
  await panelSettled(page, 'tensors', 120000);
  await page.waitForTimeout(300);
  const long = await longTasks(page);
  console.log(`# long tasks while two ${q.length}-byte CSV files were read and computed: ${JSON.stringify(long)}`);
  assert.deepEqual(long.filter((ms) => ms > 50), [], 'no task over 50 ms');
  rmSync(dir, { recursive: true, force: true });
  await ctx.close();
});

test('the <sqrtdk-lab> element caps a reported height as embed.js does (one cap, 12,000 px)', async () => {
  const ctx = await browser.newContext(DESKTOP);
  // a page of the lab's own origin that reports a height over the cap, then one under it
  await ctx.route(`${srv.url}tall.html`, (r) => r.fulfill({ status: 200, contentType: 'text/html',
    body: '<script>window.reported = 15000; setInterval(() => parent.postMessage({ type: "sqrtdk:height", height: window.reported }, "*"), 50)</script>' }));
  const host = await hostPage(`<!doctype html><sqrtdk-lab id="el" site="${srv.url}tall.html" exp="saturation"></sqrtdk-lab>`
    + `<iframe id="fr" data-sqrtdk-embed src="${srv.url}tall.html" height="300"></iframe>`
    + `<script src="${srv.url}sqrtdk-lab.js"></script><script src="${srv.url}embed.js"></script>`);
  try {
    const page = await ctx.newPage();
    await page.goto(host.url);
    await page.waitForFunction(() => document.getElementById('el').hasAttribute('data-sized') && document.getElementById('fr').hasAttribute('data-sqrtdk-sized'), null, { timeout: 10000 });
    assert.equal(await page.getAttribute('#el', 'data-sized'), '12000', 'the element caps it');
    assert.equal(await page.getAttribute('#fr', 'data-sqrtdk-sized'), '12000', 'embed.js caps it');
    // a height under the cap is taken as it is (each frame reports 15,000 until told otherwise: on a
    // loaded machine a fixed count of tall reports could end before both hosts had sized the frame)
    for (const f of page.frames().filter((f) => f.url().includes('tall.html'))) await f.evaluate(() => { window.reported = 900; });
    await page.waitForFunction(() => document.getElementById('el').getAttribute('data-sized') === '900', null, { timeout: 10000 });
    for (const f of ['embed.js', 'sqrtdk-lab.js']) assert.match(readFileSync(path.join(dist, f), 'utf8'), /MAX_HEIGHT = 12000;/, f);
  } finally {
    await host.close();
    await ctx.close();
  }
});

/** The page's own entry script (its name changes with each deployment's hashes). */
const entryScript = (page) => page.evaluate(() => document.querySelector('script[type="module"][src]')?.getAttribute('src') ?? '');

/** Deploys `next` under the open page and waits until its service worker is installed and waiting. */
async function deployWaiting(page, next) {
  srv.setRoot(next);
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    await reg.update();
    const sw = reg.installing ?? reg.waiting;
    if (sw && sw.state !== 'installed') await new Promise((r) => sw.addEventListener('statechange', () => sw.state === 'installed' && r()));
  });
}

test('a new version is taken by a plain reload once no other page holds the old one, else the notice says why; the reader’s own address is not flagged as another core’s link', async () => {
  const deploy = renamedDeploy();
  // a real deployment's pages are new files: their precache revisions change with them
  const swFile = path.join(deploy.next, 'sw.js');
  writeFileSync(swFile, readFileSync(swFile, 'utf8').replace(/revision:"([0-9a-f]+)"/g, (_, r) => `revision:"${r}0"`));
  const ctx = await browser.newContext(DESKTOP);
  try {
    const page = await ctx.newPage();
    await page.goto(srv.url + '#v=1&exp=saturation');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    const other = await ctx.newPage();
    await other.goto(srv.url + '#v=1&exp=variance');
    const old = await entryScript(page);
    await deployWaiting(page, deploy.next);
    // another page of the site holds the old version: a reload stays on it, and the notice says why
    await page.reload();
    await page.waitForSelector('[data-notice="update"][data-others="1"]', { timeout: 30000 });
    assert.match(await page.textContent('[data-notice="update"]'), /1 other page\(s\) of the lab open in this browser still use this version/);
    assert.equal(await entryScript(page), old);
    // the other page closed: the next plain reload takes the new version (the page counts itself
    // alone, the waiting worker skips waiting, the page reloads into it)
    await other.close();
    await page.reload();
    await page.waitForFunction(() => /Nx/.test(document.querySelector('script[type="module"][src]')?.getAttribute('src') ?? ''), null, { timeout: 15000 });
    await page.waitForSelector('[data-panel="saturation"]', { timeout: 15000 });
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null), null, 'nothing waits any more');
    assert.equal(await page.$('[data-notice="update"]'), null, 'no update notice');
    // the reader's own address as a page of an older core wrote it (cv of that core), reloaded: not flagged
    // (as that page's address writer left it: the entry names the address and the full state it wrote)
    await page.evaluate(() => {
      const old = (h) => h.replace(/cv=[^&]*/, 'cv=0.3.0');
      const address = old(location.hash);
      history.replaceState({ ...history.state, address, full: old(history.state?.full ?? address) }, '', address);
    });
    assert.match(await page.evaluate(() => location.hash), /cv=0\.3\.0/);
    await page.reload();
    // the page writes its own core's version into the address once it has read the state
    await page.waitForFunction((v) => location.hash.includes(`cv=${v}`), CORE_VERSION, { timeout: 15000 });
    await page.waitForSelector('[data-panel="saturation"]', { timeout: 15000 });
    assert.equal(await page.$('[data-notice="core-version"]') === null, true, 'the reader’s own address is not flagged');
    // the same address opened as a link in a new tab is a link of another core: flagged
    const link = await ctx.newPage();
    await link.goto(srv.url + '#v=1&exp=saturation&cv=0.3.0');
    await link.waitForSelector('[data-notice="core-version"][data-made="0.3.0"]', { timeout: 15000 });
    assert.equal(await page.$('[data-notice="core-version"]') === null, true, 'still not flagged on the reloaded page');
  } finally {
    srv.setRoot(dist);
    await ctx.close();
    deploy.cleanup();
  }
});
