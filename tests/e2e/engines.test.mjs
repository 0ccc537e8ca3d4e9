// Browser tests in the other engines a shared link opens in, a focused layer beside the Chromium
// suite: Debian's Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK, the engine family
// of Safari and every iOS browser (WebKitWebDriver under Xvfb, selenium-webdriver), one session per
// engine for every check. Each view's readouts and the data table of its first chart (the rows of
// its CSV), a training run's numbers and charts, the interview's live numbers, a plain and a
// sandboxed embed (sandbox="allow-scripts", origin "null") on another host, and a reload offline,
// each compared digit for digit with Chromium's; no console error in any of them.
// The site is served as `npm start` serves it (tests/e2e/server.mjs `site`: the CSP names the
// origin); a small error-capture script, which that CSP allows, stands in for the console events
// WebKitWebDriver does not offer (no BiDi). Run after `npm run build`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { DIST, launch, hostPage } from './browser.mjs';
import { serve } from './server.mjs';
import { PANELS } from '../../web/src/state/schema.js';

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const VIEWPORT = { width: 1280, height: 900 };

/** The views checked apart, and why (every other view of the schema's PANELS is checked below, so a new view joins by itself). */
const APART = {
  training: 'its own run below (a fresh load, two variants, 24 steps)',
  followups: 'no chart or number before the reader acts (a list of links into the other views)',
  device: 'its numbers are timings of this machine, not results to compare',
};
/** Keys that keep a view light (views.test.mjs's LIGHT): the wild view at its shortest L. */
const LIGHT = { wild: '&wlen=256' };
/** Every view with a chart or live numbers at load, from the one list of views, variance first (the first view, loaded fresh). */
const VIEWS = ['variance', ...PANELS.filter((p) => p !== 'variance' && !(p in APART))].map((p) => [p, LIGHT[p] ?? '']);
const TRAINING = '#v=1&exp=training&lang=en&trsteps=24&trvar=none,inv_sqrt_dk&trseed=3';
/** The view whose every chart's CSV is compared: its histograms hold a JS-drawn curve (the N(0, σ²) density). */
const CSV_VIEW = 'variance';

/** The script the test server puts first in every page: page errors, rejections, console.error and CSP violations. */
const CAPTURE = `window.__engineErrors = [];
addEventListener('error', function (e) { if (e.message) __engineErrors.push(e.message); });
addEventListener('unhandledrejection', function (e) { __engineErrors.push('unhandled rejection: ' + String(e.reason && e.reason.message || e.reason)); });
addEventListener('securitypolicyviolation', function (e) { __engineErrors.push('CSP ' + e.violatedDirective + ' blocked ' + e.blockedURI); });
(function () { var ce = console.error; console.error = function () { __engineErrors.push([].map.call(arguments, String).join(' ')); return ce.apply(this, arguments); }; })();
`;

/**
 * What a view shows once it has settled (run in the page; null until then): its readouts and the
 * rows of its first chart's data table (opened by its button: exactly the rows of the CSV); every
 * chart's with `all`; the interview's live numbers; the training run's numbers; or the page's notice
 * that its core did not load.
 */
function probe([panel, all]) {
  const failed = [...document.querySelectorAll('[role="status"], [role="alert"]')].map((x) => x.textContent).find((x) => /core did not load \(attempt [2-9]|could not be loaded/.test(x));
  if (failed) return { failed };
  const root = document.querySelector(`[data-panel="${panel}"]`);
  if (!root) return null;
  const thread = document.documentElement.dataset.coreThread ?? null;
  if (panel === 'interview') {
    if (root.dataset.liveDone !== '1') return null;
    return { thread, live: Object.fromEntries([...root.querySelectorAll('[data-live]')].map((e) => [e.dataset.live, e.dataset.value])) };
  }
  if (panel === 'training' && root.dataset.training !== 'done') return null;
  if (root.dataset.pending !== undefined && root.dataset.pending !== '0') return null;
  const boxes = [...root.querySelectorAll('[data-chart-box]')].filter((b) => b.closest('[hidden]') === null);
  if (boxes.length === 0 || !boxes.every((b) => !b.classList.contains('pending') && !b.classList.contains('refining') && Number(b.dataset.points) > 0)) return null;
  const ros = [...root.querySelectorAll('[data-readout]')];
  if (!ros.every((r) => r.textContent !== '–' && r.textContent !== '')) return null;
  const tables = {}, csv = {};
  for (const b of all ? boxes : boxes.slice(0, 1)) {
    const id = b.dataset.chartBox;
    const box = document.getElementById(`table-${id}`);
    if (box.hidden) { document.querySelector(`[aria-controls="table-${id}"]`).click(); return null; }
    const rows = [...box.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent).join(','));
    if (rows.length < 2) return null;
    tables[id] = rows;
    // the CSV export's text, from the code path of its button (ChartBox.csvText; the download itself is
    // not read back: WebKitWebDriver offers no download directory)
    csv[id] = b.sqrtdkChartBox?.csvText?.() ?? null;
    if (typeof csv[id] !== 'string' || csv[id].split('\n').length < 2) return null;
  }
  const out = { thread, readouts: Object.fromEntries(ros.map((e) => [e.dataset.readout, e.textContent])), tables, csv };
  if (panel === 'training') {
    const n = (x) => (Number.isFinite(x) ? x : String(x));
    out.runs = window.__sqrtdkTraining.session.runs.map((r) => ({ variant: r.variant, loss: r.loss.map(n), gradNorm: r.gradNorm.map(n), evaluation: r.evaluation }));
  }
  return out;
}

/** The widths of "·" and "√" at 40 px in English and in Chinese text of the page (run in the page). */
async function signWidths() {
  await document.fonts.load('40px "sqrtdk-latin-signs"', '·√');
  const out = {};
  for (const lang of ['en', 'zh-CN']) {
    const s = document.createElement('span');
    s.lang = lang;
    s.style.cssText = 'position:absolute;left:0;top:0;font-size:40px;white-space:pre;visibility:hidden';
    document.body.append(s);
    out[lang] = ['·', '√', '··√√'].map((c) => { s.textContent = c; return s.getBoundingClientRect().width; });
    s.remove();
  }
  return out;
}

const hashOf = ([view, keys]) => `#v=1&exp=${view}&lang=en${keys}`;

// ---------- the engines ----------

/** Chromium through playwright-core: the reference. */
async function openChromium() {
  const browser = await launch();
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  context.on('page', (p) => p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); }));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  const frameOf = async (sel) => (sel ? (await page.$(sel)).contentFrame() : page.mainFrame());
  return {
    name: 'chromium',
    goto: async (url) => { await page.goto('about:blank'); await page.goto(url); },
    eval: async (fn, arg, frame) => (await frameOf(frame)).evaluate(fn, arg),
    wait: async (fn, arg, timeout, frame) => (await (await frameOf(frame)).waitForFunction(fn, arg, { timeout, polling: 100 })).jsonValue(),
    errors: async () => errors.splice(0),
    close: () => browser.close(),
  };
}

/** Firefox ESR through puppeteer-core (WebDriver BiDi: console and page errors as events; no geckodriver). */
async function openFirefox() {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  const page = await browser.newPage();
  await page.setViewport(VIEWPORT);
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  const frameOf = async (sel) => (sel ? (await page.$(sel)).contentFrame() : page.mainFrame());
  return {
    name: 'firefox',
    goto: async (url) => { await page.goto('about:blank'); await page.goto(url); },
    eval: async (fn, arg, frame) => (await frameOf(frame)).evaluate(fn, arg),
    wait: async (fn, arg, timeout, frame) => (await (await frameOf(frame)).waitForFunction(fn, { timeout, polling: 100 }, arg)).jsonValue(),
    errors: async () => errors.splice(0),
    close: () => browser.close(),
  };
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Waits until something listens on the port. */
async function listening(port, timeout = 15000) {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise((r) => { const c = net.connect(port, '127.0.0.1', () => { c.end(); r(true); }); c.on('error', () => r(false)); });
    if (ok) return;
    if (Date.now() - t0 > timeout) throw new Error(`nothing listens on port ${port} after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver under its own Xvfb display (the driver has no
 * headless mode and hangs without a display). No BiDi: errors are read from the page's capture
 * script before each navigation.
 */
async function openWebKit() {
  const { Builder, By } = await import('selenium-webdriver');
  const children = [];
  const kill = () => { for (const c of children.reverse()) if (c.exitCode === null) c.kill(); };
  try {
    // -displayfd: Xvfb picks a free display and writes its number to fd 3
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${VIEWPORT.width}x${VIEWPORT.height + 100}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    children.push(xvfb);
    const display = await new Promise((resolve, reject) => {
      let out = '';
      xvfb.stdio[3].on('data', (d) => { out += d; if (out.includes('\n')) resolve(`:${out.trim()}`); });
      xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it named its display`)));
      setTimeout(() => reject(new Error('Xvfb named no display within 10 s')), 10000);
    });
    const port = await freePort();
    children.push(spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } }));
    await listening(port);
    const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } }).build();
    await driver.manage().window().setRect({ width: VIEWPORT.width, height: VIEWPORT.height }).catch(() => {});
    const errors = [];
    const within = async (frame, f) => {
      if (frame) await driver.switchTo().frame(await driver.findElement(By.css(frame)));
      try { return await f(); } finally { if (frame) await driver.switchTo().defaultContent(); }
    };
    const collect = async () => {
      const found = await driver.executeScript(() => (window.__engineErrors ?? []).splice(0)).catch(() => []);
      errors.push(...(found ?? []));
    };
    return {
      name: 'webkit',
      // a URL that differs only in its hash does not load the page again: about:blank between
      goto: async (url) => { await collect(); await driver.get('about:blank'); await driver.get(url); },
      eval: (fn, arg, frame) => within(frame, () => driver.executeScript(fn, arg)),
      wait: (fn, arg, timeout, frame) => within(frame, () => driver.wait(() => driver.executeScript(fn, arg), timeout, `${fn.name || 'condition'} not met within ${timeout} ms`)),
      errors: async (frames = []) => {
        await collect();
        for (const f of frames) errors.push(...await within(f, () => driver.executeScript(() => (window.__engineErrors ?? []).splice(0))));
        return errors.splice(0);
      },
      close: async () => { try { await driver.quit(); } finally { kill(); } },
    };
  } catch (e) {
    kill();
    throw e;
  }
}

// ---------- the checks ----------

let srv;
const reference = {};
const timings = [];

before(async () => {
  assert.ok(existsSync(DIST + 'index.html'), 'dist/ is missing: run `npm run build` first');
  srv = await serve(DIST, { prefix: '/', site: true, headScript: CAPTURE });
});
after(async () => {
  await srv?.close();
  if (timings.length) console.log('engines layer:\n' + timings.join('\n'));
});

/**
 * What each view shows ({view: probe}): the first on a fresh load, the others switched to in the
 * same page by their link's hash (as a tab does: the core is compiled once per engine), the
 * training run and the CSV view on fresh loads.
 */
async function views(e) {
  const out = {};
  const took = [];
  let t = Date.now();
  const lap = (what) => { took.push(`${what} ${((Date.now() - t) / 1000).toFixed(1)}`); t = Date.now(); };
  // fresh loads open the view's share page, the link Copy link gives (a root link naming a view is
  // sent there by the old-link script before the root paints: first-screen.test.mjs, in Chromium)
  await e.goto(`${srv.url}p/${VIEWS[0][0]}/${hashOf(VIEWS[0])}`);
  for (const v of VIEWS) {
    if (v !== VIEWS[0]) await e.eval((hash) => { location.hash = hash; }, hashOf(v));
    out[v[0]] = await e.wait(probe, [v[0], v[0] === CSV_VIEW], 90000);
    lap(v[0]);
  }
  await e.goto(`${srv.url}p/training/${TRAINING}`);
  out.training = await e.wait(probe, ['training', true], 120000);
  lap('training');
  out.signs = await e.eval(signWidths);
  timings.push(`${e.name} views (s): ${took.join(', ')}`);
  return out;
}

const column = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
  <style>body{margin:0;font:16px serif}main{width:720px;margin:0 auto}iframe{display:block;border:0}</style></head><body><main><h1>A post</h1>${body}</main></body></html>`;
const EMBEDS = [['plain', 'saturation', ''], ['sandboxed', 'variance', 'sandbox="allow-scripts"']];

/**
 * A host page on another origin with a plain and a sandboxed embed and the lab's embed.js, which
 * sizes both (and posts to no frame still on about:blank); what each frame shows.
 */
async function embeds(e) {
  const host = await hostPage(column(EMBEDS.map(([kind, view, attrs]) =>
    `<h2>${kind}</h2><iframe ${attrs} data-sqrtdk-embed data-case="${kind}" src="${srv.url}#v=1&exp=${view}&lang=en&embed=1" width="100%" height="700"></iframe>`).join('\n')
    + `<script src="${srv.url}embed.js" async></script>`));
  try {
    await e.goto(host.url);
    const out = {};
    for (const [kind, view] of EMBEDS) {
      await e.eval((sel) => document.querySelector(sel).scrollIntoView(), `iframe[data-case="${kind}"]`);
      out[kind] = await e.wait(probe, [view, false], 90000, `iframe[data-case="${kind}"]`);
      out[kind].origin = await e.eval(() => self.origin, undefined, `iframe[data-case="${kind}"]`);
      out[kind].sized = await e.wait((sel) => Number(document.querySelector(sel).dataset.sqrtdkSized ?? 0), `iframe[data-case="${kind}"]`, 30000);
    }
    out.errors = await e.errors(EMBEDS.map(([kind]) => `iframe[data-case="${kind}"]`));
    return out;
  } finally {
    await host.close();
  }
}

/**
 * A sandboxed embed from a host that sends CORS headers but serves the build's HTML as it is (no
 * SITE_URL: its CSP names no origin): what the frame shows after 5 s.
 */
async function bareSandbox(e) {
  const bare = await serve(DIST, { prefix: '/' });
  const host = await hostPage(column(`<iframe sandbox="allow-scripts" data-case="bare" src="${bare.url}#v=1&exp=variance&lang=en&embed=1" width="100%" height="600"></iframe>`));
  try {
    await e.goto(host.url);
    await new Promise((r) => setTimeout(r, 5000));
    return await e.eval(() => ({ started: document.querySelector('[data-panel]') !== null, message: document.querySelector('[data-boot-late] p')?.textContent ?? '' }), undefined, 'iframe[data-case="bare"]');
  } finally {
    await host.close();
    await bare.close();
  }
}

/**
 * After one visit, the server gone: a reload draws the view from the service worker's precache.
 * Returns the view's probe, or a reason the engine cannot be checked here.
 */
async function offline(e) {
  const off = await serve(DIST, { prefix: '/off/', site: true, headScript: CAPTURE });
  let closed = false;
  try {
    const url = `${off.url}p/saturation/#v=1&exp=saturation&lang=en`;
    await e.goto(url);
    await e.wait(probe, ['saturation', false], 60000);
    if (!await e.eval(() => 'serviceWorker' in navigator && window.isSecureContext)) return { skip: `${e.name} offers no service worker to this page under automation` };
    // the service worker registers in idle time after the first chart (10 s at the latest) and controls once its precache is complete
    const controlled = await e.wait(() => navigator.serviceWorker.controller !== null, undefined, 60000).then(() => true, () => false);
    if (!controlled) return { skip: `${e.name}: the service worker did not control the page within 60 s under automation` };
    await off.close();
    closed = true;
    await e.goto(url);
    // the view, or the page's notice that its core could not be loaded
    // WebKitGTK: three module workers started at once on an offline reload (the old pool's size at
    // hardwareConcurrency 4) failed to load the core, and every worker the page started after them
    // had its own requests go to the network, not to the service worker; the growing pool
    // (worker/pool-size.ts) starts one, then one more as calls wait, and loads it from the precache
    const r = await e.wait(probe, ['saturation', false], 60000);
    assert.equal(r.failed, undefined, `${e.name} offline: ${r.failed}`);
    return { shown: r };
  } finally {
    if (!closed) await off.close();
  }
}

test('chromium (the reference): every view, a training run, two embeds', async () => {
  const t0 = Date.now();
  const e = await openChromium();
  try {
    Object.assign(reference, await views(e));
    assert.deepEqual(reference.signs['zh-CN'], reference.signs.en, 'chromium: widths of ·, √ and ··√√ at 40 px in Chinese and English');
    reference.embeds = await embeds(e);
    assert.deepEqual(await e.errors(), []);
  } finally {
    await e.close();
  }
  timings.push(`chromium (reference): ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

for (const [name, open] of [['firefox', openFirefox], ['webkit', openWebKit]]) {
  test(`${name}: every view, a training run and embeds give Chromium's readouts and data tables; offline reload`, async (t) => {
    assert.ok(reference.variance, 'the Chromium reference ran first');
    const t0 = Date.now();
    const e = await open();
    try {
      const shown = await views(e);
      const compared = { readouts: 0, csvRows: 0 };
      await t.test('every view: the readouts and the first chart’s data table (CSV rows) are Chromium’s', () => {
        for (const [view] of VIEWS) {
          const [got, want] = [shown[view], reference[view]];
          assert.equal(got.thread, 'worker', `${name} ${view}: computed in workers`);
          if (view === 'interview') {
            assert.ok(Object.keys(want.live).length >= 10, JSON.stringify(want.live));
            assert.deepEqual(got.live, want.live, `${name} interview: every live number`);
            compared.readouts += Object.keys(want.live).length;
            continue;
          }
          assert.ok(Object.keys(want.readouts).length >= 1, `${view}: readouts ${JSON.stringify(want.readouts)}`);
          assert.deepEqual(got.readouts, want.readouts, `${name} ${view}: readouts`);
          const first = Object.keys(want.tables)[0];
          assert.deepEqual(got.tables[first], want.tables[first], `${name} ${view}: the first chart's data table`);
          assert.equal(got.csv[first], want.csv[first], `${name} ${view}: the first chart's CSV text`);
          compared.readouts += Object.keys(want.readouts).length;
          compared.csvRows += want.csv[first].split('\n').length;
        }
      });
      await t.test('a training run: every loss, gradient norm and evaluation, and every chart’s data table', () => {
        assert.equal(shown.training.runs.length, 2);
        assert.deepEqual(shown.training.runs, reference.training.runs);
        assert.deepEqual(shown.training.readouts, reference.training.readouts);
        assert.deepEqual(shown.training.tables, reference.training.tables);
        compared.readouts += Object.keys(reference.training.readouts).length;
      });
      await t.test('every chart’s CSV of a view with JS-drawn densities (variance) is Chromium’s, row for row', () => {
        const ids = Object.keys(reference[CSV_VIEW].tables);
        assert.ok(ids.length >= 2, ids.join());
        for (const id of ids) {
          assert.deepEqual(shown[CSV_VIEW].tables[id], reference[CSV_VIEW].tables[id], `${name} ${id}: data table`);
          assert.equal(shown[CSV_VIEW].csv[id], reference[CSV_VIEW].csv[id], `${name} ${id}: CSV text`);
          // the CSV's rows are the data table's rows (header included), in its own quoting
          assert.equal(shown[CSV_VIEW].csv[id].split('\n').filter((l) => l !== '').length, shown[CSV_VIEW].tables[id].length, `${name} ${id}: CSV rows`);
        }
      });
      await t.test('in Chinese text, "·" and "√" are the glyphs of English text', () => {
        assert.deepEqual(shown.signs['zh-CN'], shown.signs.en, `${name}: widths of ·, √ and ··√√ at 40 px`);
      });
      assert.deepEqual(await e.errors(), [], `${name}: console errors over the views`);
      await t.test('a plain and a sandboxed embed (allow-scripts, origin "null") on a host with CORS headers', async () => {
        const got = await embeds(e);
        assert.equal(got.sandboxed.origin, 'null');
        assert.notEqual(got.plain.origin, 'null');
        assert.equal(got.sandboxed.thread, 'worker', 'the sandboxed embed computes in workers');
        for (const [kind] of EMBEDS) assert.ok(got[kind].sized > 300, `${name} ${kind}: embed.js sized the frame (${got[kind].sized} px)`);
        for (const [kind] of EMBEDS) {
          assert.deepEqual(got[kind].readouts, reference.embeds[kind].readouts, `${name} ${kind} embed: readouts`);
          assert.deepEqual(got[kind].tables, reference.embeds[kind].tables, `${name} ${kind} embed: data table`);
        }
        assert.deepEqual(got.errors, [], `${name}: console errors of the host page and its frames`);
        timings.push(`${name} sandboxed embed (variance): ${JSON.stringify(got.sandboxed.readouts)}`);
      });
      if (name === 'webkit') {
        await t.test('a sandboxed embed of a build whose CSP names no origin does not start in WebKit, and its message names that cause beside CORS', async () => {
          const got = await bareSandbox(e);
          assert.equal(got.started, false);
          assert.match(got.message, /WebKit browser a sandboxed frame also needs a build whose Content-Security-Policy names the site’s origin/);
        });
      }
      await t.test('offline: a reload with the server gone draws the view from the service worker', async (st) => {
        const r = await offline(e);
        if (r.skip) { st.skip(r.skip); timings.push(`${name} offline: skipped (${r.skip})`); return; }
        assert.deepEqual(r.shown.readouts, reference.saturation.readouts);
        assert.deepEqual(r.shown.tables, reference.saturation.tables);
        timings.push(`${name} offline reload: the saturation view's ${Object.keys(r.shown.readouts).length} readouts`);
      });
      timings.push(`${name}: ${VIEWS.length} views (${VIEWS.map((v) => v[0]).join(', ')}) and a training run, ${compared.readouts} readouts and live numbers and ${compared.csvRows} CSV rows of first charts equal to Chromium's; 2 embeds, offline; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      await e.close();
    }
  });
}
