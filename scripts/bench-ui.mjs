#!/usr/bin/env node
// bench:ui — measures the built page (dist/, run `npm run build` first) in headless Chromium:
// per panel at default settings, control change → chart redrawn (p50 / p95 over N changes, the
// result cache cleared before each change so every change is really computed); cold load → first
// chart drawn; and the gzip size of the JS + wasm + CSS the page ships. Prints a table and writes
// bench-results/ui.json. Not a test: it reports, it does not fail on targets.
import { fileURLToPath } from 'node:url';
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import os from 'node:os';
import { serve } from '../tests/e2e/server.mjs';
import { launch, settled } from '../tests/e2e/browser.mjs';
import { panelSettled } from '../tests/e2e/panel.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(repo, 'dist');
const N = Number(process.env.BENCH_UI_CHANGES ?? 40);
const COLD = Number(process.env.BENCH_UI_COLD ?? 7);
const TARGETS = { p95Ms: 50, firstChartMs: 1000, gzipKB: 300 };

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('bench:ui: dist/ is missing; run `npm run build` first');
  process.exit(1);
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
};
const r1 = (x) => Math.round(x * 10) / 10;

/**
 * One measured change: clear the cache, fire the control's event, wait until `chart` has drawn
 * after that moment and then for the next animation frame (the frame that shows it).
 */
async function measureChange(page, { panel, key, kind, values, chart, readout }, i) {
  return page.evaluate(async ({ panel, key, kind, value, chart, readout }) => {
    window.__sqrtdkBench.clearCache();
    const perf = (window.__sqrtdkPerf ??= []);
    const start = perf.length;
    const ro = readout ? document.querySelector(`[data-readout="${readout}"]`) : null;
    const roBefore = ro?.textContent;
    const t0 = performance.now();
    if (kind === 'range') {
      const input = document.querySelector(`[data-panel="${panel}"] [data-key="${key}"] input[type=range]`);
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else if (kind === 'select') {
      const sel = document.querySelector(`[data-panel="${panel}"] [data-key="${key}"] select`);
      sel.value = String(value);
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    } else {
      document.querySelector(`[data-panel="${panel}"] [data-reroll="${key}"]`).click();
    }
    // with a readout: the change is done when the chart has redrawn after that readout changed
    // (a panel whose requests arrive one by one redraws several times)
    const drawn = await new Promise((resolve, reject) => {
      const deadline = t0 + 20000;
      const poll = () => {
        const hit = perf.slice(start).filter((e) => e.chart === chart).at(-1);
        if (hit && (!ro || ro.textContent !== roBefore)) resolve(hit.t);
        else if (performance.now() > deadline) reject(new Error(`no redraw of ${chart}`));
        else setTimeout(poll, 0);
      };
      poll();
    });
    await new Promise((r) => requestAnimationFrame(() => r()));
    const framed = performance.now();
    return { redraw: drawn - t0, frame: framed - t0 };
  }, { panel, key, kind, value: values[i % values.length], chart, readout: readout ?? null });
}

const CASES = [
  { panel: 'variance', control: 'd_k slider 64 ↔ 128', key: 'dk', kind: 'range', values: [7, 6], chart: 'variance-hist-raw' },
  { panel: 'saturation', control: 'd_k slider 64 ↔ 128', key: 'dk', kind: 'range', values: [7, 6], chart: 'saturation-heatmap' },
  { panel: 'gradient', control: 'd_k slider 64 ↔ 128', key: 'dk', kind: 'range', values: [7, 6], chart: 'gradient-sweep' },
  { panel: 'gradient', control: 'gap slider (explorer)', key: 'gap', kind: 'range', values: [2.5, 2, 3, 1.5], chart: 'gradient-jacobian' },
  { panel: 'article', control: 'seed re-roll (3 × h8 L128 d_k512)', key: 'aseed', kind: 'click', values: [0], chart: 'article-entropy' },
  { panel: 'precision', control: 'block size 16 ↔ 32 (typed logits)', key: 'pblock', kind: 'range', values: [4, 5], chart: 'precision-probs', readout: null },
  { panel: 'precision', hash: '&pmode=random', control: 'd_k 256 ↔ 512 (32 random rows)', key: 'pdk', kind: 'range', values: [8, 9], chart: 'precision-jacobian', readout: 'prec-maxlogit' },
  { panel: 'longctx', control: 'L_train 512 ↔ 1024 (3 methods × 9 L)', key: 'ltrain', kind: 'range', values: [4, 3], chart: 'longctx-entropy', readout: 'lc-article' },
  { panel: 'gqa', control: 'd_head 64 ↔ 128 (3 layouts)', key: 'gdk', kind: 'range', values: [2, 3], chart: 'gqa-entropy', readout: 'gqa-gqa-var' },
  { panel: 'tensors', control: 'histogram scale (no core call)', key: 'tscale', kind: 'select', values: ['none', 'inv_sqrt_dk'], chart: 'tensors-entropy' },
];

async function sizes(loadedUrls) {
  const files = (await readdir(path.join(dist, 'assets'))).filter((f) => /\.(js|mjs|wasm|css)$/.test(f));
  const rows = [];
  for (const f of files) {
    const buf = await readFile(path.join(dist, 'assets', f));
    rows.push({ file: f, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length, loaded: loadedUrls.has(f) });
  }
  const sum = (xs) => xs.reduce((a, r) => a + r.gzip, 0);
  return { files: rows, gzipAllKB: r1(sum(rows) / 1024), gzipLoadedKB: r1(sum(rows.filter((r) => r.loaded)) / 1024) };
}

/**
 * Cold load of a link without exp (the landing interview view) → its last live number on screen:
 * a fresh context each time (empty cache); the view stamps performance.now() when the last of its
 * numbers arrives (data-live-ms).
 */
async function interviewColdLoad(browser, srv, runs) {
  const ms = [], coreMs = [];
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1', null, { timeout: 60000, polling: 10 });
    ms.push(Number(await page.getAttribute('[data-panel="interview"]', 'data-live-ms')));
    coreMs.push(Number(await page.getAttribute('[data-panel="interview"]', 'data-core-ms')));
    await ctx.close();
  }
  return { runs, lastNumberP50: r1(quantile(ms, 0.5)), lastNumberMax: r1(Math.max(...ms)), lastCoreNumberP50: r1(quantile(coreMs, 0.5)) };
}

const loadavgAtStart = os.loadavg().map(r1);
const srv = await serve(dist, { prefix: '/bench/' });
const browser = await launch();
if (process.env.BENCH_UI_ONLY === 'interview') {  // just this figure: BENCH_UI_ONLY=interview npm run bench:ui
  try {
    const iv = await interviewColdLoad(browser, srv, COLD);
    console.log(`cold load (no exp: the interview view) → last live number: p50 ${iv.lastNumberP50} ms, max ${iv.lastNumberMax} ms over ${iv.runs} loads (without the training run's: p50 ${iv.lastCoreNumberP50} ms; load average ${loadavgAtStart.join(' ')})`);
  } finally { await browser.close(); await srv.close(); }
  process.exit(0);
}
try {
  // ---- cold loads: a fresh context each time (empty cache) ----
  const cold = [];
  const allCharts = [];
  const loaded = new Set();
  for (let i = 0; i < COLD; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    page.on('request', (r) => loaded.add(path.basename(new URL(r.url()).pathname)));
    await page.goto(srv.url + '#v=1&exp=variance');  // the first lab (a link without exp lands on the interview view, measured below)
    await page.waitForFunction(() => (window.__sqrtdkPerf ?? []).length > 0, null, { timeout: 30000, polling: 10 });
    await settled(page, 20000).catch(() => {});  // a panel that draws only on demand must not stop the cold-load figures
    const t = await page.evaluate(() => {
      const perf = window.__sqrtdkPerf;
      const first = perf[0].t;
      const boxes = [...document.querySelectorAll('canvas[data-chart]')].map((c) => c.dataset.chart);
      // charts draw when near the viewport: "all" = every chart drawn without scrolling
      const firstOf = boxes.map((id) => perf.find((e) => e.chart === id)?.t).filter((t) => t !== undefined);
      return { first, all: Math.max(...firstOf), drawn: firstOf.length };
    });
    await page.waitForTimeout(500);
    cold.push(t.first);
    allCharts.push(t.all);
    await ctx.close();
  }

  // ---- control changes, one page per case ----
  const results = [];
  for (const c of CASES) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(srv.url + `#v=1&exp=${c.panel}${c.hash ?? ''}`);
    await panelSettled(page, c.panel);
    await page.waitForTimeout(300);
    await page.locator(`[data-chart-box="${c.chart}"]`).scrollIntoViewIfNeeded();  // charts draw near the viewport
    await page.waitForTimeout(200);
    let step = 0;  // consecutive values always differ, so every change is a real change
    for (let w = 0; w < 4; w++) await measureChange(page, c, step++);  // warm-up
    const redraw = [], frame = [];
    for (let i = 0; i < N; i++) {
      const m = await measureChange(page, c, step++);
      redraw.push(m.redraw);
      frame.push(m.frame);
    }
    results.push({
      panel: c.panel, control: c.control, chart: c.chart, changes: N,
      redrawP50: r1(quantile(redraw, 0.5)), redrawP95: r1(quantile(redraw, 0.95)),
      frameP50: r1(quantile(frame, 0.5)), frameP95: r1(quantile(frame, 0.95)),
    });
    await ctx.close();
  }
  // ---- training lab: Cancel latency (target ≤ 100 ms) while six variants train ----
  const cancels = [];
  {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(srv.url + '#v=1&exp=training&trsteps=5000');
    await page.locator('[data-action="train-run"]').scrollIntoViewIfNeeded();  // its charts exist once a run starts
    for (let i = 0; i < 5; i++) {
      await page.waitForSelector('[data-action="train-run"]:not([disabled])');
      await page.click('[data-action="train-run"]');
      await page.waitForFunction(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0) > 10, null, { timeout: 60000 });
      await page.click('[data-action="train-cancel"]');
      await page.waitForFunction(() => document.querySelector('[data-panel="training"]').dataset.training === 'cancelled', null, { timeout: 10000 });
      cancels.push(await page.evaluate(() => window.__sqrtdkTraining.controller.lastCancelMs));
    }
    await ctx.close();
  }
  const interview = await interviewColdLoad(browser, srv, COLD);
  const size = await sizes(loaded);
  const out = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavgAtStart, loadavgAtEnd: os.loadavg().map(r1), node: process.version, chromium: browser.version() },
    targets: TARGETS,
    coldLoad: {
      runs: COLD,
      firstChartP50: r1(quantile(cold, 0.5)), firstChartMax: r1(Math.max(...cold)),
      allChartsP50: r1(quantile(allCharts, 0.5)), allChartsMax: r1(Math.max(...allCharts)),
    },
    interviewColdLoad: interview,
    changes: results,
    trainingCancelMs: { runs: cancels.length, p50: r1(quantile(cancels, 0.5)), max: r1(Math.max(...cancels)), target: 100 },
    size,
  };
  await mkdir(path.join(repo, 'bench-results'), { recursive: true });
  await writeFile(path.join(repo, 'bench-results', 'ui.json'), JSON.stringify(out, null, 2) + '\n');

  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  console.log(`\n√dk Lab UI benchmark — headless Chromium ${out.machine.chromium}, ${out.machine.cpus} cores, load average ${loadavgAtStart.join(' ')}; ms from control change (cache cleared)\n`);
  console.log(`${pad('panel', 11)}${pad('control', 42)}${lpad('n', 4)}${lpad('redraw p50', 12)}${lpad('redraw p95', 12)}${lpad('frame p95', 11)}  target p95 ≤ ${TARGETS.p95Ms}`);
  for (const r of results) {
    console.log(`${pad(r.panel, 11)}${pad(r.control, 42)}${lpad(r.changes, 4)}${lpad(r.redrawP50, 12)}${lpad(r.redrawP95, 12)}${lpad(r.frameP95, 11)}  ${r.redrawP95 <= TARGETS.p95Ms ? 'met' : 'MISSED'}`);
  }
  console.log(`\ncold load → first chart drawn: p50 ${out.coldLoad.firstChartP50} ms, max ${out.coldLoad.firstChartMax} ms over ${COLD} loads (target ≤ ${TARGETS.firstChartMs}: ${out.coldLoad.firstChartMax <= TARGETS.firstChartMs ? 'met' : 'MISSED'}); charts in the first viewport drawn: p50 ${out.coldLoad.allChartsP50} ms`);
  console.log(`cold load (no exp: the interview view) → last live number: p50 ${interview.lastNumberP50} ms, max ${interview.lastNumberMax} ms over ${interview.runs} loads (without the training run's: p50 ${interview.lastCoreNumberP50} ms)`);
  console.log(`training lab Cancel → stopped: p50 ${out.trainingCancelMs.p50} ms, max ${out.trainingCancelMs.max} ms over ${cancels.length} runs (target ≤ 100: ${out.trainingCancelMs.max <= 100 ? 'met' : 'MISSED'})`);
  console.log(`gzip of JS + wasm + CSS: ${size.gzipLoadedKB} KB loaded by this browser, ${size.gzipAllKB} KB shipped in dist/ (both builds) (target ≤ ${TARGETS.gzipKB}: ${size.gzipAllKB <= TARGETS.gzipKB ? 'met' : 'MISSED'})`);
  console.log('wrote bench-results/ui.json');
} finally {
  await browser.close();
  await srv.close();
}
