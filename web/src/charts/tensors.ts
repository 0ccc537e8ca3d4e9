// Chart builders of the own-tensors view: ‖J‖_F per row under each scale beside the iid prediction,
// and histograms of per-row values on shared bins (results + translator → ChartSpec, no DOM).
import type { AttentionStatsResult, TensorStatsResult } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset, Point, Cell } from './kit.ts';
import { axis, baseOptions, countPoints, longCsv, line, alpha, SCALE_COLOURS } from './kit.ts';

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
