// Regression tests for defects an adversarial pass found in the one-panel page and its embeds
// (each failed before its fix).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite, openPanel, hostPage } from './browser.mjs';
import { panelSettled } from './panel.mjs';

const DESKTOP = { viewport: { width: 1366, height: 768 } };
let srv, browser, log;
useSuite('/r/', (s) => ({ srv, browser, log } = s));


test('REGRESSION: the embed dialog with no part chosen has nothing to copy; it offers only the parts the panel has', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=article`);
  await page.waitForSelector('[data-panel="article"]');
  await page.click('[data-action="copy-embed"]');
  for (const p of ['controls', 'charts', 'formula', 'text']) await page.uncheck(`[data-embed-part="${p}"]`);
  assert.equal(await page.inputValue('[data-embed-code]'), '');
  assert.equal(await page.isDisabled('[data-embed-copy]'), true);
  assert.match(await page.textContent('dialog[data-embed-dialog] .err'), /at least one part/);
  await page.keyboard.press('Escape');
  // the follow-up questions have neither controls nor a formula: the dialog does not offer them
  await openPanel(page, 'followups');
  await page.click('[data-action="copy-embed"]');
  // the dialog's code loads on its first use: wait for it to show its parts
  await page.waitForSelector('dialog[data-embed-dialog][open] [data-embed-part]');
  assert.deepEqual(await page.$$eval('[data-embed-part]', (els) => els.map((e) => e.dataset.embedPart)), ['charts']);
  await ctx.close();
});

test('REGRESSION: embed.js loaded after the embed has settled still sizes it (it asks for the height)', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=gqa`);
  await page.click('[data-action="copy-embed"]');
  const code = await page.inputValue('[data-embed-code]');
  await page.close();
  const iframe = code.split('\n')[0];
  const script = /<script src="([^"]+)"/.exec(code)[1];
  const host = await hostPage(`<!doctype html><html lang="en"><head><title>late</title></head><body style="margin:0"><main style="width:400px">${iframe}</main></body></html>`);
  try {
    const blog = await ctx.newPage();
    await blog.goto(host.url);
    const frame = await (await blog.$('iframe[data-sqrtdk-embed]')).contentFrame();
    await panelSettled(frame, 'gqa', 60000);
    await blog.waitForTimeout(500);
    assert.equal(await blog.getAttribute('iframe[data-sqrtdk-embed]', 'data-sqrtdk-sized'), null, 'no script yet: the fixed height');
    await blog.evaluate((src) => { const s = document.createElement('script'); s.src = src; document.body.append(s); }, script);
    await blog.waitForFunction(() => document.querySelector('iframe[data-sqrtdk-embed]').hasAttribute('data-sqrtdk-sized'));
    // the frame follows its content (a first answer may come before the 400 px column's relayout)
    await frame.waitForFunction(() => document.documentElement.scrollHeight <= innerHeight, null, { timeout: 10000 }).catch(() => {});
    const m = await frame.evaluate(() => ({ content: document.documentElement.scrollHeight, inner: innerHeight }));
    assert.ok(m.content <= m.inner, `content ${m.content} px in a ${m.inner} px frame`);
  } finally {
    await host.close();
  }
  await ctx.close();
});

test('REGRESSION: a query string in the page address stays out of the snippet and the embed script’s address', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}?utm_source=news/letter#v=1&exp=article`);
  await page.click('[data-action="copy-embed"]');
  const code = await page.inputValue('[data-embed-code]');
  assert.doesNotMatch(code, /utm_source/);
  const script = /<script src="([^"]+)"/.exec(code)[1];
  assert.equal(script, `${srv.url}embed.js`);
  const res = await page.evaluate(async (u) => { const r = await fetch(u); return r.headers.get('content-type'); }, script);
  assert.match(res, /javascript/);
  await ctx.close();
});

test('REGRESSION: a corrected hash clears the embed error and the link notice', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=variance&embed=1&show=`);
  await page.waitForSelector('[data-embed-error]');
  await page.evaluate(() => { location.hash = '#v=1&exp=variance&embed=1'; });
  await panelSettled(page, 'variance');
  assert.equal(await page.$('[data-embed-error]'), null);
  await page.goto(`${srv.url}#v=1&exp=gqa&bogus=1`);
  await page.waitForSelector('[data-notice="parse"]');
  await page.evaluate(() => { location.hash = '#v=1&exp=gqa&hq=16'; });
  await page.waitForFunction(() => document.querySelector('[data-panel="gqa"] [data-key="hq"] select')?.value === '16');
  assert.equal(await page.$('[data-notice="parse"]'), null);
  await ctx.close();
});

test('REGRESSION: Back closes the embed dialog of the panel left, and focus lands on the new panel', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=tensors`);
  await page.waitForSelector('[data-panel="tensors"]');
  await openPanel(page, 'training');
  await page.click('[data-action="copy-embed"]');
  await page.waitForSelector('dialog[data-embed-dialog][open]');
  await page.goBack();
  await page.waitForSelector('[data-panel="tensors"]');
  await page.waitForSelector('dialog[data-embed-dialog]', { state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H2');
  await ctx.close();
});

test('REGRESSION: a switch of the system colour scheme repaints the charts', async () => {
  const ctx = await browser.newContext({ ...DESKTOP, colorScheme: 'light' });
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=article`);
  await panelSettled(page, 'article');
  const corner = () => page.evaluate(() => { const c = document.querySelector('canvas[data-chart="article-entropy"]'); return [...c.getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)]; });
  await page.waitForFunction(() => Number(document.querySelector('canvas[data-chart="article-entropy"]')?.dataset.renders ?? 0) >= 1);
  assert.deepEqual(await corner(), [255, 255, 255]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.waitForFunction(() => { const c = document.querySelector('canvas[data-chart="article-entropy"]'); const d = c.getContext('2d').getImageData(2, 2, 1, 1).data; return d[0] < 60 && d[1] < 60 && d[2] < 60; });
  await ctx.close();
});

test('REGRESSION: a value the schema accepts but a list does not offer is shown in its select, not a blank', async () => {
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=gqa&hq=7&hkv=7`);
  await panelSettled(page, 'gqa');
  assert.equal(await page.inputValue('[data-panel="gqa"] [data-key="hq"] select'), '7');
  assert.equal(await page.$eval('[data-panel="gqa"] [data-key="hq"] select', (s) => s.selectedIndex >= 0), true);
  await ctx.close();
});

test('REGRESSION: a chosen colour scheme stays in the link', async () => {
  const ctx = await browser.newContext(DESKTOP);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.origin });
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=gqa&theme=dark`);
  await panelSettled(page, 'gqa');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.click('[data-action="copy-link"]');
  assert.match(await page.evaluate(() => navigator.clipboard.readText()), /[#&]theme=dark(&|$)/);
  await ctx.close();
});

test('no console errors, no dialogs, no requests to other hosts', () => {
  assert.deepEqual(log.pageErrors, []);
  assert.deepEqual(log.consoleErrors, []);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.foreign, []);
});
