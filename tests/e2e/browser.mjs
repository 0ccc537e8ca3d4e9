// Shared set-up of the browser tests and bench:ui: Debian's Chromium through playwright-core,
// with every network request outside the local server recorded.
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built site the browser suites serve. */
export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Debian's Chromium. `serviceWorkers` is the default of its contexts and pages ('allow', as a
 * reader's browser; a context may still pass its own): the test suites block them, since a fresh
 * context that lets the site register its worker also downloads its precache (113 files), about
 * 1–1.4 s of CPU per context on two cores; the files about the service worker (offline, faults,
 * speed, and the share page's offline test) allow them.
 */
export async function launch({ serviceWorkers = 'allow', env } = {}) {
  // env: the browser process's environment (bench:ui gives it a fresh HOME: a first-time machine's caches)
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, ...(env ? { env } : {}) });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers, ...options });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = (options = {}) => newPage({ serviceWorkers, ...options });
  return browser;
}

/** Records console errors, page errors, dialogs and requests to other hosts of every page of a context. */
export function watch(context, origin) {
  const log = { consoleErrors: [], pageErrors: [], dialogs: [], foreign: [] };
  context.on('page', (page) => attach(page));
  function attach(page) {
    page.on('console', (m) => { if (m.type() === 'error') log.consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => log.pageErrors.push(e.message));
    page.on('dialog', (d) => { log.dialogs.push(d.message()); void d.dismiss(); });
    page.on('request', (r) => {
      const u = r.url();
      if (u.startsWith('data:') || u.startsWith('blob:')) return;
      if (!u.startsWith(origin + '/')) log.foreign.push(u);
    });
  }
  for (const p of context.pages()) attach(p);
  return log;
}

/** Whether every chart of the page is drawn and every readout holds a number (runs in the page). */
export function settledNow() {
  const boxes = [...document.querySelectorAll('[data-chart-box]')];
  if (boxes.length === 0) return false;
  // drawn from full results: no chart still shows a first estimate (class refining)
  const drawn = boxes.every((b) => !b.classList.contains('pending') && !b.classList.contains('refining') && Number(b.dataset.points) > 0);
  const ros = [...document.querySelectorAll('[data-readout]')];
  return drawn && ros.every((r) => r.textContent !== '–' && r.textContent !== '');
}

/** Waits until every chart of the page is drawn and every readout holds a number. */
export async function settled(page, timeout = 30000) {
  await page.waitForFunction(settledNow, null, { timeout, polling: 50 });
}

/**
 * Waits until `predicate` (a function of no arguments, run in the page) is true, by a timer in the
 * page itself: unlike page.waitForFunction, which first compiles Playwright's injected script in
 * the page (a main-thread task of 20–65 ms), it adds no task of its own to what is measured (bench:ui's cold loads).
 */
export function quietWait(page, predicate, timeout = 60000) {
  return page.evaluate(`new Promise((resolve, reject) => {
    const ok = ${predicate.toString()};
    const t0 = performance.now();
    const poll = () => { if (ok()) resolve(true); else if (performance.now() - t0 > ${timeout}) reject(new Error('quietWait: timed out')); else setTimeout(poll, 20); };
    poll();
  })`);
}

export function readouts(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-readout]')].map((e) => [e.dataset.readout, e.textContent])));
}

/** Moves a range control of a panel to a step (index) as a user would (input event). */
export function moveSlider(page, panel, key, index) {
  return page.evaluate(([panel, key, index]) => {
    const input = document.querySelector(`[data-panel="${panel}"] [data-key="${key}"] input[type=range]`);
    input.value = String(index);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, [panel, key, index]);
}

/**
 * The set-up of a browser suite: dist/ served under `prefix`, Chromium (service workers blocked
 * unless `serviceWorkers: 'allow'`), one context with
 * clipboard access, and the watcher of console errors and foreign requests.
 */
export async function openSuite(dist, prefix, { serviceWorkers = 'block' } = {}) {
  const { serve } = await import('./server.mjs');
  const srv = await serve(dist, { prefix });
  const browser = await launch({ serviceWorkers });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.origin });
  const log = watch(context, srv.origin);
  return { srv, browser, context, log, close: async () => { await browser.close(); await srv.close(); } };
}

/**
 * The suite of one test file: node:test hooks that check the build (`needs`, a file of dist/),
 * open the suite under `prefix` (openSuite) before the file's tests and close it after them.
 * Returns the suite's handle (srv, browser, context, log, close: set once it is open); `onOpen`
 * receives it too, for a file that keeps them in variables of its own. Its contexts block service
 * workers unless `serviceWorkers: 'allow'` (launch()).
 */
export function useSuite(prefix, onOpen = () => {}, { needs = 'index.html', missing = 'dist/ is missing: run `npm run build` first', serviceWorkers = 'block' } = {}) {
  const suite = {};
  before(async () => {
    assert.ok(existsSync(DIST + needs), missing);
    Object.assign(suite, await openSuite(DIST, prefix, { serviceWorkers }));
    onOpen(suite);
  });
  after(async () => { await suite.close?.(); });
  return suite;
}

/** Switches the view to a panel as a reader does (its tab; the menu on a phone) and waits for it. */
export async function openPanel(page, panel, timeout = 30000) {
  const tab = page.locator(`[data-nav="${panel}"]`);
  if (await tab.isVisible()) await tab.click();
  else await page.selectOption('[data-nav-menu]', panel);
  await page.waitForSelector(`[data-panel="${panel}"]`, { timeout });
  const { panelSettled } = await import('./panel.mjs');
  if (panel !== 'followups' && panel !== 'training' && panel !== 'device') await panelSettled(page, panel, timeout);
}

/**
 * A static page on another origin (localhost on its own port, while the site is on 127.0.0.1):
 * the blog post that embeds panels. Returns its URL and close().
 */
export async function hostPage(html) {
  const http = await import('node:http');
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://localhost:${server.address().port}/post.html`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) };
}
