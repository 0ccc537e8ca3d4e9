// Pure chart builders of the precision, long-context, GQA and own-tensor panels (the same
// contract as builders.ts: result(s) + state + translator → Chart.js config + the CSV of exactly
// what is drawn; no DOM, so tests/web/labs.test.ts runs them under Node).
import { ln } from './portable-math.ts';
import type { PrecisionLabResult, FloatFormat, SoftmaxAlgorithm, LongContextResult, LongContextScheme, AttentionStatsResult, TensorStatsResult } from '../../../wasm/js/core.js';
import type { T, MessageKey } from '../i18n/messages.ts';
import type { ChartSpec, Dataset, Point, Cell } from './builders.ts';
import { axis, baseOptions, countPoints, longCsv, line, logTick, pow10Label, pow2Ticks, alpha, GREY, SCALE_COLOURS } from './builders.ts';

// ---------- Precision lab ----------

export const FORMATS: readonly FloatFormat[] = ['float64', 'float32', 'bfloat16', 'float16'];
export const ALGORITHMS: readonly SoftmaxAlgorithm[] = ['naive', 'safe', 'online'];
export const FORMAT_COLOURS: Record<FloatFormat, string> = { float64: '#111827', float32: '#2f6fb0', bfloat16: '#d08c1f', float16: '#d1495b' };
const ALG_COLOURS: Record<SoftmaxAlgorithm, string> = { naive: '#d1495b', safe: '#2f6fb0', online: '#3a9a5b' };
/** A weight that underflowed to 0 is drawn here on the log axis. */
export const PROB_FLOOR = 1e-30;

export function cellOf(r: PrecisionLabResult, format: FloatFormat, algorithm: SoftmaxAlgorithm) {
  const c = r.cells.find((x) => x.format === format && x.algorithm === algorithm);
  if (!c) throw new Error(`no cell ${format}/${algorithm}`);
  return c;
}

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

// ---------- Long context ----------

export const METHOD_COLOURS: Record<LongContextScheme, string> = { fixed: '#2f6fb0', logn: '#3a9a5b', yarn: '#d08c1f', article: '#d1495b', llama4: '#8e5cc2', ssmax: '#0f8b8d' };
export type LongField = 'entropy' | 'entropyRatio' | 'maxWeight';

/** One quantity against L (log axis), one line per method; ln L drawn for the entropy; L_train marked. */
export function buildLongContext(
  results: Partial<Record<LongContextScheme, LongContextResult>>, methods: readonly LongContextScheme[], field: LongField, trainLen: number, t: T,
): ChartSpec {
  const datasets: Dataset[] = [];
  let lmin = Infinity, lmax = 0;
  for (const m of methods) {
    const r = results[m];
    if (!r) continue;
    const pts = r.points[0].map((p) => ({ x: p.seqLen, y: p[field] }));
    for (const p of pts) { lmin = Math.min(lmin, p.x); lmax = Math.max(lmax, p.x); }
    datasets.push(line(t(`lc.method.${m}`), METHOD_COLOURS[m], pts, { pointRadius: 3 }));
  }
  if (field === 'entropy' && lmax > 0) {
    const ls = datasets[0].data as Point[];
    datasets.push(line(t('lc.series.lnL'), GREY, ls.map((p) => ({ x: p.x, y: ln(p.x) })), { borderDash: [4, 4], borderWidth: 1.5 }));
  }
  const yTitle: Record<LongField, MessageKey> = { entropy: 'sat.axis.entropy', entropyRatio: 'lc.axis.ratio', maxWeight: 'sat.axis.maxw' };
  const x = axis(t('lc.axis.L'), 'logarithmic', pow2Ticks(Number.isFinite(lmin) ? lmin : 64, lmax || 16384, 6));
  const y = axis(t(yTitle[field]), 'linear', field === 'entropy' ? { min: 0 } : { min: 0, max: field === 'maxWeight' ? undefined : 1.05 });
  const csvName: Record<LongField, string> = { entropy: 'mean_entropy_nats', entropyRatio: 'entropy_over_lnL', maxWeight: 'mean_max_weight' };
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { plugins: { vline: { x: trainLen } } }) },
    csv: longCsv('seq_len', csvName[field], datasets),
    points: countPoints(datasets),
  };
}

// ---------- GQA / MQA ----------

export const LAYOUTS = ['mha', 'gqa', 'mqa'] as const;
export type Layout = (typeof LAYOUTS)[number];
export const LAYOUT_COLOURS: Record<Layout, string> = { mha: '#2f6fb0', gqa: '#3a9a5b', mqa: '#d1495b' };

/**
 * Mean entropy against d_head for MHA, GQA and MQA at the same d_head, unscaled (falls as d_head
 * grows) and ÷√d_head (flat): the lines of the three layouts lie on each other. ln L dashed.
 */
export function buildGqaEntropy(
  scaled: Record<Layout, (AttentionStatsResult | null)[]>, unscaled: Record<Layout, (AttentionStatsResult | null)[]>,
  dims: readonly number[], labels: Record<Layout, string>, gdk: number, t: T,
): ChartSpec {
  const datasets: Dataset[] = [];
  let lnL = 0;
  const style = (l: Layout) => ({ pointRadius: l === 'mha' ? 6 : l === 'gqa' ? 4.5 : 3, borderWidth: l === 'mha' ? 4 : 2, borderDash: l === 'mqa' ? [6, 4] : undefined });
  for (const [which, sweep] of [['sqrt', scaled], ['none', unscaled]] as const) {
    for (const l of LAYOUTS) {
      const pts: Point[] = [];
      sweep[l].forEach((r, i) => { if (r) { pts.push({ x: dims[i], y: r.summary.entropy.mean }); lnL = r.logSeqLen; } });
      const colour = which === 'sqrt' ? LAYOUT_COLOURS[l] : alpha(LAYOUT_COLOURS[l], 0.55);
      datasets.push(line(`${labels[l]}, ${t(which === 'sqrt' ? 'gqa.series.sqrt' : 'scale.none')}`, colour, pts, { ...style(l), pointStyle: which === 'sqrt' ? 'circle' : 'triangle' }));
    }
  }
  if (lnL > 0) datasets.push(line(t('sat.series.lnL'), GREY, [{ x: dims[0], y: lnL }, { x: dims[dims.length - 1], y: lnL }], { borderDash: [4, 4], borderWidth: 1.5 }));
  const x = axis(t('gqa.axis.dhead'), 'logarithmic', pow2Ticks(dims[0], dims[dims.length - 1]));
  const y = axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: lnL * 1.05 });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { plugins: { vline: { x: gdk } } }) },
    csv: longCsv('d_head', 'mean_entropy_nats', datasets),
    points: countPoints(datasets),
  };
}

/** KV-cache bytes at the chosen context for MHA, GQA and MQA (bars, GiB). */
export function buildKvCache(totals: Record<Layout, number>, labels: Record<Layout, string>, t: T): ChartSpec {
  const gib = LAYOUTS.map((l) => totals[l] / 2 ** 30);
  const datasets: Dataset[] = [{ label: t('gqa.series.kv'), data: gib, backgroundColor: LAYOUTS.map((l) => alpha(LAYOUT_COLOURS[l], 0.85)) }];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('gqa.axis.gib'), 'linear', { min: 0 });
  return {
    config: { type: 'bar', data: { labels: LAYOUTS.map((l) => labels[l]), datasets }, options: baseOptions(x, y, { plugins: { legend: { display: false } } }) },
    csv: { header: ['layout', 'kv_cache_bytes', 'kv_cache_gib'], rows: LAYOUTS.map((l, i) => [l, totals[l], gib[i]]) },
    points: 3,
  };
}

// ---------- Your own tensors ----------

export const TENSOR_SCALES = ['none', 'inv_sqrt_dk', 'inv_dk'] as const;
export type TensorScale = (typeof TENSOR_SCALES)[number];

/** Quantile (type 7) of a sample. */
export function quantile(xs: ArrayLike<number>, q: number): number {
  const s = Float64Array.from(xs).sort();
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** ‖J‖_F per row under each scale: 10–90 % as floating bars, yours beside the iid N(0, 1) prediction; medians as dots. */
export function buildTensorJacobian(
  own: Record<TensorScale, TensorStatsResult>, iid: Record<TensorScale, AttentionStatsResult>, t: T,
): ChartSpec {
  const labels = TENSOR_SCALES.map((s) => t(`scale.${s}`));
  const band = (xs: ArrayLike<number>) => [quantile(xs, 0.1), quantile(xs, 0.9)];
  const ownBands = TENSOR_SCALES.map((s) => band(own[s].rows.jacFro));
  const iidBands = TENSOR_SCALES.map((s) => band(iid[s].rows.jacFro));
  const datasets: Dataset[] = [
    { label: t('tens.series.own'), data: ownBands as unknown as number[], backgroundColor: alpha(SCALE_COLOURS.none, 0.55), borderColor: SCALE_COLOURS.none, borderWidth: 1, order: 2 },
    { label: t('tens.series.iid'), data: iidBands as unknown as number[], backgroundColor: alpha(SCALE_COLOURS.inv_sqrt_dk, 0.4), borderColor: SCALE_COLOURS.inv_sqrt_dk, borderWidth: 1, order: 2 },
    { label: t('tens.series.ownMedian'), type: 'line', data: TENSOR_SCALES.map((s) => own[s].summary.jacFro.median), showLine: false, pointRadius: 5, pointStyle: 'rectRot', borderColor: '#111827', backgroundColor: '#ffffff', borderWidth: 2, order: 1 },
    { label: t('tens.series.iidMedian'), type: 'line', data: TENSOR_SCALES.map((s) => iid[s].summary.jacFro.median), showLine: false, pointRadius: 4, pointStyle: 'circle', borderColor: SCALE_COLOURS.inv_sqrt_dk, backgroundColor: '#ffffff', borderWidth: 2, order: 1 },
  ];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('grad.q.jac'), 'linear', { min: 0, max: 1 / Math.SQRT2 });
  const rows: Cell[][] = TENSOR_SCALES.flatMap((s, i) => [
    ['yours', s, ownBands[i][0], own[s].summary.jacFro.median, ownBands[i][1]],
    ['iid N(0,1)', s, iidBands[i][0], iid[s].summary.jacFro.median, iidBands[i][1]],
  ]);
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { interaction: { mode: 'index', intersect: false } }) },
    csv: { header: ['tensors', 'scale', 'jacobian_frobenius_p10', 'median', 'p90'], rows },
    points: TENSOR_SCALES.length * 4,
  };
}

/** A histogram of per-row values as a density, yours beside the iid prediction, on shared bins. */
export function buildRowHistogram(own: ArrayLike<number>, iid: ArrayLike<number>, lo: number, hi: number, xTitle: string, marker: number | null, t: T, bins = 40): ChartSpec {
  const w = (hi - lo) / bins;
  const density = (xs: ArrayLike<number>): Point[] => {
    const c = new Float64Array(bins);
    for (let i = 0; i < xs.length; i++) {
      const b = Math.min(bins - 1, Math.max(0, Math.floor((xs[i] - lo) / w)));
      c[b] += 1;
    }
    return Array.from(c, (n, b) => ({ x: lo + (b + 0.5) * w, y: xs.length > 0 ? n / (xs.length * w) : 0 }));
  };
  const datasets: Dataset[] = [
    line(t('tens.series.own'), SCALE_COLOURS.none, density(own), { stepped: 'middle', fill: 'origin', backgroundColor: alpha(SCALE_COLOURS.none, 0.25), borderWidth: 1.5 }),
    line(t('tens.series.iid'), SCALE_COLOURS.inv_sqrt_dk, density(iid), { stepped: 'middle', fill: 'origin', backgroundColor: alpha(SCALE_COLOURS.inv_sqrt_dk, 0.18), borderWidth: 1.5 }),
  ];
  const x = axis(xTitle, 'linear', { min: lo, max: hi });
  const y = axis(t('var.axis.density'), 'linear', { beginAtZero: true });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, marker === null ? {} : { plugins: { vline: { x: marker } } }) },
    csv: longCsv(xTitle, 'density', datasets),
    points: countPoints(datasets),
  };
}


