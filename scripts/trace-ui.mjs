#!/usr/bin/env node
// trace-ui: what the page's main thread runs between a control's event and the frame that shows
// its echo, from a Chromium performance trace (diagnosis for bench:ui's "first visual change").
// For each control of TRACE_PANELS (default: all of bench:ui's), N changes (TRACE_CHANGES, 8) are
// made as bench:ui makes them (the cache cleared first), each between two user-timing marks: the
// event and the rAF after it; the top-level main-thread tasks between them are summed by kind.
// Options: TRACE_DIST=path (default dist/), TRACE_PANELS=variance,gqa, TRACE_CHANGES=8.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { serve } from '../tests/e2e/server.mjs';
import { launch } from '../tests/e2e/browser.mjs';
import { panelSettled } from '../tests/e2e/panel.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dist = process.env.TRACE_DIST ? path.resolve(process.env.TRACE_DIST) : path.join(repo, 'dist');
const N = Number(process.env.TRACE_CHANGES ?? 8);
const CASES = [
  { panel: 'variance', key: 'dk', kind: 'range', values: [7, 6] },
  { panel: 'saturation', key: 'dk', kind: 'range', values: [7, 6] },
  { panel: 'gradient', key: 'dk', kind: 'range', values: [7, 6] },
  { panel: 'gradient', key: 'gap', kind: 'range', values: [2.5, 2, 3, 1.5] },
  { panel: 'article', key: 'aseed', kind: 'click', values: [0] },
  { panel: 'precision', key: 'pblock', kind: 'range', values: [4, 5] },
  { panel: 'precision', hash: '&pmode=random', key: 'pdk', kind: 'range', values: [8, 9] },
  { panel: 'longctx', key: 'ltrain', kind: 'range', values: [4, 3] },
  { panel: 'gqa', key: 'gdk', kind: 'range', values: [2, 3] },
  { panel: 'tensors', key: 'tscale', kind: 'select', values: ['none', 'inv_sqrt_dk'] },
];
const only = process.env.TRACE_PANELS?.split(',');
const srv = await serve(dist, { prefix: '/trace/' });
const browser = await launch();

/** One change, as bench:ui makes it; resolves after the frame following its final redraw. */
function change(page, c, i) {
  return page.evaluate(async ({ panel, key, kind, value }) => {
    window.__sqrtdkBench.clearCache();
    performance.mark('ev');
    if (kind === 'range') {
      const input = document.querySelector(`[data-panel="${panel}"] [data-key="${key}"] input[type=range]`);
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else if (kind === 'select') {
      const sel = document.querySelector(`[data-panel="${panel}"] [data-key="${key}"] select`);
      sel.value = String(value);
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    } else document.querySelector(`[data-panel="${panel}"] [data-reroll="${key}"]`).click();
    performance.mark('handled');
    await new Promise((r) => requestAnimationFrame(() => { performance.mark('frame'); r(); }));
    // then, as bench:ui does, the final redraw and the frame after it: the next change comes right after
    const root = document.querySelector(`[data-panel="${panel}"]`);
    await new Promise((r) => { const poll = () => (root.dataset.pending === '0' ? r() : setTimeout(poll, 0)); setTimeout(poll, 0); });
    await new Promise((r) => requestAnimationFrame(r));
  }, { panel: c.panel, key: c.key, kind: c.kind, value: c.values[i % c.values.length] });
}

const TOP = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
try {
  for (const c of CASES.filter((x) => !only || only.includes(x.panel))) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(srv.url + `#v=1&exp=${c.panel}${c.hash ?? ''}`);
    await panelSettled(page, c.panel);
    for (let w = 0; w < 3; w++) await change(page, c, w);
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel', 'v8.execute'] });
    for (let i = 0; i < N; i++) await change(page, c, i + 3);
    const trace = JSON.parse((await browser.stopTracing()).toString());
    const ev = trace.traceEvents;
    const marks = ev.filter((e) => e.cat?.includes('blink.user_timing') && ['ev', 'handled', 'frame'].includes(e.name)).sort((a, b) => a.ts - b.ts);
    const main = ev.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === marks[0]?.pid);
    const rows = [];
    for (let k = 0; k + 2 < marks.length + 1; k++) {
      if (marks[k].name !== 'ev') continue;
      const [e0, h, f] = [marks[k], marks[k + 1], marks[k + 2]];
      if (h?.name !== 'handled' || f?.name !== 'frame') continue;
      // what ran on the main thread from the handler's end to the frame's rAF: top-level tasks and their slices
      const inWin = ev.filter((e) => e.pid === e0.pid && e.tid === main?.tid && e.ph === 'X' && e.ts >= h.ts && e.ts < f.ts);
      const kinds = {};
      for (const e of inWin) {
        if (['FunctionCall', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint', 'Layerize', 'HitTest', 'ParseHTML', 'MajorGC', 'MinorGC', 'V8.GC_SCAVENGER', 'UpdateLayer', 'Commit'].includes(e.name)) {
          const label = e.name === 'FunctionCall' ? `FunctionCall ${(e.args?.data?.url ?? '').split('/').pop()}:${e.args?.data?.functionName ?? ''}` : e.name;
          kinds[label] = (kinds[label] ?? 0) + (e.dur ?? 0) / 1000;
        }
      }
      const busy = inWin.filter((e) => TOP.has(e.name)).reduce((a, e) => a + Math.min(e.dur ?? 0, f.ts - e.ts) / 1000, 0);
      rows.push({ handler: (h.ts - e0.ts) / 1000, toFrame: (f.ts - e0.ts) / 1000, busyAfter: busy, kinds });
    }
    console.log(`\n${c.panel} ${c.key}: per change, ms — handler | event → rAF | main thread busy between handler and rAF | what ran (ms)`);
    for (const r of rows) console.log(`  ${r.handler.toFixed(1).padStart(5)} | ${r.toFrame.toFixed(1).padStart(5)} | ${r.busyAfter.toFixed(1).padStart(5)} | ${Object.entries(r.kinds).filter(([, v]) => v >= 0.5).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
    await ctx.close();
  }
} finally { await browser.close(); await srv.close(); }
