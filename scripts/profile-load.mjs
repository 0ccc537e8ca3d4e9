#!/usr/bin/env node
// profile-load — what the main thread does during a cold load, task by task: records a Chromium
// performance trace (with V8's sampling CPU profile) of cold loads of `#v=1&exp=variance` (the
// link bench:ui measures), then lists every main-thread task longer than PROFILE_MIN_MS (50)
// before the first viewport's charts are final, with the trace events inside it (script
// evaluation, compile, style, layout, paint…) and the functions with the most self time. Reads
// dist/ (run `npm run build` first; a build with `vite build --minify false` gives readable
// function names: PROFILE_DIST=path). PROFILE_THROTTLE=4 emulates a 4× slower CPU on a
// 390×844 phone viewport; PROFILE_RUNS=n loads (default 3); PROFILE_HASH replaces the link.
// A diagnostic, not a benchmark (tracing itself costs time): bench:ui gives the figures. Each task
// shows its wall time and its thread's CPU time: on a machine shared with other work the CPU time
// tells the page's own cost from the time the thread waited for a core (or for the browser
// process: a font lookup is a synchronous IPC).
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { serve } from '../tests/e2e/server.mjs';
import { launch, settled } from '../tests/e2e/browser.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dist = process.env.PROFILE_DIST ? path.resolve(process.env.PROFILE_DIST) : path.join(repo, 'dist');
const RUNS = Number(process.env.PROFILE_RUNS ?? 3);
const THROTTLE = Number(process.env.PROFILE_THROTTLE ?? 0);
const MIN_MS = Number(process.env.PROFILE_MIN_MS ?? 50);
const HASH = process.env.PROFILE_HASH ?? '#v=1&exp=variance';
// PROFILE_SAMPLES=0: no CPU profile (the sampler slows the page down; the tasks' trace events stay)
const SAMPLES = process.env.PROFILE_SAMPLES !== '0';
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing',
  ...(SAMPLES ? ['disabled-by-default-v8.cpu_profiler'] : []), 'toplevel', 'v8', 'loading'];

/** Marks the first chart drawn and every chart of the first viewport final as user-timing marks in the trace. */
const MARKS = () => {
  const perf = [];
  perf.push = function (...xs) {
    const r = Array.prototype.push.apply(this, xs);
    if (this.length === xs.length) performance.mark('sqrtdk-first-chart');
    for (const x of xs) performance.mark(`chart ${x.chart}${x.final === false ? ' (estimate)' : ''}`);
    return r;
  };
  window.__sqrtdkPerf = perf;
};

const short = (url) => (url ? url.replace(/^.*\/(assets\/)?/, '').replace(/\?.*$/, '') : '');
const r1 = (x) => Math.round(x * 10) / 10;

/** The task list of one trace: main-thread tasks over MIN_MS before `end`, each with its events and hottest functions. */
function analyse(events) {
  const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  const mark = events.find((e) => e.name === 'sqrtdk-first-chart');
  if (!mark) throw new Error('no first chart in the trace');
  const { pid, tid } = mark;
  const main = names.find((e) => e.pid === pid && e.args.name === 'CrRendererMain');
  if (!main || main.tid !== tid) console.warn('the first-chart mark is not on CrRendererMain');
  const nav = events.filter((e) => e.pid === pid && e.name === 'navigationStart').map((e) => e.ts).sort((a, b) => a - b)[0]
    ?? events.filter((e) => e.pid === pid && e.tid === tid).reduce((m, e) => Math.min(m, e.ts || Infinity), Infinity);
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid);
  // the outermost task events (a ThreadControllerImpl::RunTask holds a RunTask of the same span)
  const all = onMain.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const outer = [];
  for (const e of all) if (!outer.length || e.ts >= outer.at(-1).ts + outer.at(-1).dur) outer.push(e);
  const tasks = outer.filter((e) => e.dur >= MIN_MS * 1000);
  const marks = onMain.filter((e) => e.cat?.includes('user_timing') && e.name.startsWith('chart '));
  // the CPU profile: Profile (start time) + ProfileChunk events (nodes, samples, time deltas), by id
  const profiles = new Map();
  for (const e of events.filter((x) => x.pid === pid && (x.name === 'Profile' || x.name === 'ProfileChunk'))) {
    const p = profiles.get(e.id) ?? { nodes: new Map(), samples: [], times: [], t: 0, tid: e.tid };
    profiles.set(e.id, p);
    if (e.name === 'Profile') { p.t = e.args.data.startTime; continue; }
    const cp = e.args.data.cpuProfile ?? {};
    for (const n of cp.nodes ?? []) p.nodes.set(n.id, n);
    const deltas = e.args.data.timeDeltas ?? [];
    (cp.samples ?? []).forEach((s, i) => { p.t += deltas[i] ?? 0; p.samples.push(s); p.times.push(p.t); });
  }
  const prof = [...profiles.values()].find((p) => p.tid === tid) ?? [...profiles.values()][0];
  const out = [];
  for (const task of tasks.sort((a, b) => a.ts - b.ts)) {
    const t0 = task.ts, t1 = task.ts + task.dur;
    // trace events inside the task, by name, total duration of the outermost of each name
    const inner = new Map();
    for (const e of onMain) {
      if (e.ph !== 'X' || e === task || e.ts < t0 || e.ts + (e.dur ?? 0) > t1 || !e.dur) continue;
      const d = e.args?.data ?? {};
      const where = d.url || d.scriptName || d.stackTrace?.[0]?.url || '';
      const k = e.name + (where ? ` ${short(where)}` : d.functionName ? ` ${d.functionName}` : '');
      inner.set(k, (inner.get(k) ?? 0) + e.dur / 1000);
    }
    // self time by function, and the time under each of the page's own functions
    const self = new Map(), chunk = new Map(), total = new Map();
    if (prof) {
      for (let i = 0; i < prof.samples.length - 1; i++) {
        const ts = prof.times[i];
        if (ts < t0 || ts >= t1) continue;
        const dt = Math.min(prof.times[i + 1], t1) - ts;
        const n = prof.nodes.get(prof.samples[i]);
        const cf = n?.callFrame ?? {};
        const k = `${cf.functionName || '(anonymous)'} ${short(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
        self.set(k, (self.get(k) ?? 0) + dt / 1000);
        const c = short(cf.url) || cf.functionName || '?';
        chunk.set(c, (chunk.get(c) ?? 0) + dt / 1000);
        // inclusive time: every function on the sample's stack, once
        const seen = new Set();
        for (let m = n; m; m = prof.nodes.get(m.parent)) {
          const f = m.callFrame ?? {};
          if (!f.url) continue;
          const key = `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
          if (seen.has(key)) continue;
          seen.add(key);
          total.set(key, (total.get(key) ?? 0) + dt / 1000);
        }
      }
    }
    const top = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).filter(([, v]) => v >= 0.5).map(([k, v]) => `${r1(v)} ${k}`);
    const drawn = marks.filter((m) => m.ts >= t0 && m.ts <= t1).map((m) => `${m.name.slice(6)} at +${r1((m.ts - t0) / 1000)}`);
    out.push({ at: r1((t0 - nav) / 1000), ms: r1(task.dur / 1000), cpu: task.tdur === undefined ? null : r1(task.tdur / 1000), beforeFirstChart: t0 < mark.ts, events: top(inner, 10), drawn, selfByChunk: top(chunk, 6), self: top(self, 14), total: top(total, 16) });
  }
  return { firstChart: r1((mark.ts - nav) / 1000), tasks: out };
}

const srv = await serve(dist, { prefix: '/prof/' });
const browser = await launch();
console.log(`profile-load: ${dist}, ${RUNS} cold loads of ${HASH}${THROTTLE ? `, ${THROTTLE}× CPU throttling, 390×844` : ', 1280×900'}; load average ${os.loadavg().map(r1).join(' ')}`);
try {
  for (let run = 0; run < RUNS; run++) {
    const ctx = await browser.newContext(THROTTLE ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.addInitScript(MARKS);
    if (THROTTLE) await (await ctx.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(srv.url + HASH);
    await page.waitForFunction(() => (window.__sqrtdkPerf ?? []).length > 0, null, { timeout: 60000, polling: 10 });
    await settled(page, 60000).catch(() => {});
    const buf = await browser.stopTracing();
    const { traceEvents } = JSON.parse(buf.toString('utf8'));
    const a = analyse(traceEvents);
    const long = a.tasks;
    console.log(`\nload ${run + 1}: first chart at ${a.firstChart} ms; ${long.filter((t) => t.beforeFirstChart).length} tasks ≥ ${MIN_MS} ms before it, ${long.filter((t) => !t.beforeFirstChart).length} after it (until settled)`);
    for (const t of long) {
      console.log(`  task at ${t.at} ms: ${t.ms} ms${t.cpu === null ? '' : ` (${t.cpu} ms on the CPU)`}${t.beforeFirstChart ? '' : ' (after the first chart)'}`);
      console.log(`    events: ${t.events.join(' · ')}`);
      if (t.drawn.length) console.log(`    charts drawn: ${t.drawn.join(', ')}`);
      console.log(`    self by file: ${t.selfByChunk.join(' · ')}`);
      for (const s of t.self) console.log(`      ${s}`);
      if (t.total.length) console.log(`    inclusive (the page's and libraries' functions on the stack): ${t.total.join(' · ')}`);
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await srv.close();
}
