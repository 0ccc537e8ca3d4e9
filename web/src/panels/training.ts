// Panel 10, the training lab (claims C9 and C10): a small Transformer trained in the browser with
// every ticked attention variant from the same seed — same initial weights where shapes allow, same
// batches — in a dedicated worker, chunk by chunk (web/src/training/controller.ts). Live curves,
// an end-of-run table, and the trained logits against the iid N(0, 1) of the √d_k argument.
import type { KeyFigure } from '../requests/key-figures.ts';
import { moduleWorker } from '../worker/spawn.ts';
import trainingWorkerUrl from '../training/worker.ts?worker&url';
import type { AttentionVariant } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { csvText } from '../charts/kit.ts';
import {
  buildTrainLoss, buildTrainGradNorm, buildTrainLayers, buildTrainAccuracy, buildTrainLogitHist, summaryRows, summaryCsv, VARIANT_COLOURS,
} from '../charts/training.ts';
import { select, showError, clearErrors, controlVisible } from '../controls.ts';
import { slotOfMessage } from './refusal.ts';
import type { Control } from '../controls.ts';
import { SCHEMA, TRAIN_VARIANTS } from '../state/schema.js';
import type { State, StateKey, TrainVariant } from '../state/state.ts';
import type { MessageKey, T } from '../i18n/messages.ts';
import { fmt, pct } from '../format.ts';
import { h, setText, download } from '../dom.ts';
import { shell, claimBox, scrollTable } from './kit.ts';
import { c9Verdict, c10Verdict } from '../claims.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { TrainingController, TrainingWorkerError } from '../training/controller.ts';
import type { RunSeries } from '../training/series.ts';
import { hasHeadScale, lastFiniteLoss, emptySeries } from '../training/series.ts';
import { trainingConfigs, runKey, refusals, readNumber, TRAIN_KEYS, RUN_KEYS } from '../training/config.ts';
import type { WorkerLike } from '../worker/protocol.ts';

type NumKey = 'trvocab' | 'trlen' | 'trlayers' | 'trdm' | 'trheads' | 'trmlp' | 'trinit' | 'trlr' | 'trwarm' | 'trclip' | 'trcap' | 'trsteps' | 'trseed' | 'trthr';

/** What survives a re-mount (a language switch rebuilds every panel): the controller and the last runs. */
interface Session {
  controller: TrainingController | null;
  runs: RunSeries[];
  /** runKey of the configuration the runs were started with */
  key: string;
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'error';
  sps: number;
  error: string;
  /** the softmax / clip / warm-up / T of the runs, for the text */
  cfg: State | null;
  listener: ((kind: 'progress' | 'done' | 'error') => void) | null;
}
const session: Session = { controller: null, runs: [], key: '', status: 'idle', sps: 0, error: '', cfg: null, listener: null };

function controller(): TrainingController {
  session.controller ??= new TrainingController({
    createWorker: () => moduleWorker(trainingWorkerUrl, 'sqrtdk-training') as unknown as WorkerLike,
    // chunks of ~25 ms; a chunk still running 40 ms after Cancel is cut short by terminating the worker
    chunkMs: 25,
    cancelGraceMs: 40,
  });
  // tests and bench read the controller (cancel latency, steps/s)
  (window as unknown as { __sqrtdkTraining?: object }).__sqrtdkTraining = { session, controller: session.controller };
  return session.controller;
}

/** A number input bound to a training key: a typed-in value out of range is refused beside it. */
function numberInput(store: PanelCtx['store'], key: NumKey, label: string, t: T, extra?: HTMLElement): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'number', min: spec.min, max: spec.max, step: spec.type === 'num' ? 'any' : 1, class: 'seed', inputMode: 'decimal' }) as HTMLInputElement;
  const id = `c-${key}-${Math.random().toString(36).slice(2, 8)}`;
  input.id = id;
  const err = h('span', { class: 'err', 'data-err-for': key, role: 'alert' });
  input.addEventListener('change', () => {
    const r = readNumber(key, input.value);
    if (!r.ok) { setText(err, t(r.msg, r.vars)); input.setAttribute('aria-invalid', 'true'); return; }
    input.removeAttribute('aria-invalid');
    setText(err, '');
    store.set({ [key]: r.value, exp: 'training' } as Partial<State>, key);
  });
  const el = h('div', { class: 'control', 'data-key': key }, h('label', { for: id, text: label }), h('div', { class: 'control-row' }, input, extra ?? null), err);
  return {
    el,
    sync(s) { const v = String(s[key]); if (document.activeElement !== input && input.value !== v) { input.value = v; input.removeAttribute('aria-invalid'); } },
  };
}

export function trainingPanel({ t, store }: PanelCtx): PanelView {
  const s = shell('training', 10, t('train.title'), t('train.lede'), ['training', 'trainingOpt'], t);
  const dkOut = h('output', { class: 'value', 'data-dk': '' });
  const paramsOut = h('span', { class: 'train-budget', 'data-train-budget': '' });
  const controls: Control[] = [
    select(store, 'training', 'trtask', t('train.task'), (['copy', 'reverse', 'sort', 'assoc_recall'] as const).map((v) => ({ value: v, label: t(`train.task.${v}`) }))),
    numberInput(store, 'trvocab', t('train.vocab'), t),
    numberInput(store, 'trlen', t('train.seqLen'), t),
    numberInput(store, 'trlayers', t('train.layers'), t),
    numberInput(store, 'trdm', t('train.dModel'), t),
    numberInput(store, 'trheads', t('train.heads'), t, dkOut),
    numberInput(store, 'trmlp', t('train.mlp'), t),
    select(store, 'training', 'trnorm', t('train.norm'), (['pre', 'post'] as const).map((v) => ({ value: v, label: t(`train.norm.${v}`) }))),
    numberInput(store, 'trinit', t('train.init'), t),
    numberInput(store, 'trlr', t('train.lr'), t),
    numberInput(store, 'trwarm', t('train.warmup'), t),
    numberInput(store, 'trclip', t('train.clip'), t),
    numberInput(store, 'trsteps', t('train.steps'), t),
    numberInput(store, 'trseed', t('common.seed'), t),
    select(store, 'training', 'trsm', t('train.softmax'), (['safe', 'naive'] as const).map((v) => ({ value: v, label: t(`train.softmax.${v}`) }))),
    numberInput(store, 'trcap', t('train.softcap'), t),
    numberInput(store, 'trthr', t('train.thr'), t),
  ];
  // the variants: several at once
  const boxes = new Map<TrainVariant, HTMLInputElement>();
  const varErr = h('span', { class: 'err', 'data-err-for': 'trvar', role: 'alert' });
  const varEl = h('fieldset', { class: 'control train-variants', 'data-key': 'trvar' },
    h('legend', { text: t('train.variants') }),
    h('div', { class: 'control-row' }, ...TRAIN_VARIANTS.map((v) => {
      const cb = h('input', { type: 'checkbox', value: v, 'data-variant': v }) as HTMLInputElement;
      boxes.set(v, cb);
      cb.addEventListener('change', () => {
        const next = TRAIN_VARIANTS.filter((x) => boxes.get(x)!.checked);
        if (next.length === 0) { cb.checked = true; setText(varErr, t('train.err.noVariant')); return; }
        setText(varErr, '');
        store.set({ trvar: next, exp: 'training' }, 'trvar');
      });
      return h('label', { class: 'check', style: `--c:${VARIANT_COLOURS[v]}` }, cb, h('span', { text: t(`train.v.${v}`) }));
    })), varErr);
  controls.push({ el: varEl, sync(st) { for (const [v, cb] of boxes) cb.checked = st.trvar.includes(v); } });
  // the presets in front; every setting behind a disclosure (opened by a refusal inside it)
  const advanced = h('details', { class: 'train-advanced', 'data-train-advanced': '' },
    h('summary', { text: t('train.advanced') }), h('div', { class: 'controls-grid' }, ...controls.map((c) => c.el)));
  const presets = h('div', { class: 'presets', 'data-key': 'train-presets' },
    h('span', { class: 'presets-label', text: t('train.presets') }),
    h('button', { type: 'button', class: 'mini', 'data-preset': 'c10-naive', text: t('train.preset.naive'),
      onclick: () => store.set({ trvar: ['none', 'inv_sqrt_dk'], trsm: 'naive', trheads: 1, trdm: 64, exp: 'training' }, 'trsm') }),
    h('button', { type: 'button', class: 'mini', 'data-preset': 'c10-safe', text: t('train.preset.safe'),
      onclick: () => store.set({ trvar: ['none', 'inv_sqrt_dk'], trsm: 'safe', trheads: 1, trdm: 64, exp: 'training' }, 'trsm') }),
    h('button', { type: 'button', class: 'mini', 'data-preset': 'default', text: t('train.preset.default'),
      onclick: () => store.set(Object.fromEntries(TRAIN_KEYS.map((k) => [k, Array.isArray(SCHEMA[k].default) ? [...SCHEMA[k].default as readonly string[]] : SCHEMA[k].default])) as Partial<State>, 'trtask') }));
  s.controls.append(presets, advanced);
  /** A refusal beside a setting shows: the disclosure opens so the reader sees it. */
  const revealErrors = () => { if ([...advanced.querySelectorAll('[data-err-for]')].some((e) => e.textContent !== '')) advanced.open = true; };

  // Run / Cancel, progress
  const runBtn = h('button', { type: 'button', class: 'button', 'data-action': 'train-run', text: t('train.run') }) as HTMLButtonElement;
  const cancelBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'train-cancel', text: t('train.cancel'), disabled: true }) as HTMLButtonElement;
  const bar = h('progress', { max: 1, value: 0, 'data-train-progress': '', 'aria-label': t('train.steps') }) as HTMLProgressElement;
  const statusEl = h('span', { class: 'train-status', 'data-train-status': '', role: 'status' });
  const runErr = h('span', { class: 'err', 'data-err-for': 'train-run', role: 'alert' });
  // Run / Cancel beside the curves (the charts part: a charts-only embed has them too)
  const runbar = h('div', { class: 'train-runbar', 'data-key': 'train-run', 'data-part': 'charts' }, runBtn, cancelBtn, bar, statusEl, paramsOut, runErr);

  // the results: before a run, the charts' empty axes and the table's rows of the runs Run will
  // start, the plan and the core's estimate of its time in the loss chart's plot area (so a link
  // that waits for Run, trauto=0, shows what it will draw, in the space the curves will take)
  const results = h('div', { class: 'train-results', 'data-part': 'charts' });
  // the Run button sits with the charts, so every view of them can train (an embed without its
  // controls cannot change the settings: the text does not ask it to)
  const noControls = store.state.embed && !store.state.show.includes('controls');
  const planText = h('p', { 'data-train-plan': '' });
  const planTime = h('p', { 'data-train-estimate': '' });
  const planRun = h('button', { type: 'button', class: 'button', 'data-action': 'train-run-plan', text: t('train.run') }) as HTMLButtonElement;
  const placeholder = h('div', { class: 'train-plan-card' }, h('p', { class: 'train-placeholder', text: t('train.placeholder') }), planText, planTime, planRun);
  /** the core's estimate of the planned runs (seconds of work by its cost model), once the budget check answered */
  let estimate: number | null = null;
  s.charts.append(runbar, results);
  let charts: ChartBox[] = [];
  let chartLoss: ChartBox, chartGrad: ChartBox, chartEnt: ChartBox, chartLogit: ChartBox, chartScale: ChartBox, chartAcc: ChartBox;
  let histCharts: ChartBox[] = [];
  const tableBody = h('tbody');
  const iidBody = h('tbody');
  const tableCsv = h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv') }) as HTMLButtonElement;
  const iidCsv = h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv') }) as HTMLButtonElement;
  const histWrap = h('div', { class: 'chart-pair' });
  const analysisBox = h('div', { class: 'train-analysis', hidden: true },
    h('h3', { text: t('train.iid.title') }), h('p', { class: 'chart-note', text: t('train.iid.note') }), histWrap,
    h('figure', { class: 'chart table-box', 'data-table-box': 'training-iid' },
      h('div', { class: 'chart-head' }, h('h3', { class: 'chart-title', text: t('train.iid.table') }), h('div', { class: 'chart-tools' }, iidCsv)),
      scrollTable(h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ...(['variant', 'layer', 'scale', 'varLogit', 'varQk', 'iidQk', 'entropy'] as const).map((c) => h('th', { text: t(`train.iid.th.${c}`) })))),
        iidBody), t('train.iid.table'))));
  const tableBox = h('figure', { class: 'chart table-box', 'data-table-box': 'training-table' },
    h('div', { class: 'chart-head' }, h('h3', { class: 'chart-title', 'data-train-table-title': '' }), h('div', { class: 'chart-tools' }, tableCsv)),
    scrollTable(h('table', { class: 'table train-table' },
      h('thead', {}, h('tr', {}, ...(['variant', 'steps', 'final', 'heldout', 'tokAcc', 'seqAcc', 'reach', 'nonfinite'] as const).map((c) => h('th', { text: t(`train.th.${c}`) })))),
      tableBody), t('train.title')));

  /** The runs Run would start now: each ticked variant, no step done (the axes and rows before a run). */
  const plannedRuns = (): RunSeries[] => state.trvar.map((v) => emptySeries(v, state.trlayers, state.trsteps));
  /** A line over an empty chart's plot area: what it waits for. */
  const waitNote = (key: MessageKey) => h('p', { text: t(key) });
  let lineNotes: HTMLElement[] = [];
  const accNote = waitNote('train.plan.after');

  function buildResults(): void {
    if (charts.length) return;
    chartLoss = new ChartBox('training-loss', t('train.chart.loss'), t, { height: 280 });
    chartGrad = new ChartBox('training-gradnorm', t('train.chart.gradNorm'), t, { height: 280 });
    chartEnt = new ChartBox('training-entropy', t('train.chart.entropy'), t, { height: 260 });
    chartLogit = new ChartBox('training-maxlogit', t('train.chart.maxLogit'), t, { height: 260 });
    chartScale = new ChartBox('training-headscale', t('train.chart.headScale'), t, { height: 240 });
    chartAcc = new ChartBox('training-accuracy', t('train.chart.accuracy'), t, { height: 240 });
    charts = [chartLoss, chartGrad, chartEnt, chartLogit, chartScale, chartAcc];
    results.append(h('div', { class: 'chart-pair' }, chartLoss.el, chartGrad.el), h('div', { class: 'chart-pair' }, chartEnt.el, chartLogit.el),
      h('div', { class: 'chart-pair' }, chartScale.el, chartAcc.el), tableBox, analysisBox);
    chartAcc.setNote(t('train.accNote'));
    lineNotes = [chartGrad, chartEnt, chartLogit, chartScale].map(() => waitNote('train.plan.curves'));
  }

  const c9 = claimBox(s.claims, 'C9', t('train.claim9'), t);
  const c10 = claimBox(s.claims, 'C10', t('train.claim10'), t);

  let state = store.state;
  let checkSeq = 0;
  let lastDraw = 0;
  let drawTimer: ReturnType<typeof setTimeout> | undefined;
  const vname = (v: AttentionVariant) => t(`train.v.${v}`);
  /** the run table's key figures (drawTable) */
  let tableFigures: KeyFigure[] = [];

  function exportCsv(name: string, csv: { header: string[]; rows: (string | number)[][] }): void {
    const url = URL.createObjectURL(new Blob([csvText(csv)], { type: 'text/csv;charset=utf-8' }));
    download(`sqrtdk-${name}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  tableCsv.addEventListener('click', () => exportCsv('training-table', summaryCsv(summaryRows(session.runs, state.trthr), state.trthr)));
  iidCsv.addEventListener('click', () => exportCsv('training-iid', iidCsvOf(session.runs)));

  function iidCsvOf(runs: RunSeries[]) {
    const rows: (string | number)[][] = [];
    for (const r of runs) r.analysis?.layers.forEach((a, l) => rows.push([r.variant, l + 1, a.scale, a.logitMoments.variance, a.qk.variance, a.iidQkVariance, a.entropy, a.maxAbsLogit]));
    return { header: ['variant', 'layer', 'scale_c', 'var_scaled_logit', 'var_qk', 'iid_var_qk', 'mean_entropy_nats', 'max_abs_logit'], rows };
  }

  /** Static refusals and the core's budget check; Run is enabled only when both pass. */
  function validate(source?: StateKey): void {
    if (coreErrKey) { setText(s.el.querySelector(`[data-err-for="${coreErrKey}"]`), ''); coreErrKey = null; }
    clearErrors(s.el, 'train:run');  // a run's refusal belongs to the configuration it was started with
    for (const k of ['trheads', 'trwarm', 'trvar', 'train-run'] as const) {
      const slot = s.el.querySelector<HTMLElement>(`[data-err-for="${k}"]`);
      if (slot && !(k === 'trvar' && slot.textContent && state.trvar.length === 0)) setText(slot, '');
    }
    estimate = null;
    const bad = refusals(state);
    setText(dkOut, state.trdm % state.trheads === 0 ? t('train.dk', { dk: state.trdm / state.trheads }) : t('train.dkBad'));
    for (const r of bad) setText(s.el.querySelector(`[data-err-for="${r.key}"]`), t(r.msg, r.vars));
    // any earlier budget check still pending is stale now
    const seq = ++checkSeq;
    if (checkTimer !== undefined) { clearTimeout(checkTimer); checkTimer = undefined; }
    if (bad.length) { runBtn.disabled = true; runBtn.dataset.refused = '1'; setText(paramsOut, ''); autoPending = false; revealErrors(); return; }
    runBtn.dataset.refused = 'checking';
    // the budget check asks the core (the training worker): debounced, and at load deferred so
    // that the other panels' first charts come first
    if (checkTimer !== undefined) clearTimeout(checkTimer);
    const later = () => { checkTimer = setTimeout(() => { checkTimer = undefined; if (seq === checkSeq) budgetCheck(seq, source); }, first ? 600 : 250); first = false; };
    // a link that starts its run checks at once (one panel per view: nothing else computes first)
    if (autoPending) { first = false; budgetCheck(seq, source); return; }
    // the first check waits until the panel is on screen: the training worker (a third core
    // instance) is not started while the page's first charts are being computed
    if (first && typeof IntersectionObserver !== 'undefined') {
      visibility?.disconnect();
      visibility = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        visibility?.disconnect();
        visibility = null;
        later();
      });
      visibility.observe(s.el);
    } else later();
  }
  let visibility: IntersectionObserver | null = null;
  // trauto (default 1): the linked run starts when the view opens, unless this configuration ran
  // or runs already (a language switch re-mounts the view); it waits for the budget check
  let autoPending = store.state.trauto && session.key !== runKey(store.state);

  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** where the core's last refusal is shown (cleared by the next check) */
  let coreErrKey: string | null = null;
  let first = true;
  function budgetCheck(seq: number, source?: StateKey): void {
    controller().check(trainingConfigs(state).slice(0, 1).concat(trainingConfigs(state).filter((c) => c.attention === 'qk_layernorm'))).then((infos) => {
      if (seq !== checkSeq) return;
      // every variant's step costs the same by the cost model (it counts the sizes, not the attention)
      estimate = (infos[0]?.stepSeconds ?? NaN) * state.trsteps * state.trvar.length;
      if (!Number.isFinite(estimate)) estimate = null;
      runBtn.dataset.refused = '';
      syncButtons();
      setText(paramsOut, '');
      // the check answers later: a reader who has left the view meanwhile is not brought back to it
      if (autoPending) { autoPending = false; if (store.state.exp === 'training') startRun(); }
    }, (e: unknown) => {
      if (seq !== checkSeq) return;
      const msg = e instanceof Error ? e.message : String(e);
      if (msg === 'cancelled' || msg === 'destroyed') { runBtn.dataset.refused = ''; syncButtons(); return; }
      // the worker died or hung during the check: no verdict on the configuration — Run stays
      // available (it starts a fresh worker) and the reader is told what happened
      if (e instanceof TrainingWorkerError) {
        runBtn.dataset.refused = '';
        syncButtons();
        coreErrKey = 'train-run';
        setText(s.el.querySelector(`[data-err-for="${coreErrKey}"]`), t(`train.err.${e.kind}`));
        return;
      }
      runBtn.dataset.refused = '1';
      runBtn.disabled = true;
      // beside the control of the parameter named (the one just moved, if named); a run's memory
      // grows with every size, so a memory refusal goes beside the size just moved
      let key: string = slotOfMessage('training', msg, source, (k) => controlVisible(s.el, k));
      if (/MiB/.test(msg) && source && (TRAIN_KEYS as readonly string[]).includes(source)) key = source;
      coreErrKey = key === 'panel' ? 'train-run' : key;
      setText(s.el.querySelector(`[data-err-for="${coreErrKey}"]`), t('train.err.core', { message: msg }));
      autoPending = false;
      revealErrors();
    });
  }

  function syncButtons(): void {
    const running = session.status === 'running';
    runBtn.disabled = running || runBtn.dataset.refused === '1';
    planRun.disabled = runBtn.disabled;
    cancelBtn.disabled = !running;
    s.el.dataset.training = session.status;
    if (!session.runs.length) drawPlan();
  }

  function statusText(): string {
    const runs = session.runs;
    const total = runs.reduce((n, r) => n + r.steps, 0);
    const done = runs.reduce((n, r) => n + (r.finished ? r.steps : r.stepsDone), 0);
    bar.max = Math.max(1, total);
    bar.value = done;
    const sps = fmt(session.sps, 3);
    switch (session.status) {
      case 'running': return t('train.progress', { done: runs.reduce((n, r) => n + r.stepsDone, 0), total, sps, runs: runs.length });
      case 'done': return t('train.finished', { runs: runs.length, sps });
      case 'cancelled': return t('train.cancelled', { done: runs.reduce((n, r) => n + r.stepsDone, 0), ms: fmt(session.controller?.lastCancelMs ?? NaN, 2) });
      case 'error': return t('train.failed', { message: session.error });
      default: return t(noControls ? 'train.idleStatic' : 'train.idle');
    }
  }

  function drawNow(): void {
    lastDraw = performance.now();
    drawTimer = undefined;
    setText(statusEl, statusText());
    syncButtons();
    // before the first run: the planned runs, with nothing drawn yet
    const planned = session.runs.length === 0;
    const runs = planned ? plannedRuns() : session.runs;
    buildResults();
    const cfg = planned ? state : session.cfg ?? state;
    chartLoss.setOverlay(planned ? placeholder : null);
    [chartGrad, chartEnt, chartLogit, chartScale].forEach((c, i) => c.setOverlay(planned ? lineNotes[i] : null));
    if (planned) drawPlan();
    chartLoss.set(buildTrainLoss(runs, t));
    chartGrad.set(buildTrainGradNorm(runs, t, cfg.trclip));
    chartEnt.set(buildTrainLayers(runs, 'entropy', t, Math.log(cfg.trlen)));
    chartLogit.set(buildTrainLayers(runs, 'maxAbsLogit', t));
    const scaled = runs.some((r) => hasHeadScale(r.variant));
    chartScale.el.hidden = !scaled;
    if (scaled) chartScale.set(buildTrainLayers(runs, 'headScale', t));
    // the held-out accuracy is measured when the runs end: its axes wait until then
    chartAcc.setOverlay(runs.some((r) => r.evaluation) ? null : accNote);
    chartAcc.set(buildTrainAccuracy(runs, t));
    drawTable(runs, cfg);
    drawAnalysis(runs);
    if (planned) return;
    drawText(runs, cfg);
    s.el.dataset.stale = session.key !== runKey(state) ? '1' : '';
  }

  /** The plan in the loss chart's plot area: the runs Run starts and how long the core expects them to take. */
  function drawPlan(): void {
    const n = state.trvar.length;
    const vars = configVars(state);
    setText(planText, t('train.plan', { ...vars, runs: n, steps: state.trsteps }));
    // the text and the claims say what the runs will test: the configuration, and the why of each verdict
    setText(s.text, t('train.text', { ...vars, runs: t('train.idleStatic') }));
    c10.set(t('train.live10.idle'), null, state.trvar.includes('none') ? t(state.trsm === 'safe' ? (noControls ? 'train.why10.safeStatic' : 'train.why10.safe') : 'train.why10.naive') : undefined);
    c9.set(t('train.live9.idle'), null, state.trvar.some((v) => v === 'learnable_temperature' || v === 'qk_layernorm' || v === 'qk_l2') ? t('train.why9') : undefined);
    const refused = runBtn.dataset.refused === '1';
    setText(planTime, refused ? '' : estimate === null ? t('train.plan.timePending') : t('train.plan.time', { s: fmt(Math.max(estimate, 0.1), 2) }));
    planTime.dataset.seconds = estimate === null ? '' : String(estimate);
  }
  function draw(): void {
    // live updates at most every 100 ms; the final state at once
    if (session.status !== 'running') { if (drawTimer !== undefined) clearTimeout(drawTimer); drawNow(); return; }
    if (drawTimer !== undefined) return;
    drawTimer = setTimeout(drawNow, Math.max(0, 100 - (performance.now() - lastDraw)));
  }

  function drawTable(runs: RunSeries[], cfg: State): void {
    setText(s.el.querySelector('[data-train-table-title]'), t('train.table', { thr: fmt(state.trthr) }));
    const rows = summaryRows(runs, state.trthr);
    // '–' where there is no number yet (no evaluation before the end); a NaN the core measured is shown as NaN
    const num = (x: number, f: (x: number) => string = (v) => fmt(v), have = true) => (have ? (Number.isNaN(x) ? 'NaN' : f(x)) : '–');
    // the table's key figures, row by row (the poster draws the first three): label "variant · column"
    const figs = (r: (typeof rows)[number]): KeyFigure[] => ([
      ['steps', 'steps', String(r.stepsDone)],
      ['final', 'final', num(r.finalLoss, undefined, r.stepsDone > 0)],
      ['heldout', 'heldout', num(r.heldoutLoss, undefined, r.evaluated)],
      ['acc', 'tokAcc', num(r.tokenAccuracy, pct, r.evaluated)],
      ['seqacc', 'seqAcc', num(r.sequenceAccuracy, pct, r.evaluated)],
      ['reach', 'reach', r.stepsDone === 0 ? '–' : r.stepsToThreshold === null ? t('train.never') : String(r.stepsToThreshold)],
      ['nonfinite', 'nonfinite', r.stepsDone === 0 ? '–' : r.firstNonfinite === null ? t('train.none') : t('train.atStep', { step: r.firstNonfinite })],
    ] as const).map(([id, th, value]) => ({ id: `train-${id}-${r.variant}`, label: `${vname(r.variant)} · ${t(`train.th.${th}`)}`, value }));
    tableFigures = rows.flatMap(figs);
    tableBody.replaceChildren(...rows.map((r) => h('tr', { 'data-variant': r.variant, 'data-status': r.firstNonfinite !== null ? 'diverged' : '' },
      h('th', { scope: 'row' }, h('span', { class: 'swatch', style: `background:${VARIANT_COLOURS[r.variant]}` }), vname(r.variant)),
      ...figs(r).map((f) => h('td', { 'data-readout': f.id, text: f.value })))));
    void cfg;
  }

  /**
   * The trained logits against N(0, 1), per layer. Until the runs end (and before a run) each layer's
   * axes hold only the N(0, 1) density the iid argument predicts, and the table one row of '–'
   * per run and layer: the analysis is made on held-out data at the end.
   */
  function drawAnalysis(runs: RunSeries[]): void {
    const analysed = runs.filter((r) => r.analysis);
    analysisBox.hidden = runs.length === 0;
    if (!runs.length) return;
    const layers = analysed.length ? analysed[0].analysis!.layers.length : runs[0].layers;
    while (histCharts.length < layers) {
      const c = new ChartBox(`training-logits-l${histCharts.length + 1}`, t('train.chart.hist', { layer: histCharts.length + 1 }), t, { height: 240 });
      histCharts.push(c);
      histWrap.append(c.el);
    }
    while (histCharts.length > layers) { const c = histCharts.pop()!; c.destroy(); c.el.remove(); }
    histCharts.forEach((c, l) => { c.setOverlay(analysed.length ? null : waitNote('train.plan.after')); c.set(buildTrainLogitHist(analysed, l, t)); });
    if (!analysed.length) {
      iidBody.replaceChildren(...runs.flatMap((r) => Array.from({ length: r.layers }, (_, l) => h('tr', {},
        h('th', { scope: 'row', text: vname(r.variant) }), h('td', { text: String(l + 1) }), ...Array.from({ length: 5 }, () => h('td', { text: '–' }))))));
      return;
    }
    iidBody.replaceChildren(...analysed.flatMap((r) => r.analysis!.layers.map((a, l) => h('tr', {},
      h('th', { scope: 'row', text: vname(r.variant) }), h('td', { text: String(l + 1) }), h('td', { text: fmt(a.scale, 3) }),
      h('td', { 'data-readout': `train-varlogit-${r.variant}-${l + 1}`, text: fmt(a.logitMoments.variance, 3) }),
      h('td', { text: fmt(a.qk.variance, 3) }), h('td', { text: fmt(a.iidQkVariance, 3) }), h('td', { text: fmt(a.entropy, 3) })))));
  }

  /** The configuration's words and numbers in the text's sentences (train.text, train.plan). */
  function configVars(cfg: State): Record<string, string | number> {
    return {
      task: t(`train.task.${cfg.trtask}`), T: cfg.trlen, layers: cfg.trlayers, dm: cfg.trdm, heads: cfg.trheads,
      dk: fmt(cfg.trdm / cfg.trheads, 3), softmax: t(`train.softmax.${cfg.trsm}`), seed: cfg.trseed,
    };
  }

  function drawText(runs: RunSeries[], cfg: State): void {
    const done = session.status === 'done';
    const dk = cfg.trdm / cfg.trheads;
    const parts: string[] = [];
    const byV = (v: AttentionVariant) => runs.find((r) => r.variant === v);
    for (const r of runs) {
      parts.push(r.firstNonfinite !== null
        ? t('train.text.diverged', { variant: vname(r.variant), step: r.firstNonfinite, last: fmt(lastFiniteLoss(r), 3) })
        : t('train.text.run', { variant: vname(r.variant), steps: r.stepsDone, loss: fmt(r.loss[r.loss.length - 1] ?? NaN, 3),
          acc: r.evaluation ? pct(r.evaluation.tokenAccuracy) : '–' }));
    }
    let iid = '';
    const ref = byV('inv_sqrt_dk') ?? runs.find((r) => r.analysis);
    if (ref?.analysis) {
      const a = ref.analysis.layers[0];
      iid = t('train.text.iid', { variant: vname(ref.variant), v: fmt(a.logitMoments.variance, 3), qk: fmt(a.qk.variance, 3), iidQk: fmt(a.iidQkVariance, 3), dk });
    }
    setText(s.text, t('train.text', { ...configVars(cfg), runs: parts.join(' ') }) + (iid ? ' ' + iid : '') + (done ? '' : ' ' + t('train.text.partial')));
    // C10: the article says: no scale → NaN within 10 steps
    const none = byV('none');
    if (!none) c10.set(t('train.live10.absent'), null);
    else if (!done && none.firstNonfinite === null) c10.set(t('train.live10.running', { steps: none.stepsDone }), null);
    else {
      const live = none.firstNonfinite === null
        ? t('train.live10.finite', { steps: none.stepsDone, dk, softmax: t(`train.softmax.${cfg.trsm}`), loss: fmt(none.loss[none.loss.length - 1], 3), clip: cfg.trclip, warm: cfg.trwarm })
        : t('train.live10.nan', { step: none.firstNonfinite, dk, softmax: t(`train.softmax.${cfg.trsm}`), clip: cfg.trclip, warm: cfg.trwarm });
      c10.set(live, c10Verdict(none.firstNonfinite), t(cfg.trsm === 'safe' ? (noControls ? 'train.why10.safeStatic' : 'train.why10.safe') : 'train.why10.naive'));
    }
    // C9: the alternatives train as well as the fixed scale?
    const alts = runs.filter((r) => r.variant === 'learnable_temperature' || r.variant === 'qk_layernorm' || r.variant === 'qk_l2');
    const base = byV('inv_sqrt_dk');
    if (!alts.length) c9.set(t('train.live9.absent'), null);
    else if (!done) c9.set(t('train.live9.running'), null);
    else {
      const list = alts.map((r) => t('train.live9.item', { variant: vname(r.variant), loss: fmt(r.loss[r.loss.length - 1], 3), acc: r.evaluation ? pct(r.evaluation.tokenAccuracy) : '–' })).join('; ');
      const baseText = base ? t('train.live9.base', { loss: fmt(base.loss[base.loss.length - 1], 3), acc: base.evaluation ? pct(base.evaluation.tokenAccuracy) : '–' }) : '';
      const ok = c9Verdict(alts.map((r) => ({ finite: r.firstNonfinite === null, accuracy: r.evaluation?.tokenAccuracy ?? null })), base?.evaluation?.tokenAccuracy ?? null);
      c9.set(`${list}. ${baseText}`, ok, t('train.why9'));
    }
  }

  session.listener = () => draw();
  const listener = {
    progress(_runs: RunSeries[], sps: number) { session.sps = sps; session.listener?.('progress'); },
    done(_runs: RunSeries[], sps: number) { session.sps = sps; session.status = 'done'; session.listener?.('done'); },
    error(message: string, _runs: RunSeries[], cause?: unknown) {
      session.status = 'error';
      // a worker that died or hung is said as such, in the page's language (Run starts a fresh one)
      if (cause instanceof TrainingWorkerError) {
        session.error = t(`train.err.${cause.kind}`);
        session.listener?.('error');
        return;
      }
      session.error = message;
      // a size the core refused at create: beside its control too
      // (owner train:run: the next change of the configuration clears it)
      const root = document.querySelector<HTMLElement>('[data-panel="training"]');
      const key = root ? slotOfMessage('training', message, undefined, (k) => controlVisible(root, k)) : 'panel';
      if (root && key !== 'panel') showError(root, key, t('train.err.core', { message }), 'train:run');
      session.listener?.('error');
    },
  };

  runBtn.addEventListener('click', () => { if (!runBtn.disabled) startRun(); });
  planRun.addEventListener('click', () => { if (!runBtn.disabled) { startRun(); runBtn.focus(); } });
  function startRun(): void {
    // the link copied after a run opens at this panel
    if (store.state.exp !== 'training') store.set({ exp: 'training' }, 'exp');
    const c = controller();
    session.key = runKey(state);
    session.cfg = state;
    session.status = 'running';
    session.sps = 0;
    const p = c.start(trainingConfigs(state), listener);
    session.runs = c.runs;
    draw();
    void p.then(() => { session.runs = c.runs; });
  }
  cancelBtn.addEventListener('click', () => { void cancelRun(); });

  async function cancelRun(): Promise<void> {
    if (session.status !== 'running' || !session.controller) return;
    // no redraw may delay the stop: the pending live redraw is dropped (the final one follows)
    if (drawTimer !== undefined) { clearTimeout(drawTimer); drawTimer = undefined; }
    await session.controller.cancel();
    session.status = 'cancelled';
    draw();
  }

  // a run still going from before a re-mount (language switch) keeps drawing here
  if (session.runs.length) queueMicrotask(drawNow);

  return {
    id: 'training',
    keyFigures: () => tableFigures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      const runChanged = changed === null || RUN_KEYS.some((k) => changed.has(k));
      if (runChanged) {
        // a configuration change stops a run in progress (its curves stay, marked as another configuration)
        if (changed !== null && session.status === 'running') void cancelRun();
        validate(source);
      }
      if (changed === null || runChanged || changed.has('trthr')) draw();
      syncButtons();
    },
    destroy() {
      if (drawTimer !== undefined) clearTimeout(drawTimer);
      if (checkTimer !== undefined) clearTimeout(checkTimer);
      visibility?.disconnect();
      for (const c of [...charts, ...histCharts]) c.destroy();
      session.listener = null;
    },
  };
}
