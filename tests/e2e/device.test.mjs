// Browser test of the "your device" panel (lean: one full run, one cancelled run): Run fills the
// chart and the table with finite positive GFLOP/s for each measure (no timing asserted: speed goals
// live in npm run bench); Cancel stops a run and leaves the panel ready; CSV and PNG export the
// numbers shown; the link carries exp=device only; works at 390 px in Chinese; no console error,
// nothing fetched from other hosts. Run after `npm run build`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from './browser.mjs';

let srv, browser, context, log;
useSuite('/lab/', (s) => ({ srv, browser, context, log } = s));

async function downloadOf(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const chunks = [];
  for await (const c of await dl.createReadStream()) chunks.push(c);
  return { name: dl.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

const phase = (page) => page.getAttribute('[data-panel="device"]', 'data-device');

test('device panel: run, the numbers, CSV and PNG; cancel; the link carries no device data', async () => {
  const page = await context.newPage();
  await page.goto(`${srv.url}#v=1&exp=device`);
  await page.waitForSelector('[data-panel="device"] [data-action="device-run"]');
  assert.equal(await phase(page), 'idle');
  assert.equal(await page.isDisabled('[data-action="device-cancel"]'), true);
  // the facts known before a run: the pool size and SIMD128 validation
  await page.waitForFunction(() => document.querySelector('[data-panel="device"]').dataset.simd !== undefined);
  assert.equal(await page.getAttribute('[data-panel="device"]', 'data-simd'), 'true', 'Chromium validates SIMD128');
  const hc = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.match(await page.textContent('[data-readout="dev-pool"]'), new RegExp(`^${Math.max(1, hc - 1)} \\(${hc} logical cores`));

  // a full run
  await page.click('[data-action="device-run"]');
  assert.equal(await phase(page), 'running');
  assert.equal(await page.isDisabled('[data-action="device-run"]'), true);
  await page.waitForFunction(() => document.querySelector('[data-panel="device"]')?.dataset.device === 'done', null, { timeout: 60000 });
  assert.equal(await page.$eval('[data-device-progress]', (b) => b.value), 1);
  const rows = await page.$$eval('[data-device-table] tbody tr', (trs) => trs.map((tr) => ({ measure: tr.dataset.measure, gflops: Number(tr.querySelector('[data-gflops]').dataset.gflops), ms: Number(tr.querySelector('[data-ms]').dataset.ms) })));
  assert.deepEqual(rows.map((r) => r.measure), ['simd', 'scalar', 'js', 'peak']);
  for (const r of rows) assert.ok(Number.isFinite(r.gflops) && r.gflops > 0 && Number.isFinite(r.ms) && r.ms > 0, JSON.stringify(r));
  await page.locator('[data-chart-box="device-gflops"]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => Number(document.querySelector('canvas[data-chart="device-gflops"]')?.dataset.renders ?? 0) >= 1);
  assert.equal(await page.getAttribute('[data-chart-box="device-gflops"]', 'data-points'), '4');
  assert.match(await page.textContent('[data-readout="dev-speedup"]'), /^[\d.e]+× \/ [\d.e]+×$/);

  // CSV: one row per measure, the numbers of the table
  const csv = await downloadOf(page, '[data-chart-box="device-gflops"] [data-export="csv"]');
  assert.equal(csv.name, 'sqrtdk-device-gflops.csv');
  const lines = csv.bytes.toString('utf8').trim().split('\n');
  assert.match(lines[0], /^measure,label,gflops,median_ms_per_call,calls,/);
  const byMeasure = Object.fromEntries(lines.slice(1).map((l) => l.split(',')).map((c) => [c[0], Number(c[2])]));
  for (const r of rows) assert.equal(byMeasure[r.measure], r.gflops, r.measure);
  // PNG: a real image
  const png = await downloadOf(page, '[data-chart-box="device-gflops"] [data-export="png"]');
  assert.equal(png.name, 'sqrtdk-device-gflops.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.bytes.length > 2000);

  // the link: exp=device and nothing measured
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /exp=device/);
  for (const r of rows) assert.ok(!hash.includes(String(r.gflops).slice(0, 6)), 'no result in the link');
  assert.doesNotMatch(hash, /gflops|simd=|pool/);

  // cancel: a second run stops, the last results stay, Run is ready again, no more progress
  await page.click('[data-action="device-run"]');
  await page.waitForFunction(() => document.querySelector('[data-device-progress]').value > 0.05, null, { timeout: 30000 });
  await page.click('[data-action="device-cancel"]');
  assert.equal(await phase(page), 'cancelled');
  assert.equal(await page.isDisabled('[data-action="device-run"]'), false);
  const at = await page.$eval('[data-device-progress]', (b) => b.value);
  await page.waitForTimeout(400);
  assert.equal(await page.$eval('[data-device-progress]', (b) => b.value), at, 'no progress after Cancel');
  assert.equal(await phase(page), 'cancelled');
  assert.equal(await page.$$eval('[data-device-table] tbody tr', (trs) => trs.length), 4, 'the last results stay');
  await page.close();
  assert.deepEqual([...log.pageErrors, ...log.consoleErrors], []);
  assert.deepEqual(log.foreign, []);
});

test('device panel at 390 px in Chinese: labelled controls, no sideways scroll, a run completes', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'zh-CN' });
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&exp=device&lang=zh-CN`);
  await page.waitForSelector('[data-panel="device"] [data-action="device-run"]');
  assert.equal(await page.textContent('[data-panel="device"] h2'), '你的设备');
  assert.equal(await page.getAttribute('[data-device-progress]', 'aria-label'), '测速进度');
  await page.click('[data-action="device-run"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="device"]')?.dataset.device === 'done', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no horizontal scroll');
  const g = await page.$$eval('[data-device-table] [data-gflops]', (tds) => tds.map((td) => Number(td.dataset.gflops)));
  assert.equal(g.length, 4);
  for (const x of g) assert.ok(Number.isFinite(x) && x > 0);
  await ctx.close();
});
