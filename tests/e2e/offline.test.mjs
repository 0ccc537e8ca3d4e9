// Browser tests of the Progressive Web App (dist/ served under a sub-path on 127.0.0.1, a secure
// context): the manifest as Chromium reads it (installable, no errors); after one visit the site
// works offline — reload with the network off and every panel draws its charts, the KaTeX fonts
// load, the training lab trains, and an embed in another site's page works too; and a new
// deployment (a second build with another build label) shows "update available — reload"
// without swapping the running page, and the click loads the new build.
// Run with `npm run test:e2e` after `npm run build`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { settled, useSuite, watch, openPanel, CHROMIUM_ARGS } from './browser.mjs';
import { panelSettled } from './panel.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dist = path.join(repo, 'dist/');
const results = path.join(repo, 'test-results');
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
const EMBED_HOST = 'http://localhost:9/host.html';

const suite = useSuite('/deep/sub/path/', undefined, { serviceWorkers: 'allow' });

/** Waits until the page is controlled by the service worker (installed: the precache is complete). */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
}

/** Ids of chart boxes whose canvas has not drawn yet after scrolling each into view. */
async function drawAllCharts(page) {
  const ids = await page.evaluate(() => [...document.querySelectorAll('[data-chart-box]')].map((b) => b.dataset.chartBox));
  for (const id of ids) {
    await page.locator(`[data-chart-box="${id}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => Number(document.querySelector(`canvas[data-chart="${id}"]`)?.dataset.renders ?? 0) >= 1, id, { timeout: 20000 });
  }
  return ids;
}

test('the manifest as Chromium reads it: name, theme colour, icons rendered from the SVG, installable', async () => {
  // installability is not reported in an incognito profile (Playwright's contexts): a real profile
  const profile = mkdtempSync(path.join(tmpdir(), 'sqrtdk-profile-'));
  const persistent = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 } });
  try {
  const page = persistent.pages()[0] ?? await persistent.newPage();
  await page.goto(suite.srv.url);
  await controlled(page);
  const cdp = await persistent.newCDPSession(page);
  const app = await cdp.send('Page.getAppManifest');
  const installability = await cdp.send('Page.getInstallabilityErrors');
  const appId = await cdp.send('Page.getAppId');
  assert.equal(appId.appId, suite.srv.url, 'the app id is the start URL under the sub-path (one app per deployment)');
  assert.deepEqual(app.errors, [], 'manifest parse errors');
  assert.deepEqual(installability.installabilityErrors, [], 'installability errors');
  const manifest = JSON.parse(app.data);
  assert.equal(manifest.short_name, '√dk Lab');
  assert.equal(manifest.theme_color, '#2f6fb0');
  assert.equal(manifest.start_url, './');
  assert.ok(app.url.startsWith(suite.srv.url), `manifest under the sub-path: ${app.url}`);
  // every icon the manifest names is a real image of its declared size
  for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return `${img.naturalWidth}x${img.naturalHeight}`;
    }, icon.src);
    assert.equal(size, icon.sizes, icon.src);
  }
  // the dark theme colour is in the page (the manifest has one theme_color)
  const themes = await page.evaluate(() => [...document.querySelectorAll('meta[name="theme-color"]')].map((m) => `${m.media} ${m.content}`));
  assert.deepEqual(themes, ['(prefers-color-scheme: light) #2f6fb0', '(prefers-color-scheme: dark) #1b3f66']);
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, 'manifest-chromium.json'), JSON.stringify({ url: app.url, errors: app.errors, installabilityErrors: installability.installabilityErrors, appId, parsed: app.parsed ?? null, manifest }, null, 2) + '\n');
  await page.screenshot({ path: path.join(results, 'pwa-online.png') });
  } finally {
    await persistent.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('after one visit: offline reload, every panel draws, the fonts load, the training lab trains', async () => {
  const { context, srv, log } = suite;
  const page = await context.newPage();
  const issued = new Set();  // every request of the first visit (its own, not the offline page's)
  page.on('request', (r) => issued.add(r));
  // when the page registers its service worker, against its first chart drawn from final data
  await page.addInitScript(() => {
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
      window.__swRegisteredAt = performance.now();
      return register.apply(this, args);
    };
  });
  await page.goto(srv.url + '#v=1&exp=variance&trsteps=20&trvar=inv_sqrt_dk,qk_l2&trseed=1');
  await controlled(page);
  await settled(page);
  // the first visit's precache download (113 files) waits for the first chart: on two cores it made
  // the first chart 65–95 ms later and main-thread tasks longer when it ran at the load event
  const { registeredAt, firstFinal } = await page.evaluate(() => ({ registeredAt: window.__swRegisteredAt, firstFinal: (window.__sqrtdkPerf ?? []).find((e) => e.final)?.t }));
  assert.ok(Number.isFinite(registeredAt) && Number.isFinite(firstFinal) && registeredAt > firstFinal, `service worker registered at ${registeredAt} ms, first final chart at ${firstFinal} ms`);

  await context.setOffline(true);
  try {
    // what counts: a request the offline page needed and the precache did not answer. Not one of
    // the first visit still on its way at the reload, nor one aborted (net::ERR_ABORTED: in about
    // half the runs one request of the full core's .wasm is, while the same file is answered from
    // the precache and every panel below computes with it)
    const before = new Set(issued);
    const failed = [], aborted = [];
    page.on('requestfailed', (r) => {
      if (before.has(r)) return;
      const error = r.failure()?.errorText ?? '';
      (error === 'net::ERR_ABORTED' ? aborted : failed).push(`${r.url()} (${error})`);
    });
    await page.reload();
    assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'controlled after the offline reload');
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    await settled(page, 60000);
    // one panel per view: visit every panel through its tab, as a reader does, and draw its charts
    const ids = [];
    for (const panel of ['variance', 'saturation', 'gradient', 'article', 'precision', 'longctx', 'gqa', 'tensors']) {
      if (panel !== 'variance') await openPanel(page, panel, 60000);
      await settled(page, 60000);
      const drawn = await drawAllCharts(page);
      assert.ok(drawn.some((id) => id.startsWith(panel)), `${panel} has a chart`);
      ids.push(...drawn);
    }
    assert.ok(ids.length >= 19, `${ids.length} charts drawn offline`);
    // the KaTeX fonts of the formulas came from the precache
    const fonts = await page.evaluate(async () => { await document.fonts.ready; return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').map((f) => f.family); });
    assert.ok(fonts.includes('KaTeX_Main'), `KaTeX fonts loaded offline: ${fonts.join(', ')}`);
    // the training lab trains offline (its worker and the core come from the precache too)
    // (the view starts its run when it opens: trauto=1)
    await openPanel(page, 'training');
    // (a bound on a hang, not a speed goal: the file runs beside three others on two cores)
    await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 180000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0) > 0);
    await page.locator('[data-chart-box="training-loss"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => Number(document.querySelector('canvas[data-chart="training-loss"]')?.dataset.renders ?? 0) >= 1);
    assert.deepEqual(failed, [], 'no request failed offline');
    if (aborted.length) console.log(`aborted offline (not failures): ${aborted.join(', ')}`);
    await page.screenshot({ path: path.join(results, 'pwa-offline.png') });
  } finally {
    await context.setOffline(false);
  }
  assert.deepEqual(log.consoleErrors, []);
  assert.deepEqual(log.pageErrors, []);
  assert.deepEqual(log.foreign, [], 'no request to another host');
  await page.close();
});

test('an embed in another site\'s page works offline once it has been shown there', async () => {
  // The host page is on another site (localhost, the page is on 127.0.0.1), answered by
  // Playwright. Such a page counts as public for Chromium's Local Network Access checks, which
  // would block its iframe to the loopback test server: a browser without those checks, here only.
  const { srv } = suite;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const log = watch(context, srv.origin);
    const hostHtml = `<!doctype html><title>host</title><iframe src="${srv.url}#v=1&embed=1&exp=saturation&dk=32" width="960" height="760"></iframe>`;
    await context.route(EMBED_HOST, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: hostHtml }));
    const host = await context.newPage();
    await host.goto(EMBED_HOST);
    const embed = () => host.frames().find((f) => f.url().startsWith(srv.url));
    assert.ok(embed(), 'the embed frame');
    await embed().waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    await panelSettled(embed(), 'saturation');

    await context.setOffline(true);
    await host.reload();
    assert.ok(embed(), 'the embed frame, offline');
    assert.equal(await embed().evaluate(() => navigator.onLine), false);
    await panelSettled(embed(), 'saturation', 60000);
    const drawn = await embed().evaluate(() => [...document.querySelectorAll('[data-chart-box]')].map((b) => Number(b.dataset.points)));
    assert.ok(drawn.length >= 3 && drawn.every((n) => n > 0), `charts with data: ${drawn}`);
    assert.deepEqual(log.consoleErrors, []);
    assert.deepEqual(log.pageErrors, []);
    assert.deepEqual(log.foreign.filter((u) => u !== EMBED_HOST), [], 'no request to another host');
  } finally {
    await browser.close();
  }
});

test('near-miss addresses with the service worker installed: a share page without its slash is redirected to it; a typo gets the not-found page with a link to the lab', async () => {
  const { browser, srv } = suite;
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: 'en-US' });
  const log = watch(context, srv.origin);
  try {
    const page = await context.newPage();
    await page.goto(srv.url + '#v=1&exp=variance');
    await controlled(page);
    // p/saturation (no trailing slash): the share page, the link's hash kept, its assets loaded
    const failed = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await page.goto(srv.url + 'p/saturation#v=1&exp=saturation&dk=256&seed=3');
    await page.waitForFunction(() => location.pathname.endsWith('/p/saturation/'));
    await panelSettled(page, 'saturation', 60000);
    assert.equal(await page.textContent('[data-panel="saturation"] [data-key="dk"] output'), '256');
    assert.match(await page.evaluate(() => location.hash), /^#v=1&exp=saturation&.*dk=256.*seed=3/);
    assert.deepEqual(failed, [], 'no request of the page failed');
    // the same offline
    await context.setOffline(true);
    await page.goto(srv.url + 'zh-CN/p/gqa#v=1&exp=gqa&hq=16&hkv=4');
    await page.waitForFunction(() => location.pathname.endsWith('/zh-CN/p/gqa/'));
    await page.waitForSelector('[data-panel="gqa"]', { timeout: 60000 });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    // a typo offline, and online a share page no version has (the host has no page there either):
    // the site's not-found page, whose link opens the lab
    for (const [offline, path] of [[true, 'p/saturaton/'], [false, 'p/attention-sinks/']]) {
      await context.setOffline(offline);
      const res = await page.goto(srv.url + path + '#v=1&exp=saturation');
      assert.equal(res.status(), 404, `a typo answers 404 (${offline ? 'offline' : 'online'})`);
      assert.ok(await page.locator('[data-not-found]').count(), 'the site\'s not-found page');
      assert.match(await page.textContent('h1'), /Not a page of √dk Lab/);
      assert.equal(await page.getAttribute('[data-lab-link]', 'href'), srv.url);
    }
    await page.click('[data-lab-link]');
    await page.waitForSelector('[data-panel]', { timeout: 60000 });
    assert.equal(new URL(page.url()).pathname, new URL(srv.url).pathname);
    // the site's own pages and files still come from the precache
    const ok = await page.goto(srv.url + 'p/variance/');
    assert.equal(ok.status(), 200);
    await page.waitForSelector('[data-panel="variance"]', { timeout: 60000 });
    assert.deepEqual(log.pageErrors, []);
  } finally {
    await context.close();
  }
});

test('a new deployment: "update available — reload", no silent swap, the click loads the new build', async () => {
  // a second build of the same source with another build label, as a new deployment would be
  const tmp = mkdtempSync(path.join(tmpdir(), 'sqrtdk-build-'));
  const next = path.join(tmp, 'dist');
  try {
    execFileSync(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', next, '--emptyOutDir', '--logLevel', 'error'],
      { cwd: repo, env: { ...process.env, SQRTDK_BUILD_ID: 'e2e-next' }, stdio: ['ignore', 'ignore', 'inherit'] });
    assert.notEqual(readFileSync(path.join(next, 'sw.js'), 'utf8'), readFileSync(path.join(dist, 'sw.js'), 'utf8'), 'the new build has a new service worker');

    const { srv, browser } = suite;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(srv.url + '#v=1&exp=saturation');
      await controlled(page);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.build), pkg.version);
      await page.evaluate(() => { window.__sqrtdkSameDocument = true; });

      srv.setRoot(next);
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
      await page.waitForSelector('[data-notice="update"]', { timeout: 60000 });
      assert.match(await page.textContent('[data-notice="update"]'), /update of √dk Lab is available.*Reload/s);
      // nothing was swapped under the running page: same document, same build, still computing
      assert.equal(await page.evaluate(() => window.__sqrtdkSameDocument), true);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.build), pkg.version);
      await page.waitForTimeout(1000);
      assert.equal(await page.evaluate(() => window.__sqrtdkSameDocument), true, 'no reload without the click');

      await Promise.all([page.waitForEvent('load', { timeout: 60000 }), page.click('[data-action="reload-update"]')]);
      await page.waitForFunction(() => document.documentElement.dataset.build === 'e2e-next', null, { timeout: 30000 });
      assert.equal(await page.evaluate(() => window.__sqrtdkSameDocument), undefined, 'reloaded');
      await panelSettled(page, 'saturation');
      assert.equal(await page.$('[data-notice="update"]'), null, 'no notice once the new build runs');
    } finally {
      srv.setRoot(dist);
      await context.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
