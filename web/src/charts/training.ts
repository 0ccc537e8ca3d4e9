// Pure chart builders of the training lab (the contract of kit.ts: runs + translator →
// Chart.js config + the CSV of exactly what is drawn; no DOM, so tests/web/training.test.ts runs
// them under Node). Steps are numbered from 0, as the core numbers them.
import { normalDensity } from '../portable-math.ts';
import type { AttentionVariant } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset, Point, Cell } from './kit.ts';
import { axis, baseOptions, countPoints, longCsv, line, dots, logTick, GREY } from './kit.ts';
import type { RunSeries } from '../training/series.ts';
import { hasHeadScale, lastFiniteLoss, finalLoss, stepsToReach } from '../training/series.ts';

export const VARIANT_COLOURS: Record<AttentionVariant, string> = {
  none: '#d1495b',
  inv_sqrt_dk: '#2f6fb0',
  inv_dk: '#3a9a5b',
  learnable_temperature: '#d08c1f',
  qk_layernorm: '#8e5cc2',
  qk_l2: '#111827',
};
const LAYER_DASH: number[][] = [[], [6, 3], [2, 2], [10, 3, 2, 3], [1, 4], [12, 4]];
/** At most this many points per drawn series; longer runs are thinned by a fixed stride (the last step always kept). */
export const MAX_POINTS = 1200;

/** The steps drawn of a run of n steps: all of them, or every k-th plus the last. */
export function drawnSteps(n: number, max = MAX_POINTS): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const k = Math.ceil(n / max);
  const out: number[] = [];
  for (let i = 0; i < n; i += k) out.push(i);
  if (out[out.length - 1] !== n - 1) out.push(n - 1);
  return out;
}

/** A per-step series as points; non-finite values (and, on a log axis, values ≤ 0) become gaps. */
function points(ys: number[], log: boolean): Point[] {
  return drawnSteps(ys.length).map((i) => {
    const y = ys[i];
    return { x: i, y: Number.isFinite(y) && (!log || y > 0) ? y : NaN };
  });
}

function stepAxis(t: T, runs: RunSeries[]) {
  const max = Math.max(1, ...runs.map((r) => r.steps - 1));
  return axis(t('train.axis.step'), 'linear', { min: 0, max, ticks: { precision: 0 } });
}

/** The marker of a run's first non-finite step, drawn at the run's last finite loss. */
function markers(runs: RunSeries[], t: T, yOf: (r: RunSeries) => number): Dataset[] {
  return runs.filter((r) => r.firstNonfinite !== null).map((r) => dots(
    t('train.series.nonfinite', { variant: t(`train.v.${r.variant}`), step: r.firstNonfinite! }), VARIANT_COLOURS[r.variant],
    [{ x: r.firstNonfinite!, y: yOf(r) }],
    { pointStyle: 'crossRot', pointRadius: 9, pointHoverRadius: 10, borderWidth: 3, backgroundColor: '#ffffff' },
  ));
}

/** Training loss per step, log axis; a cross at each run's first non-finite step. */
export function buildTrainLoss(runs: RunSeries[], t: T): ChartSpec {
  const datasets: Dataset[] = runs.map((r) => line(t(`train.v.${r.variant}`), VARIANT_COLOURS[r.variant], points(r.loss, true), { borderWidth: 1.5, spanGaps: false }));
  datasets.push(...markers(runs, t, (r) => { const y = lastFiniteLoss(r); return Number.isFinite(y) && y > 0 ? y : 1; }));
  const y = axis(t('train.axis.loss'), 'logarithmic', { ticks: { callback: logTick } });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(stepAxis(t, runs), y) },
    csv: longCsv('step', 'loss', datasets),
    points: countPoints(datasets),
  };
}

/** Global gradient norm (before clipping) per step, log axis. */
export function buildTrainGradNorm(runs: RunSeries[], t: T, clip: number): ChartSpec {
  const datasets: Dataset[] = runs.map((r) => line(t(`train.v.${r.variant}`), VARIANT_COLOURS[r.variant], points(r.gradNorm, true), { borderWidth: 1.5 }));
  const n = Math.max(0, ...runs.map((r) => r.steps));
  if (clip > 0 && n > 0) datasets.push(line(t('train.series.clip', { clip }), GREY, [{ x: 0, y: clip }, { x: n - 1, y: clip }], { borderDash: [6, 4], borderWidth: 1 }));
  const y = axis(t('train.axis.gradNorm'), 'logarithmic', { ticks: { callback: logTick } });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(stepAxis(t, runs), y) },
    csv: longCsv('step', 'grad_norm', datasets),
    points: countPoints(datasets),
  };
}

export type LayerMetric = 'entropy' | 'maxAbsLogit' | 'headScale';

/** A per-layer metric per step: one line per variant and layer (layer = dash pattern). */
export function buildTrainLayers(runs: RunSeries[], metric: LayerMetric, t: T, lnT?: number): ChartSpec {
  const datasets: Dataset[] = [];
  for (const r of runs) {
    if (metric === 'headScale' && !hasHeadScale(r.variant)) continue;
    for (let l = 0; l < r.layers; l++) {
      datasets.push(line(t('train.series.layer', { variant: t(`train.v.${r.variant}`), layer: l + 1 }), VARIANT_COLOURS[r.variant],
        points(r[metric][l], metric === 'maxAbsLogit'), { borderWidth: 1.5, borderDash: LAYER_DASH[l % LAYER_DASH.length] }));
    }
  }
  if (metric === 'entropy' && lnT !== undefined && runs.length) {
    const n = Math.max(...runs.map((r) => r.steps));
    datasets.push(line(t('train.series.lnT'), GREY, [{ x: 0, y: lnT }, { x: n - 1, y: lnT }], { borderDash: [6, 4], borderWidth: 1 }));
  }
  const yTitle = t(`train.axis.${metric}`);
  const y = metric === 'maxAbsLogit' ? axis(yTitle, 'logarithmic', { ticks: { callback: logTick } }) : axis(yTitle, 'linear', metric === 'entropy' ? { min: 0 } : {});
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(stepAxis(t, runs), y) },
    csv: longCsv('step', metric === 'entropy' ? 'mean_entropy_nats' : metric === 'maxAbsLogit' ? 'max_abs_logit' : 'head_scale', datasets),
    points: countPoints(datasets),
  };
}

/** Held-out token and sequence accuracy per variant (bars), after the run. */
export function buildTrainAccuracy(runs: RunSeries[], t: T): ChartSpec {
  const done = runs.filter((r) => r.evaluation);
  const labels = done.map((r) => t(`train.v.${r.variant}`));
  const datasets: Dataset[] = [
    { label: t('train.series.tokenAcc'), data: done.map((r) => r.evaluation!.tokenAccuracy), backgroundColor: done.map((r) => VARIANT_COLOURS[r.variant]), borderWidth: 0 },
    { label: t('train.series.seqAcc'), data: done.map((r) => r.evaluation!.sequenceAccuracy), backgroundColor: done.map((r) => `${VARIANT_COLOURS[r.variant]}66`), borderColor: done.map((r) => VARIANT_COLOURS[r.variant]), borderWidth: 1 },
  ];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('train.axis.accuracy'), 'linear', { min: 0, max: 1 });
  const rows: Cell[][] = done.map((r) => [r.variant, r.evaluation!.tokenAccuracy, r.evaluation!.sequenceAccuracy, r.evaluation!.loss]);
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { interaction: { mode: 'index', intersect: false } }) },
    csv: { header: ['variant', 'token_accuracy', 'sequence_accuracy', 'heldout_loss'], rows },
    points: done.length * 2,
  };
}

/** The N(0, 1) density, the same bits in every engine (portable-math.ts). */
export function normalPdf(x: number): number { return normalDensity(x); }

/**
 * Layer `layer` of each trained run: the density of its scaled logits (histogram counts / (n · width),
 * drawn as a line through the bin centres) beside the N(0, 1) density the iid argument predicts.
 */
export function buildTrainLogitHist(runs: RunSeries[], layer: number, t: T): ChartSpec {
  const datasets: Dataset[] = [];
  let lo = -4, hi = 4;
  for (const r of runs) {
    const a = r.analysis?.layers[layer];
    if (!a) continue;
    const h = a.logits;
    const n = h.counts.reduce((s, c) => s + c, 0) + h.below + h.above;
    const pts: Point[] = [];
    for (let i = 0; i < h.counts.length; i++) {
      const w = h.edges[i + 1] - h.edges[i];
      pts.push({ x: (h.edges[i] + h.edges[i + 1]) / 2, y: n > 0 && w > 0 ? h.counts[i] / (n * w) : 0 });
    }
    lo = Math.min(lo, h.edges[0]);
    hi = Math.max(hi, h.edges[h.edges.length - 1]);
    datasets.push(line(t(`train.v.${r.variant}`), VARIANT_COLOURS[r.variant], pts, { borderWidth: 1.5, stepped: 'middle' }));
  }
  const grid: Point[] = [];
  for (let i = 0; i <= 160; i++) { const x = lo + ((hi - lo) * i) / 160; grid.push({ x, y: normalPdf(x) }); }
  datasets.push(line(t('train.series.normal'), GREY, grid, { borderDash: [6, 4], borderWidth: 1.5 }));
  const x = axis(t('train.axis.logit'), 'linear', { min: lo, max: hi });
  const y = axis(t('train.axis.density'), 'linear', { min: 0 });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y) },
    csv: longCsv('scaled_logit', 'density', datasets),
    points: countPoints(datasets),
  };
}

/** The end-of-run table, one row per run (numbers as numbers; the panel formats them). */
export interface SummaryRow {
  variant: AttentionVariant;
  finalLoss: number;
  heldoutLoss: number;
  tokenAccuracy: number;
  sequenceAccuracy: number;
  stepsToThreshold: number | null;
  firstNonfinite: number | null;
  stepsDone: number;
  /** whether the held-out evaluation ran (at the end of the run) */
  evaluated: boolean;
}
export function summaryRows(runs: RunSeries[], thr: number): SummaryRow[] {
  return runs.map((r) => ({
    variant: r.variant,
    finalLoss: finalLoss(r),
    heldoutLoss: r.evaluation?.loss ?? NaN,
    tokenAccuracy: r.evaluation?.tokenAccuracy ?? NaN,
    sequenceAccuracy: r.evaluation?.sequenceAccuracy ?? NaN,
    stepsToThreshold: stepsToReach(r, thr),
    firstNonfinite: r.firstNonfinite,
    stepsDone: r.stepsDone,
    evaluated: r.evaluation !== null,
  }));
}
export function summaryCsv(rows: SummaryRow[], thr: number) {
  return {
    header: ['variant', 'steps_done', 'final_loss', 'heldout_loss', 'token_accuracy', 'sequence_accuracy', `first_step_loss_le_${thr}`, 'first_nonfinite_step'],
    rows: rows.map((r) => [r.variant, r.stepsDone, r.finalLoss, r.heldoutLoss, r.tokenAccuracy, r.sequenceAccuracy, r.stepsToThreshold ?? '', r.firstNonfinite ?? ''] as Cell[]),
  };
}
