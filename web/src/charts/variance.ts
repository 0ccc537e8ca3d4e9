// Chart builders of the variance view: Var(q·k) against d_k with its theory lines, and the histograms
// of the raw and scaled scores (result + state + translator → ChartSpec, no DOM).
import type { ScoreVarianceResult, Histogram } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import type { Point, Dataset, ChartSpec } from './kit.ts';
import { normalDensity } from '../portable-math.ts';
import { SCALE_COLOURS, alpha, axis, baseOptions, countPoints, longCsv, line, dots, logTick, pow2Ticks, sig3 } from './kit.ts';

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
    line(`${t('var.series.density')} N(0, ${sig3(std)}²)`, '#111827', dens, { borderWidth: 1.5 }),
  ];
  const x = axis(t('var.axis.score'), 'linear', { min: lo, max: hi });
  const y = axis(t('var.axis.density'), 'linear', { beginAtZero: true });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y) },
    csv: longCsv('score', 'density', datasets),
    points: countPoints(datasets),
  };
}
