// Pure chart builders: result(s) + state + translator → a Chart.js config and the CSV of exactly
// the series drawn. No DOM and no Chart.js runtime here, so unit tests run them under Node.
import { normalDensity } from './portable-math.ts';
import type { ScoreVarianceResult, SaturationSweepResult, AttentionStatsResult, AttentionSummary, Histogram, SoftmaxJacobianResult } from '../../../wasm/js/core.js';
import type { JacobianCurveResult } from '../worker/protocol.ts';
import type { State, ScaleName } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { SCALES } from '../state/schema.js';
import { fmt } from '../format.ts';

export type Cell = number | string;
export interface Csv { header: string[]; rows: Cell[][] }
export interface Point { x: number; y: number }
export interface Dataset {
  label: string;
  data: (Point | number)[];
  [option: string]: unknown;
}
export interface ChartConfig {
  type: 'line' | 'bar';
  data: { labels?: string[]; datasets: Dataset[] };
  options: Record<string, unknown>;
}
export interface ChartSpec {
  config: ChartConfig;
  csv: Csv;
  /** number of data points drawn (tests: a chart "with data") */
  points: number;
}

export const SCALE_COLOURS: Record<ScaleName, string> = {
  none: '#d1495b',
  inv_sqrt_dk: '#2f6fb0',
  inv_dk: '#3a9a5b',
  inv_sqrt_d_model: '#8e5cc2',
};
export const GREY = '#6b7280';
/** An explicit numeric scale, or d_k^−p: neither of the named scales. */
export const EXPLICIT_COLOUR = '#c77d14';

export function alpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

export function axis(title: string, type: 'linear' | 'logarithmic' | 'category' = 'linear', extra: Record<string, unknown> = {}) {
  return { type, title: { display: true, text: title }, grid: { color: '#eceef2' }, ...extra };
}

export function baseOptions(x: object, y: object, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: true,
    normalized: true,
    interaction: { mode: 'nearest', intersect: false },
    plugins: {
      // a series with nothing drawn (a sweep cut short) has no legend entry
      legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, filter: (item: { datasetIndex?: number }, data: { datasets: { data: unknown[] }[] }) => (data.datasets[item.datasetIndex ?? 0]?.data.length ?? 1) > 0 } },
      tooltip: { enabled: true },
      ...((extra.plugins as object) ?? {}),
    },
    scales: { x, y },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'plugins')),
  };
}

export function countPoints(datasets: Dataset[]): number {
  return datasets.reduce((n, d) => n + d.data.length, 0);
}

/** A CSV in long form: one row per drawn point (series, x, y). */
export function longCsv(xName: string, yName: string, datasets: Dataset[]): Csv {
  const rows: Cell[][] = [];
  for (const d of datasets) {
    for (const p of d.data) {
      if (typeof p === 'number') continue;
      rows.push([d.label, p.x, p.y]);
    }
  }
  return { header: ['series', xName, yName], rows };
}

export function csvText(csv: Csv): string {
  const cell = (c: Cell) => {
    const s = typeof c === 'number' ? String(c) : c;
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [csv.header, ...csv.rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}

export const line = (label: string, colour: string, data: Point[], extra: Record<string, unknown> = {}): Dataset => ({
  label, data, borderColor: colour, backgroundColor: colour, borderWidth: 2, pointRadius: 0, ...extra,
});
export const dots = (label: string, colour: string, data: Point[], extra: Record<string, unknown> = {}): Dataset => ({
  label, data, borderColor: colour, backgroundColor: colour, showLine: false, pointRadius: 3.5, pointHoverRadius: 5, ...extra,
});

// ---------- Panel 1: variance law ----------

/** Var against d_k, log–log: measured raw / ÷√d_k / ÷d_k with their theory lines; the chosen d_k marked. */
/**
 * Relative standard error of a sample variance of q·k from n samples at d_k: q·k is a sum of d_k
 * products of two N(0, σ²), whose excess kurtosis is 6/d_k, so SE(s²)/σ² = √(2/(n−1) + 6/(d_k·n))
 * (the variance of a sample variance, e.g. Casella & Berger, Statistical Inference, ex. 5.8).
 */
export function varianceRelSE(samples: number, dk: number): number {
  return Math.sqrt(2 / (samples - 1) + 6 / (dk * samples));
}

/**
 * The law of the variance against d_k; with `samples` (the samples per d_k of the sweep drawn), a
 * band of ±2 standard errors around each measured series, which shrinks as a first estimate from a
 * few hundred samples refines to the full count (the band is drawn, not exported).
 */
export function buildVarianceLaw(sweep: ScoreVarianceResult, point: ScoreVarianceResult | null, state: State, t: T, samples?: number): ChartSpec {
  const rows = sweep.rows;
  const datasets: Dataset[] = [
    dots(t('var.series.raw'), SCALE_COLOURS.none, rows.map((r) => ({ x: r.dk, y: r.raw.variance }))),
    line(t('var.series.rawTheory'), alpha(SCALE_COLOURS.none, 0.55), rows.map((r) => ({ x: r.dk, y: r.theory.raw.variance })), { borderDash: [6, 4], borderWidth: 1.5 }),
    dots(t('var.series.sqrt'), SCALE_COLOURS.inv_sqrt_dk, rows.map((r) => ({ x: r.dk, y: r.invSqrtDk.variance }))),
    line(t('var.series.sqrtTheory'), alpha(SCALE_COLOURS.inv_sqrt_dk, 0.55), rows.map((r) => ({ x: r.dk, y: r.theory.invSqrtDk.variance })), { borderDash: [6, 4], borderWidth: 1.5 }),
    dots(t('var.series.dk'), SCALE_COLOURS.inv_dk, rows.map((r) => ({ x: r.dk, y: r.invDk.variance }))),
    line(t('var.series.dkTheory'), alpha(SCALE_COLOURS.inv_dk, 0.55), rows.map((r) => ({ x: r.dk, y: r.theory.invDk.variance })), { borderDash: [6, 4], borderWidth: 1.5 }),
  ];
  if (point && point.rows[0]) {
    const r = point.rows[0];
    datasets.push(dots(t('var.series.chosen'), '#111827', [
      { x: r.dk, y: r.raw.variance }, { x: r.dk, y: r.invSqrtDk.variance }, { x: r.dk, y: r.invDk.variance },
    ], { pointRadius: 6, pointStyle: 'rectRot', backgroundColor: '#ffffff', borderWidth: 2 }));
  }
  const x = axis(t('var.axis.dk'), 'logarithmic', pow2Ticks(1, 4096));
  const y = axis(t('var.axis.var'), 'logarithmic', { ticks: { callback: logTick } });
  const csv = longCsv('d_k', 'variance', datasets);
  const points = countPoints(datasets);
  const drawn: Dataset[] = [...datasets];
  if (samples !== undefined && samples > 1) {
    const series: [keyof ScoreVarianceResult['rows'][number], string][] = [['raw', SCALE_COLOURS.none], ['invSqrtDk', SCALE_COLOURS.inv_sqrt_dk], ['invDk', SCALE_COLOURS.inv_dk]];
    for (const [k, c] of series) {
      const at = (sign: number) => rows.map((r) => ({ x: r.dk, y: Math.max((r[k] as { variance: number }).variance * (1 + sign * 2 * varianceRelSE(samples, r.dk)), 1e-12) }));
      const low = drawn.length;
      drawn.push({ ...line('', alpha(c, 0), at(-1), { borderWidth: 0, pointRadius: 0 }), band: true, order: 5 } as Dataset);
      drawn.push({ ...line('', alpha(c, 0), at(1), { borderWidth: 0, pointRadius: 0, fill: low, backgroundColor: alpha(c, 0.14) }), band: true, order: 5 } as Dataset);
    }
  }
  const legendFilter = (item: { datasetIndex?: number }, data: { datasets: { data: unknown[]; band?: boolean }[] }) => {
    const d = data.datasets[item.datasetIndex ?? 0];
    return !d?.band && (d?.data.length ?? 1) > 0;
  };
  return {
    config: {
      type: 'line', data: { datasets: drawn },
      options: baseOptions(x, y, { plugins: { vline: { x: state.dk }, legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, filter: legendFilter } } } }),
    },
    csv,
    points,
  };
}

const SUP: Record<string, string> = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** 10 to the power n with a superscript exponent: 10⁻³. */
export function pow10Label(n: number): string {
  return '10' + String(n).split('').map((c) => SUP[c] ?? c).join('');
}

/**
 * Tick label of a log axis of values (variances, weights, norms): only powers of ten are labelled,
 * and every label of one axis has the same form — plain decimals when the axis stays within
 * [0.001, 10⁴], powers of ten (10⁻⁶) otherwise. Chart.js passes (value, index, ticks).
 */
export function logTick(value: number | string, _index?: number, ticks?: { value: number }[]): string {
  const v = Number(value);
  const l = Math.log10(v);
  if (!(Math.abs(l - Math.round(l)) < 1e-9)) return '';
  const vals = (ticks ?? []).map((x) => x.value).filter((x) => x > 0);
  const lo = vals.length ? Math.min(...vals) : v, hi = vals.length ? Math.max(...vals) : v;
  if (lo >= 1e-3 && hi <= 1e4) return String(Number(v.toPrecision(1)));
  return pow10Label(Math.round(l));
}

/**
 * A log axis over powers of two (d_k, d_head, L): ticks exactly at powers of 2 (every other one
 * when the range is wide), all labelled as plain integers and never skipped, so a narrow chart
 * still has labels.
 */
export function pow2Ticks(min: number, max: number, maxTicks = 7): Record<string, unknown> {
  const e0 = Math.ceil(Math.log2(min) - 1e-9), e1 = Math.floor(Math.log2(max) + 1e-9);
  const stride = Math.max(1, Math.ceil((e1 - e0 + 1) / maxTicks));
  const values: number[] = [];
  for (let e = e1; e >= e0; e -= stride) values.unshift(2 ** e);
  return {
    min, max,
    afterBuildTicks: (a: { ticks: { value: number }[] }) => { a.ticks = values.map((value) => ({ value })); },
    ticks: { callback: (v: number | string) => String(Number(v)), autoSkip: false, maxRotation: 0 },
  };
}

/** A histogram as a density (counts / (n · width)) drawn as steps, with a normal density over it. */
export function buildHistogram(hist: Histogram, std: number, colour: string, t: T): ChartSpec {
  const n = hist.counts.reduce((a, b) => a + b, 0) + hist.below + hist.above;
  const bars: Point[] = [];
  for (let i = 0; i < hist.counts.length; i++) {
    const w = hist.edges[i + 1] - hist.edges[i];
    bars.push({ x: (hist.edges[i] + hist.edges[i + 1]) / 2, y: n > 0 ? hist.counts[i] / (n * w) : 0 });
  }
  const lo = hist.edges[0], hi = hist.edges[hist.edges.length - 1];
  const dens: Point[] = [];
  const m = 121;
  for (let i = 0; i < m; i++) {
    const x = lo + ((hi - lo) * i) / (m - 1);
    dens.push({ x, y: normalDensity(x, std) });
  }
  const datasets: Dataset[] = [
    line(t('var.series.hist'), colour, bars, { stepped: 'middle', fill: 'origin', backgroundColor: alpha(colour, 0.25), borderWidth: 1 }),
    line(`${t('var.series.density')} N(0, ${fmtStd(std)}²)`, '#111827', dens, { borderWidth: 1.5 }),
  ];
  const x = axis(t('var.axis.score'), 'linear', { min: lo, max: hi });
  const y = axis(t('var.axis.density'), 'linear', { beginAtZero: true });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y) },
    csv: longCsv('score', 'density', datasets),
    points: countPoints(datasets),
  };
}
function fmtStd(s: number): string {
  return String(Number(s.toPrecision(3)));
}

// ---------- Panel 2: saturation ----------

export type SummaryField = 'entropy' | 'maxWeight' | 'jacFro' | 'gradQuery';

/** One summary statistic against d_k, one line per scale; the chosen scale's point marked. */
export function buildSaturationLine(
  sweep: SaturationSweepResult, dks: number[], scales: readonly ScaleName[], field: 'entropy' | 'maxWeight',
  point: AttentionStatsResult | null, state: State, t: T, only: readonly ScaleName[] = scales,
): ChartSpec {
  const datasets: Dataset[] = scales.flatMap((s, si) => (only.includes(s) ? [line(t(`scale.${s}`), SCALE_COLOURS[s],
    dks.map((dk, di) => ({ x: dk, y: sweep.points[si][di][field].mean })), { pointRadius: 2.5 })] : []));
  // an explicit scale (sscale) as a fifth series after the named ones
  const extra = sweep.points[scales.length];
  if (extra && state.sscale > 0) {
    datasets.push(line(t('sat.series.explicit', { c: String(state.sscale) }), EXPLICIT_COLOUR,
      dks.map((dk, di) => ({ x: dk, y: extra[di][field].mean })), { pointRadius: 2.5, borderDash: [2, 2] }));
  }
  let gap: GapLabel | undefined;
  if (field === 'entropy') {
    datasets.push(line(t('sat.series.lnL'), GREY, [{ x: 1, y: sweep.logSeqLen }, { x: 4096, y: sweep.logSeqLen }], { borderDash: [4, 4], borderWidth: 1.5 }));
    gap = entropyGap(sweep, dks, scales, state.dk, t);
  }
  if (point) {
    datasets.push(dots(`${state.sscale > 0 ? t('sat.series.explicit', { c: String(state.sscale) }) : t(`scale.${state.scale}`)}, d_k = ${state.dk}`, '#111827',
      [{ x: state.dk, y: point.summary[field].mean }],
      { pointRadius: 6, pointStyle: 'rectRot', backgroundColor: '#ffffff', borderWidth: 2 }));
  }
  const x = axis(t('var.axis.dk'), 'logarithmic', pow2Ticks(1, 4096));
  const y = field === 'entropy'
    ? axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: sweep.logSeqLen * 1.05 })
    : axis(t('sat.axis.maxw'), 'linear', { min: 0, max: 1 });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { plugins: { vline: { x: state.dk }, ...(gap ? { gapLabel: gap } : {}) } }) },
    csv: longCsv('d_k', field === 'entropy' ? 'mean_entropy_nats' : 'mean_max_weight', datasets),
    points: countPoints(datasets),
  };
}

/** A callout between two values at one x (chartbox.ts draws it): the bracket from y0 to y1 and its text. */
export interface GapLabel { x: number; y0: number; y1: number; text: string }

/**
 * The gap ln L − H of the 1/√d_k curve at d_k (the number that corrects the article's "≈ ln L"),
 * as a callout when the two lie close (within 20 % of ln L; at d_k = 512, L = 128: 4.852 − 4.365);
 * undefined when the sweep has no such point.
 */
export function entropyGap(sweep: SaturationSweepResult, dks: number[], scales: readonly ScaleName[], dk: number, t: T): GapLabel | undefined {
  const si = scales.indexOf('inv_sqrt_dk');
  const di = dks.indexOf(dk);
  if (si < 0 || di < 0) return undefined;
  const h = sweep.points[si][di].entropy.mean;
  const lnL = sweep.logSeqLen;
  if (!(Number.isFinite(h) && lnL - h >= 0 && lnL - h <= 0.2 * lnL)) return undefined;
  return { x: dk, y0: h, y1: lnL, text: t('chart.gap', { gap: fmt(lnL - h, 3) }) };
}

export function buildHeatmap(point: AttentionStatsResult, n: number, t: T): ChartSpec & { max: number } {
  const size = point.heatmapSize;
  const m = Math.min(n, size);
  let max = 0;
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) max = Math.max(max, point.heatmap[i * size + j]);
  const rgba = new Uint8ClampedArray(m * m * 4);
  const rows: Cell[][] = [];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      const v = point.heatmap[i * size + j];
      rows.push([i, j, v]);
      const [r, g, b] = heatRgb(max > 0 ? Math.sqrt(v / max) : 0);
      const o = (i * m + j) * 4;
      rgba[o] = r; rgba[o + 1] = g; rgba[o + 2] = b; rgba[o + 3] = 255;
    }
  }
  const datasets: Dataset[] = [{ label: 'extent', data: [{ x: -0.5, y: -0.5 }, { x: m - 0.5, y: m - 0.5 }], showLine: false, pointRadius: 0, pointHoverRadius: 0 }];
  const step = Math.max(1, Math.round(m / 4));
  const tickValues = Array.from({ length: Math.ceil(m / step) }, (_, i) => ({ value: i * step }));
  const afterBuildTicks = (a: { ticks: { value: number }[] }) => { a.ticks = tickValues.map((v) => ({ ...v })); };
  const x = axis(t('sat.axis.key'), 'linear', { min: -0.5, max: m - 0.5, afterBuildTicks, grid: { display: false } });
  const y = axis(t('sat.axis.query'), 'linear', { min: -0.5, max: m - 0.5, reverse: true, afterBuildTicks, grid: { display: false } });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { plugins: { legend: { display: false }, tooltip: { enabled: false }, heatmap: { n: m, rgba } } }) },
    csv: { header: ['query_row', 'key', 'weight'], rows },
    points: m * m,
    max,
  };
}

/** Viridis-like colour of a value in [0, 1]. */
export function heatRgb(v: number): [number, number, number] {
  const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const x = Math.min(1, Math.max(0, v)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const c = stops[i].map((a, k) => Math.round(a + (stops[i + 1][k] - a) * f));
  return [c[0], c[1], c[2]];
}

// ---------- Panel 3: gradient ----------

/** Median line, 10–90 % band and mean (dashed) of ‖J‖_F or ‖∂ℓ/∂q‖ per row, against d_k, per scale. */
export function buildGradientSweep(
  sweep: SaturationSweepResult, dks: number[], scales: readonly ScaleName[], point: AttentionStatsResult | null, state: State, t: T,
): ChartSpec {
  const field: SummaryField = state.gq === 'jac' ? 'jacFro' : 'gradQuery';
  const datasets: Dataset[] = [];
  scales.forEach((s, si) => {
    const c = SCALE_COLOURS[s];
    const name = t(`scale.${s}`);
    const pts = (k: 'median' | 'p10' | 'p90' | 'mean') => dks.map((dk, di) => ({ x: dk, y: Math.max(sweep.points[si][di][field][k], 1e-12) }));
    const lowIdx = datasets.length;
    datasets.push(line(t('grad.series.band', { scale: name }) + ' (10 %)', alpha(c, 0), pts('p10'), { borderWidth: 0, pointRadius: 0, hiddenLegend: true }));
    datasets.push(line(t('grad.series.band', { scale: name }), alpha(c, 0.0), pts('p90'), { borderWidth: 0, pointRadius: 0, fill: lowIdx, backgroundColor: alpha(c, 0.16) }));
    datasets.push(line(t('grad.series.median', { scale: name }), c, pts('median'), { pointRadius: 2 }));
    datasets.push(line(t('grad.series.mean', { scale: name }), c, pts('mean'), { borderDash: [5, 4], borderWidth: 1.5 }));
  });
  if (point) {
    const s = point.summary[field];
    datasets.push(dots(`${t(`scale.${state.scale}`)}, d_k = ${state.dk}`, '#111827',
      [{ x: state.dk, y: Math.max(s.median, 1e-12) }], { pointRadius: 6, pointStyle: 'rectRot', backgroundColor: '#ffffff', borderWidth: 2 }));
  }
  const x = axis(t('var.axis.dk'), 'logarithmic', pow2Ticks(1, 4096));
  const y = axis(t(state.gq === 'jac' ? 'grad.q.jac' : 'grad.q.grad'), 'logarithmic', { ticks: { callback: logTick } });
  return {
    config: {
      type: 'line', data: { datasets },
      options: baseOptions(x, y, {
        plugins: {
          vline: { x: state.dk },
          legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, filter: (item: { text: string }) => !item.text.endsWith('(10 %)') && !item.text.includes('10–90') } },
        },
      }),
    },
    csv: longCsv('d_k', field, datasets),
    points: countPoints(datasets),
  };
}

/** ‖J‖_F of softmax([g, 0]) against g, with the current g marked. */
export function buildJacobianCurve(curve: JacobianCurveResult, gap: number, here: SoftmaxJacobianResult | null, t: T): ChartSpec {
  const pts = Array.from(curve.gaps, (g, i) => ({ x: g, y: curve.frobenius[i] }));
  const datasets: Dataset[] = [line(t('grad.series.curve'), SCALE_COLOURS.inv_sqrt_dk, pts)];
  if (here) datasets.push(dots(t('grad.series.here'), '#111827', [{ x: gap, y: here.frobenius }], { pointRadius: 6, pointStyle: 'rectRot', backgroundColor: '#ffffff', borderWidth: 2 }));
  const x = axis(t('grad.axis.gap'), 'linear', { min: curve.gaps[0], max: curve.gaps[curve.gaps.length - 1] });
  const y = axis(t('grad.axis.norm'), 'linear', { min: 0, max: 0.55 });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { plugins: { vline: { x: gap } } }) },
    csv: longCsv('gap', 'jacobian_frobenius', datasets),
    points: countPoints(datasets),
  };
}

/** The two probabilities of softmax([g, 0]). */
export function buildProbs(r: SoftmaxJacobianResult, gap: number, t: T): ChartSpec {
  const labels = ['p₁ (logit g)', 'p₂ (logit 0)'];
  const datasets: Dataset[] = [{ label: t('grad.chart.probs', { g: fmtStd(gap) }), data: [r.probs[0], r.probs[1]], backgroundColor: [SCALE_COLOURS.none, SCALE_COLOURS.inv_sqrt_dk] }];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('grad.axis.prob'), 'linear', { min: 0, max: 1 });
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { plugins: { legend: { display: false } } }) },
    csv: { header: ['logit', 'probability'], rows: [[gap, r.probs[0]], [0, r.probs[1]]] },
    points: 2,
  };
}

// ---------- Panel 4: the article's check ----------

export const ARTICLE_SCALES: readonly ScaleName[] = ['none', 'inv_sqrt_dk', 'inv_dk'];

/** One scale of the article's check: its summary and ln L. */
export type ArticleResult = Pick<AttentionStatsResult, 'summary' | 'logSeqLen'>;
export function buildArticle(results: ArticleResult[], t: T): ChartSpec {
  const labels = ARTICLE_SCALES.map((s) => t(`scale.${s}`));
  const ent = results.map((r) => r.summary.entropy.mean);
  const lnL = results[0]?.logSeqLen ?? 0;
  const datasets: Dataset[] = [
    { label: t('art.series.entropy'), data: ent, backgroundColor: ARTICLE_SCALES.map((s) => SCALE_COLOURS[s]), type: 'bar', order: 2 },
    { label: t('art.series.lnL'), data: labels.map(() => lnL), type: 'line', borderColor: GREY, borderDash: [5, 4], borderWidth: 2, pointRadius: 0, order: 1 },
  ];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: lnL * 1.1 });
  // the gap under ln L of the ÷√d_k bar, the number that corrects the article's "≈ ln L"
  const hs = ent[ARTICLE_SCALES.indexOf('inv_sqrt_dk')];
  const gap: GapLabel | undefined = Number.isFinite(hs) && lnL - hs >= 0 && lnL - hs <= 0.2 * lnL
    ? { x: ARTICLE_SCALES.indexOf('inv_sqrt_dk'), y0: hs, y1: lnL, text: t('chart.gap', { gap: fmt(lnL - hs, 3) }) } : undefined;
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, {
      interaction: { mode: 'index', intersect: false },
      // one legend entry per bar colour (a scale), then ln L
      plugins: { legend: { position: 'bottom', onClick: null, labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, generateLabels: () => [
        ...ARTICLE_SCALES.map((s, i) => ({ text: labels[i], fillStyle: SCALE_COLOURS[s], strokeStyle: SCALE_COLOURS[s], lineWidth: 0, datasetIndex: 0, index: i })),
        { text: t('art.series.lnL'), fillStyle: 'rgba(0,0,0,0)', strokeStyle: GREY, lineWidth: 2, lineDash: [5, 4], datasetIndex: 1 },
      ] } }, ...(gap ? { gapLabel: gap } : {}) },
    }) },
    csv: { header: ['scale', 'mean_entropy_nats', 'ln_L'], rows: ARTICLE_SCALES.map((s, i) => [s, ent[i], lnL]) },
    points: ent.length + 1,
  };
}

/** The summary of one scale at one d_k from a sweep (null when the d_k is not in the sweep). */
export function sweepAt(sweep: SaturationSweepResult, dks: number[], scales: readonly ScaleName[], scale: ScaleName, dk: number): AttentionSummary | null {
  const di = dks.indexOf(dk);
  const si = scales.indexOf(scale);
  return di >= 0 && si >= 0 ? sweep.points[si][di] : null;
}

export const ALL_SCALES: readonly ScaleName[] = SCALES;
