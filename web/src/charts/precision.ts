// Chart builders of the precision view: the first row's weights in each float format beside float64,
// the median ‖J‖_F per format and algorithm, and the table's CSV (result + translator, no DOM).
import type { PrecisionLabResult, FloatFormat, SoftmaxAlgorithm } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset, Point, Cell } from './kit.ts';
import { FORMATS, ALGORITHMS, cellOf } from '../requests/results.ts';
import { axis, baseOptions, countPoints, line, logTick, pow10Label, alpha } from './kit.ts';

export const FORMAT_COLOURS: Record<FloatFormat, string> = { float64: '#111827', float32: '#2f6fb0', bfloat16: '#d08c1f', float16: '#d1495b' };
const ALG_COLOURS: Record<SoftmaxAlgorithm, string> = { naive: '#d1495b', safe: '#2f6fb0', online: '#3a9a5b' };
/** A weight that underflowed to 0 is drawn here on the log axis. */
export const PROB_FLOOR = 1e-30;

/** The first row's weights in each format (safe algorithm) beside the float64 reference, log axis. */
export function buildPrecisionProbs(r: PrecisionLabResult, t: T): ChartSpec {
  const datasets: Dataset[] = FORMATS.map((f) => {
    const c = cellOf(r, f, 'safe');
    const pts: Point[] = Array.from(c.probs, (p, j) => ({ x: j, y: Number.isFinite(p) ? Math.max(p, PROB_FLOOR) : NaN }));
    return f === 'float64'
      ? line(t('prec.series.reference'), FORMAT_COLOURS[f], pts, { borderWidth: 1.5, pointRadius: r.seqLen <= 16 ? 5 : 0, borderDash: [5, 4] })
      : line(`${f} (${t('prec.alg.safe')})`, FORMAT_COLOURS[f], pts, { borderWidth: 1.5, pointRadius: r.seqLen <= 16 ? 3.5 : 0, showLine: r.seqLen > 16 });
  });
  // integer key ticks only (no ±0.5 edge ticks where the few points get room on both sides)
  const keyTicks = r.seqLen <= 16 ? Array.from({ length: r.seqLen }, (_, j) => ({ value: j })) : null;
  const x = axis(t('prec.axis.key'), 'linear', { min: r.seqLen <= 16 ? -0.5 : 0, max: r.seqLen <= 16 ? r.seqLen - 0.5 : r.seqLen - 1,
    ...(keyTicks ? { afterBuildTicks: (a: { ticks: { value: number }[] }) => { a.ticks = keyTicks.map((v) => ({ ...v })); } } : {}),
    ticks: { stepSize: r.seqLen <= 16 ? 1 : undefined, precision: 0 } });
  // even ticks: every sixth power of ten from the floor to 1 (readable in a small chart); points at
  // p ≈ 1 drawn whole (not clipped)
  const floorExp = Math.round(Math.log10(PROB_FLOOR));
  const ys: number[] = [];
  for (let e = 0; e >= floorExp; e -= 6) ys.unshift(10 ** e);
  const y = axis(t('prec.axis.weight'), 'logarithmic', { min: PROB_FLOOR, max: 1,
    afterBuildTicks: (a: { ticks: { value: number }[] }) => { a.ticks = ys.map((value) => ({ value })); },
    ticks: { autoSkip: false, callback: (v: number | string) => pow10Label(Math.round(Math.log10(Number(v)))) } });
  for (const d of datasets) d.clip = 8;
  const rows: Cell[][] = [];
  for (const d of datasets) for (const p of d.data as Point[]) rows.push([d.label, p.x, p.y <= PROB_FLOOR ? 0 : p.y]);
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { layout: { padding: { top: 8 } } }) },
    csv: { header: ['series', 'key', 'weight'], rows },
    points: countPoints(datasets),
  };
}

/** Median ‖J‖_F of the finite rows per format and algorithm (no bar: every row overflowed). */
export function buildPrecisionJacobian(r: PrecisionLabResult, t: T): ChartSpec {
  const labels = [...FORMATS];
  const datasets: Dataset[] = ALGORITHMS.map((a) => ({
    label: t(`prec.alg.${a}`),
    data: FORMATS.map((f) => { const v = cellOf(r, f, a).jacFroMedian; return Number.isFinite(v) && v > 0 ? v : NaN; }),
    backgroundColor: alpha(ALG_COLOURS[a], 0.8),
    borderColor: ALG_COLOURS[a],
    borderWidth: 1,
  }));
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('prec.axis.jac'), 'logarithmic', { ticks: { callback: logTick } });
  const rows: Cell[][] = [];
  FORMATS.forEach((f) => ALGORITHMS.forEach((a) => rows.push([f, a, cellOf(r, f, a).jacFroMedian])));
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { interaction: { mode: 'index', intersect: false } }) },
    csv: { header: ['format', 'algorithm', 'median_jacobian_frobenius'], rows },
    points: datasets.reduce((n, d) => n + (d.data as number[]).filter((v) => Number.isFinite(v)).length, 0),
  };
}

/** The table of the precision lab as CSV (what the table shows, one row per format × algorithm). */
export function precisionCsv(r: PrecisionLabResult) {
  const rows: Cell[][] = [];
  FORMATS.forEach((f, fi) => ALGORITHMS.forEach((a) => {
    const c = cellOf(r, f, a);
    rows.push([f, a, c.shareNonfinite, c.shareNan, c.causes.inputOverflow, c.causes.expOverflow, c.causes.sumOverflow, c.causes.nan, c.causes.underflow,
      c.maxAbsError, c.meanAbsError, c.jacFroMedian, a === 'online' ? r.onlineVsSafe[fi] : '']);
  }));
  return { header: ['format', 'algorithm', 'share_nonfinite', 'share_nan', 'cause_input_overflow', 'cause_exp_overflow', 'cause_sum_overflow', 'cause_nan', 'cause_underflow',
    'max_abs_error', 'mean_abs_error', 'median_jacobian_frobenius', 'max_abs_online_minus_safe'], rows };
}
