// Chart builders of the saturation view: a summary statistic against d_k per scale, the gap under
// ln L, and the heatmap of one head's weights (result + state + translator → ChartSpec, no DOM).
import type { SaturationSweepResult, AttentionStatsResult } from '../../../wasm/js/core.js';
import type { State, ScaleName } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { fmt } from '../format.ts';
import type { Cell, Dataset, ChartSpec, GapLabel } from './kit.ts';
import { SCALE_COLOURS, GREY, EXPLICIT_COLOUR, axis, baseOptions, countPoints, longCsv, line, dots, pow2Ticks } from './kit.ts';

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
