// Panel 11, "your device": on the reader's own device, attention GFLOP/s of our SIMD128 kernel, our
// scalar kernel and a plain JavaScript loop, the wasm SIMD128 multiply–add peak, the compute worker
// pool size and whether the engine validates SIMD128. Runs only when asked (a few seconds, in its
// own worker, one slice at a time so Cancel stops it between slices); the link carries no result.
import type { KeyFigure } from '../requests/key-figures.ts';
import deviceWorkerUrl from '../device/worker.ts?worker&url';
import './device.css';
import { ChartBox } from '../charts/chartbox.ts';
import { h, setText } from '../dom.ts';
import { fmt, pct } from '../format.ts';
import { simdSupported } from '../../../wasm/js/core.js';
import { shell, readout, scrollTable } from './kit.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { BUDGET_MS, DEVICE_SHAPE, attentionFlops, plan, plannedMs } from '../device/bench.ts';
import type { DeviceResult, Measure } from '../device/bench.ts';
import { buildDevice, buildDevicePlan, deviceRows, measureLabel } from '../device/chart.ts';
import { runDevice } from '../device/run.ts';
import type { DeviceReply, DeviceRequest } from '../device/protocol.ts';
import { select } from '../controls.ts';

type Phase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

/** The device worker with request ids; created on the first run, terminated with the panel. */
class DeviceWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  constructor(spawnWorker: PanelCtx['spawnWorker']) {
    this.worker = spawnWorker(deviceWorkerUrl, 'sqrtdk-device');
    this.worker.onmessage = (ev: MessageEvent<DeviceReply>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return;
      this.pending.delete(ev.data.id);
      if (ev.data.ok) p.resolve(ev.data.result);
      else p.reject(Object.assign(new Error(ev.data.error.message), { name: ev.data.error.name }));
    };
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      for (const p of this.pending.values()) p.reject(new Error(ev.message || 'the benchmark worker failed'));
      this.pending.clear();
    };
  }
  send(req: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...req, id } as DeviceRequest);
    });
  }
  terminate(): void {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error('cancelled'));
    this.pending.clear();
  }
}

export function devicePanel({ t, store, compute, charts, spawnWorker, engine: coreEngine }: PanelCtx): PanelView {
  const s = shell('device', 11, t('dev.title'), t('dev.lede'), [], t, charts);
  s.formula.remove();
  const hc = typeof navigator !== 'undefined' && Number.isFinite(navigator.hardwareConcurrency) ? navigator.hardwareConcurrency : 0;
  const pool = compute.poolSize;  // the page's own pool (worker/pool.ts; ?pool=N overrides it)

  // the kernel family of every computation of the page (the `kernel` key) and the engine's state
  const kernelSel = select(store, null, 'kernel', t('app.kernel'), (['auto', 'simd', 'scalar'] as const).map((k) => ({ value: k, label: t(`app.kernel.${k}`) })));
  const engine = h('p', { class: 'status', 'data-status': '', role: 'status' });
  const showEngine = () => {
    const e = coreEngine.status(t, store.state.kernel);
    setText(engine, e.text);
    if (e.title) engine.title = e.title; else engine.removeAttribute('title');
  };
  const offEngine = coreEngine.onChange(showEngine);
  s.controls.append(h('div', { class: 'device-engine', 'data-key': 'engine' }, kernelSel.el, engine));
  kernelSel.sync(store.state);
  showEngine();

  // Run / Cancel, progress
  const runBtn = h('button', { type: 'button', class: 'button', 'data-action': 'device-run', text: t('dev.run') }) as HTMLButtonElement;
  const cancelBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'device-cancel', text: t('dev.cancel'), disabled: true }) as HTMLButtonElement;
  const bar = h('progress', { max: 1, value: 0, 'data-device-progress': '', 'aria-label': t('dev.progress') }) as HTMLProgressElement;
  const statusEl = h('span', { class: 'train-status', 'data-device-status': '', role: 'status', text: t('dev.status.idle') });
  s.controls.append(h('div', { class: 'train-runbar device-runbar', 'data-key': 'device-run' }, runBtn, cancelBtn, bar, statusEl));

  // facts known before any run
  // the device's key figures (measured here, not computed from a request): each readout and the poster read them
  const figures = new Map<string, KeyFigure>();
  const figureOf = (id: string, label: string, wide = false) => {
    const el = readout(s.readouts, id, label, wide);
    return (value: string) => { figures.set(id, { id, label, value }); setText(el, value); };
  };
  const roPool = figureOf('dev-pool', t('dev.ro.pool'));
  const roSimd = figureOf('dev-simd', t('dev.ro.simd'));
  const roSpeed = figureOf('dev-speedup', t('dev.ro.speedup'));
  const roShape = figureOf('dev-shape', t('dev.ro.shape'), true);
  roPool(hc > 0 ? t('dev.ro.poolValue', { n: pool, hc }) : t('dev.ro.poolUnknown', { n: pool }));
  roSimd(t('dev.ro.simdPending'));
  roShape(t('dev.ro.shapeValue', { h: DEVICE_SHAPE.heads, L: DEVICE_SHAPE.seqLen, dk: DEVICE_SHAPE.dk, flops: attentionFlops(DEVICE_SHAPE).toLocaleString(store.state.lang) }));
  const noSimd = h('p', { class: 'notice warn', 'data-device-nosimd': '', hidden: true, text: t('dev.noSimd') });
  s.controls.append(noSimd);
  let alive = true;
  /** whether the engine validates SIMD128 (null until known): which measures a run will time */
  let simd: boolean | null = null;
  void simdSupported().then((ok) => {
    if (!alive) return;
    simd = ok;
    roSimd(t(ok ? 'dev.ro.simdYes' : 'dev.ro.simdNo'));
    s.el.dataset.simd = String(ok);
    noSimd.hidden = ok;
    if (!last) showPlan();
  });

  // results: the chart and the table; before a run, the chart's axes with a slot per measure, the
  // table's rows, and in the plot area what a run does and how long it takes (with Run, so a
  // charts-only embed can start it)
  const results = h('div', { class: 'chart-pair', 'data-part': 'charts' });
  s.charts.append(results);
  const chart = new ChartBox(charts, 'device-gflops', t('dev.chart'), t, { height: 260 });
  const planText = h('p', { 'data-device-plan': '' });
  const planRun = h('button', { type: 'button', class: 'button', 'data-action': 'device-run-plan', text: t('dev.run') }) as HTMLButtonElement;
  const planCard = h('div', { class: 'train-plan-card' }, h('p', { class: 'train-placeholder', text: t('dev.plan.title') }), planText, planRun);
  const tbody = h('tbody', {});
  const table = h('table', { class: 'table', 'data-device-table': '' },
    h('caption', { class: 'sr-only', text: t('dev.table') }),
    h('thead', {}, h('tr', {}, ...(['dev.th.measure', 'dev.th.gflops', 'dev.th.ms', 'dev.th.calls', 'dev.th.ofPeak'] as const).map((k) => h('th', { scope: 'col', text: t(k) })))),
    tbody);
  setText(s.text, t('dev.explain', { ms: BUDGET_MS }));
  results.append(chart.el, scrollTable(table, t('dev.table'), { 'data-part': 'charts' }));

  /** The chart's axes and the table's rows before a run, and the plan over the plot area. */
  function showPlan(): void {
    const measures = plan(simd ?? true);
    chart.set(buildDevicePlan(measures, DEVICE_SHAPE, t));
    chart.setOverlay(planCard);
    setText(planText, t('dev.plan', { n: measures.length, ms: BUDGET_MS, s: fmt(plannedMs(measures.length) / 1000, 2) }));
    tbody.replaceChildren(...measures.map((m) => h('tr', { 'data-measure': m },
      h('th', { scope: 'row', text: measureLabel(t, m) }), ...Array.from({ length: 4 }, () => h('td', { text: '–' })))));
  }
  showPlan();

  let phase: Phase = 'idle';
  let worker: DeviceWorker | null = null;
  let token = { cancelled: false };
  let last: DeviceResult | null = null;
  const setPhase = (p: Phase, status: string) => {
    phase = p;
    s.el.dataset.device = p;
    runBtn.disabled = p === 'running';
    planRun.disabled = p === 'running';
    cancelBtn.disabled = p !== 'running';
    setText(statusEl, status);
  };
  setPhase('idle', t('dev.status.idle'));

  const show = (r: DeviceResult) => {
    last = r;
    chart.setOverlay(null);
    chart.set(buildDevice(r, t));
    const rows = deviceRows(r, t);
    tbody.replaceChildren(...rows.map((x) => h('tr', { 'data-measure': x.measure },
      h('th', { scope: 'row', text: x.label }),
      h('td', { 'data-gflops': String(x.gflops), text: fmt(x.gflops, 3) }),
      h('td', { 'data-ms': String(x.ms), text: fmt(x.ms, 3) }),
      h('td', { text: String(x.calls) }),
      h('td', { text: x.ofPeak === null ? '–' : pct(x.ofPeak) }))));
    const g = (m: Measure) => r.timings.find((x) => x.measure === m)?.gflops;
    const simd = g('simd');
    roSpeed(simd ? t('dev.ro.speedupValue', { scalar: fmt(simd / g('scalar')!, 3), js: fmt(simd / g('js')!, 3) }) : '–');
    roSimd(t(r.facts.simd ? 'dev.ro.simdYes' : 'dev.ro.simdNo'));
  };

  const run = async () => {
    if (phase === 'running') return;
    token.cancelled = true;
    const mine = { cancelled: false };
    token = mine;
    worker ??= new DeviceWorker(spawnWorker);
    const w = worker;
    setPhase('running', t('dev.status.loading'));
    bar.value = 0;
    try {
      const r = await runDevice({
        send: (req) => w.send(req),
        progress: (done, m) => { if (!mine.cancelled) { bar.value = done; setText(statusEl, t('dev.status.running', { measure: measureLabel(t, m) })); } },
        cancelled: () => mine.cancelled,
        hardwareConcurrency: hc,
        poolSize: pool,
      });
      if (mine.cancelled || !alive) return;
      if (!r) return;
      bar.value = 1;
      show(r);
      setPhase('done', t('dev.status.done', { n: r.timings.length }));
    } catch (e) {
      if (mine.cancelled || !alive) return;
      setPhase('failed', t('dev.status.failed', { message: e instanceof Error ? e.message : String(e) }));
    }
  };
  runBtn.addEventListener('click', () => { void run(); });
  planRun.addEventListener('click', () => { void run(); });
  cancelBtn.addEventListener('click', () => {
    if (phase !== 'running') return;
    token.cancelled = true;
    setPhase('cancelled', t('dev.status.cancelled'));
    runBtn.focus();
  });
  // tests read the last result
  (window as unknown as { __sqrtdkDevice?: { last: () => DeviceResult | null } }).__sqrtdkDevice = { last: () => last };

  return {
    id: 'device',
    keyFigures: () => ['dev-pool', 'dev-simd', 'dev-speedup', 'dev-shape'].flatMap((id) => figures.get(id) ?? []),
    el: s.el,
    update(next, changed) {
      kernelSel.sync(next);
      showEngine();
      if (changed === null || changed.has('lang')) { if (last) show(last); }
    },
    destroy() {
      offEngine();
      alive = false;
      token.cancelled = true;
      worker?.terminate();
      worker = null;
      chart.destroy();
    },
  };
}
