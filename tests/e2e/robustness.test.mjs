// Browser tests of what page.test.mjs leaves out: chart export (PNG and CSV of exactly what a chart
// shows) and a real worker crash with its restart. Run with `npm run test:e2e` after `npm run build`.
// The expected numbers come from the same wasm core loaded in Node (same seed, same kernel family,
// so the same bits), never from the page itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { serve } from './server.mjs';
import { launch, watch, settled, readouts, openPanel } from './browser.mjs';
import { loadCore } from '../../wasm/js/core.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const DK_STEPS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
const SCALES = ['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model'];
let srv, browser, core;

before(async () => {
  assert.ok(existsSync(dist + 'index.html'), 'dist/ is missing: run `npm run build` first');
  srv = await serve(dist, { prefix: '/robust/' });
  browser = await launch({ serviceWorkers: 'block' });
  core = await loadCore({ kernel: 'simd' });
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

/** The page's readout rounding (web/src/format.ts). */
function fmt(x, sig = 4) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-4) return x.toExponential(sig - 1).replace('e+', 'e');
  return String(Number(x.toPrecision(sig)));
}

async function downloadOf(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const chunks = [];
  for await (const c of await dl.createReadStream()) chunks.push(c);
  return { name: dl.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what canvas.toDataURL writes) into RGBA pixels. */
function decodePng(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  let off = 8, width = 0, height = 0, colourType = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth 8');
      colourType = data[9];
      assert.ok(colourType === 2 || colourType === 6, `colour type ${colourType}`);
      assert.equal(data[12], 0, 'not interlaced');
    } else if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const bpp = colourType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  assert.equal(raw.length, height * (stride + 1), 'scanline bytes');
  const px = new Uint8Array(width * height * 4);
  const prev = new Uint8Array(stride), cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let p = 0;
      if (f === 1) p = a;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) { const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      cur[i] = (line[i] + p) & 255;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      px[o] = cur[x * bpp]; px[o + 1] = cur[x * bpp + 1]; px[o + 2] = cur[x * bpp + 2]; px[o + 3] = bpp === 4 ? cur[x * bpp + 3] : 255;
    }
    prev.set(cur);
  }
  return { width, height, px };
}

function countPixels(img, pred) {
  let n = 0;
  for (let i = 0; i < img.px.length; i += 4) if (pred(img.px[i], img.px[i + 1], img.px[i + 2], img.px[i + 3])) n++;
  return n;
}

/** RFC 4180 CSV (quoted cells may hold commas and doubled quotes) into rows of strings. */
function parseCsv(text) {
  assert.ok(text.endsWith('\n'), 'CSV ends with a newline');
  return text.slice(0, -1).split('\n').map((line) => {
    const cells = [];
    const re = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
    for (const m of line.matchAll(re)) cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
    return cells;
  });
}

test('PNG and CSV export of a line chart and of the heatmap hold exactly what the charts show', async () => {
  // non-default settings, so that the export is not of a cached default
  const state = { heads: 2, seqLen: 64, dk: 128, scale: 'inv_dk', seed: 7 };
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
  const log = watch(ctx, srv.origin);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&embed=1&exp=saturation&heads=${state.heads}&seqLen=${state.seqLen}&dk=${state.dk}&scale=${state.scale}&seed=${state.seed}`);
  await settled(page);

  // what the charts were built from, computed again in Node
  const sweep = core.saturationSweep({ dks: DK_STEPS, scales: SCALES, heads: state.heads, seqLen: state.seqLen, seed: state.seed });
  const point = core.attentionStats({ ...state, perRow: false, heatmapSize: 48 });
  const ro = await readouts(page);
  assert.equal(ro['sat-entropy'], fmt(point.summary.entropy.mean), 'readout = the core at this setting');
  assert.equal(ro['sat-c'], fmt(1 / 128));

  for (const id of ['saturation-entropy', 'saturation-heatmap']) {
    await page.locator(`[data-chart-box="${id}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => Number(document.querySelector(`canvas[data-chart="${id}"]`)?.dataset.renders ?? 0) >= 1, id);
  }
  const canvasSize = (id) => page.$eval(`canvas[data-chart="${id}"]`, (c) => [c.width, c.height]);

  // ---- line chart: mean entropy against d_k, one series per scale, ln L, the chosen point
  const linePng = await downloadOf(page, '[data-chart-box="saturation-entropy"] [data-export="png"]');
  assert.equal(linePng.name, 'sqrtdk-saturation-entropy.png');
  const lineImg = decodePng(linePng.bytes);
  // the chart at the device pixel ratio (1 here), with a 28 px band above (its title) and at least
  // 28 px below (the short link to the panel, wrapped to the width)
  const [cw, ch] = await canvasSize('saturation-entropy');
  assert.equal(lineImg.width, cw);
  assert.ok(lineImg.height >= ch + 56 && lineImg.height <= ch + 28 + 6 * 15 + 10, `PNG height ${lineImg.height} for a ${ch} px chart`);
  const inBand = (img, y0, y1) => { let n = 0; for (let y = y0; y < y1; y++) for (let x = 0; x < img.width; x++) { const o = (y * img.width + x) * 4; if (img.px[o] < 200 && img.px[o + 1] < 200 && img.px[o + 2] < 200) n++; } return n; };
  assert.ok(inBand(lineImg, 0, 28) > 100, 'the title is written above the chart');
  assert.ok(inBand(lineImg, ch + 28, lineImg.height) > 100, 'the link is written below the chart');
  assert.ok(lineImg.width > 100 && lineImg.height > 100, `PNG ${lineImg.width}×${lineImg.height}`);
  assert.ok(linePng.bytes.length > 5000, `PNG of ${linePng.bytes.length} bytes`);
  assert.equal(countPixels(lineImg, (r, g, b, a) => a < 255), 0, 'opaque (white background)');
  // the ÷√d_k series (#2f6fb0) is drawn
  const blue = countPixels(lineImg, (r, g, b) => Math.abs(r - 0x2f) < 24 && Math.abs(g - 0x6f) < 24 && Math.abs(b - 0xb0) < 24);
  assert.ok(blue > 100, `÷√d_k line in the PNG (${blue} px)`);

  const lineCsv = await downloadOf(page, '[data-chart-box="saturation-entropy"] [data-export="csv"]');
  assert.equal(lineCsv.name, 'sqrtdk-saturation-entropy.csv');
  const lineRows = parseCsv(lineCsv.bytes.toString('utf8'));
  assert.deepEqual(lineRows[0], ['series', 'd_k', 'mean_entropy_nats']);
  const expected = [];
  const labels = { none: 'no scaling', inv_sqrt_dk: '÷√d_k', inv_dk: '÷d_k', inv_sqrt_d_model: '÷√d_model (bug)' };
  SCALES.forEach((s, si) => DK_STEPS.forEach((dk, di) => expected.push([labels[s], String(dk), String(sweep.points[si][di].entropy.mean)])));
  expected.push(['ln L (uniform)', '1', String(sweep.logSeqLen)], ['ln L (uniform)', '4096', String(sweep.logSeqLen)]);
  expected.push([`${labels[state.scale]}, d_k = ${state.dk}`, String(state.dk), String(point.summary.entropy.mean)]);
  const got = lineRows.slice(1);
  assert.deepEqual(got, expected);
  assert.equal(Number(await page.getAttribute('[data-chart-box="saturation-entropy"]', 'data-points')), got.length, 'one CSV row per drawn point');
  assert.equal(fmt(Number(got[got.length - 1][2])), ro['sat-entropy'], 'the marked point is the readout');

  // ---- heatmap: head 0, first 48×48 weights
  const heatPng = await downloadOf(page, '[data-chart-box="saturation-heatmap"] [data-export="png"]');
  assert.equal(heatPng.name, 'sqrtdk-saturation-heatmap.png');
  const heatImg = decodePng(heatPng.bytes);
  const [hw, hh] = await canvasSize('saturation-heatmap');
  assert.equal(heatImg.width, hw);
  assert.ok(heatImg.height >= hh + 56, `PNG height ${heatImg.height} for a ${hh} px heatmap`);
  assert.ok(heatImg.width > 100 && heatImg.height > 100, `PNG ${heatImg.width}×${heatImg.height}`);
  // the viridis cells cover much of the image: dark purple … yellow, never grey text
  const cells = countPixels(heatImg, (r, g, b) => !(Math.abs(r - g) < 12 && Math.abs(g - b) < 12));
  assert.ok(cells > heatImg.width * heatImg.height * 0.25, `coloured heatmap cells in the PNG (${cells} px)`);

  const heatCsv = await downloadOf(page, '[data-chart-box="saturation-heatmap"] [data-export="csv"]');
  const heatRows = parseCsv(heatCsv.bytes.toString('utf8'));
  assert.deepEqual(heatRows[0], ['query_row', 'key', 'weight']);
  assert.equal(point.heatmapSize, 48);
  assert.equal(heatRows.length - 1, 48 * 48);
  assert.equal(Number(await page.getAttribute('[data-chart-box="saturation-heatmap"]', 'data-points')), 48 * 48);
  let max = 0;
  for (let i = 0; i < 48; i++) {
    for (let j = 0; j < 48; j++) {
      const w = point.heatmap[i * 48 + j];
      max = Math.max(max, w);
      assert.deepEqual(heatRows[1 + i * 48 + j], [String(i), String(j), String(w)], `cell (${i}, ${j})`);
    }
  }
  // the note under the heatmap names the largest weight shown
  assert.ok((await page.textContent('[data-chart-box="saturation-heatmap"] .chart-note')).includes(`(${fmt(max, 3)})`));

  assert.deepEqual(log, { consoleErrors: [], pageErrors: [], dialogs: [], foreign: [] });
  await ctx.close();
});

test('a worker that crashes is restarted with a visible notice, and the charts still show the right numbers', async () => {
  const MARK = 'sqrtdk-injected-crash';
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const log = watch(ctx, srv.origin);
  // the first worker script served dies on its first request, as a crashing core would
  let served = 0;
  await ctx.route(/\/assets\/worker-[^/]*\.js(\?.*)?$/, async (route) => {
    const n = ++served;  // before any await: both workers' scripts are requested at once
    const res = await route.fetch();
    if (n > 1) { await route.fulfill({ response: res }); return; }
    // while computing its first request: instead of the answer, an uncaught error (after the core
    // loaded — a failure before that is a start failure, retried with a backoff)
    const body = `{ const post = self.postMessage.bind(self); let crashed = false; self.postMessage = (m, t) => { if (!crashed && m && typeof m.id === 'number') { crashed = true; setTimeout(() => { throw new Error('${MARK}'); }); return; } post(m, t); }; }\n`
      + await res.text();
    await route.fulfill({ response: res, body });
  });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=1&exp=variance&lang=en');
  await page.waitForSelector('[data-notice="restart"]', { state: 'visible', timeout: 15000 });
  assert.match(await page.textContent('[data-notice="restart"]'), /restarted/);
  assert.match(await page.textContent('[data-notice="restart"]'), /crash/);
  await settled(page);
  assert.equal(await page.evaluate(() => window.__sqrtdkRestarts), 1, 'exactly one restart');
  const pool = await page.evaluate(() => window.__sqrtdkBench.stats().workers);
  assert.ok(served >= pool + 1, `a fresh worker was started (${served} worker scripts served for a pool of ${pool})`);
  await page.waitForFunction(() => document.documentElement.dataset.engine === 'simd');

  // the numbers drawn after the restart are the core's (one panel per view: visit each)
  const ro = await readouts(page);
  for (const p of ['saturation', 'article', 'gradient']) {
    await openPanel(page, p);
    await settled(page);
    Object.assign(ro, await readouts(page));
  }
  const sat = core.attentionStats({ heads: 4, seqLen: 128, dk: 64, scale: 'inv_sqrt_dk', seed: 1, perRow: false, heatmapSize: 48 });
  assert.equal(ro['sat-entropy'], fmt(sat.summary.entropy.mean));
  assert.equal(ro['sat-maxw'], fmt(sat.summary.maxWeight.mean));
  assert.equal(ro['sat-maxlogit'], fmt(sat.summary.maxAbsLogit));
  for (const scale of ['none', 'inv_sqrt_dk', 'inv_dk']) {
    const art = core.attentionStats({ heads: 8, seqLen: 128, dk: 512, scale, seed: 0, perRow: false, heatmapSize: 1 });
    assert.equal(ro[`art-entropy-${scale}`], fmt(art.summary.entropy.mean), `article entropy, ${scale}`);
  }
  assert.equal(ro['jac-fro'], fmt(core.softmaxJacobian([2, 0]).frobenius));
  assert.ok(ro['var-var'], 'the variance panel was drawn after the restart');
  // no error surfaced beside any control, and none but the injected one anywhere
  assert.deepEqual(await page.$$eval('[data-err-for]', (els) => els.map((e) => e.textContent).filter((s) => s !== '')), []);
  const foreignErrors = [...log.pageErrors, ...log.consoleErrors].filter((m) => !m.includes(MARK));
  assert.deepEqual(foreignErrors, []);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.foreign, []);
  await ctx.close();
});

// ---- regression tests for defects found in the QA pass (they failed when written) ----

test('REGRESSION: a refusal shown beside a control stays while other requests of the panel finish', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await ctx.newPage();
  // h 4, L 256, d_k 4096: about 0.94 s by the core's estimate (core.cost), under the page's 1 s limit for one point, so it is drawn
  await page.goto(`${srv.url}#v=1&embed=1&exp=saturation&dk=4096&seqLen=256&heads=4`);
  await page.waitForFunction(() => /d_k = 4096/.test(document.querySelector('[data-chart-box="saturation-heatmap"] .chart-title')?.textContent ?? '')
    && /h = 4, L = 256/.test(document.querySelector('[data-chart-box="saturation-entropy"] .chart-title').textContent), null, { timeout: 20000 });
  await settled(page);
  const good = await readouts(page);
  // heads 5 makes the point about 1.2 s: refused before it reaches the core; the sweep (h = 5) still runs
  await page.evaluate(() => {
    const input = document.querySelector('[data-panel="saturation"] [data-key="heads"] input[type=range]');
    input.value = '5';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const errSel = '[data-panel="saturation"] [data-err-for="heads"]';
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('Too much work'), errSel);
  await page.waitForFunction(() => /h = 5, L = 256/.test(document.querySelector('[data-chart-box="saturation-entropy"] .chart-title')?.textContent ?? ''), null, { timeout: 20000 });
  await page.waitForTimeout(300);
  assert.match(await page.textContent(errSel), /Too much work/, 'the refusal is still beside heads once the sweep has been drawn');
  assert.deepEqual(await readouts(page), good, 'the last good point stays');
  await ctx.close();
});

test('REGRESSION: a failed .wasm fetch does not leave the page without its core: the charts are drawn', async () => {
  // The page compiles the core once and posts it to the workers (web/src/worker/boot.ts); a failed
  // fetch there falls back to each worker fetching the core itself, and a worker whose core fails
  // to load is restarted with a notice. Either way the charts come.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const log = watch(ctx, srv.origin);
  let n = 0;
  await ctx.route(/\.wasm$/, (route) => (++n === 1 ? route.abort('connectionreset') : route.continue()));
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=1&embed=1&exp=saturation`);
  await settled(page, 30000);
  assert.ok(n >= 2, 'the core was fetched again after the failure');
  assert.equal(await page.getAttribute('[data-chart-box="saturation-heatmap"]', 'data-points'), String(48 * 48));
  const sat = core.attentionStats({ heads: 4, seqLen: 128, dk: 64, scale: 'inv_sqrt_dk', seed: 1, perRow: false, heatmapSize: 48 });
  assert.equal((await readouts(page))['sat-entropy'], fmt(sat.summary.entropy.mean));
  // the aborted request itself is the only error the browser may report
  assert.deepEqual(log.consoleErrors.filter((m) => !/Failed to load resource|ERR_CONNECTION_RESET/.test(m)), []);
  await ctx.close();
});
