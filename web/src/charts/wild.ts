// Chart builder of "Scales in the wild": the mean row entropy of each real model's scale beside
// 1/√d_k, as horizontal bars (rows + translator → ChartSpec, no DOM).
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from './kit.ts';
import { axis, baseOptions, SCALE_COLOURS, EXPLICIT_COLOUR } from './kit.ts';

/** One catalogue row of the wild chart: the model and its two entropies (NaN while not computed). */
export interface WildBar { model: string; own: number; ref: number }

/**
 * Mean row entropy at L = 4096 on iid inputs per model (horizontal bars): under the model's effective
 * scale and under 1/√d_head at the same d_head, beside the ln L ceiling.
 */
export function buildWildEntropy(rows: readonly WildBar[], lnL: number, t: T): ChartSpec {
  const labels = rows.map((r) => r.model);
  const datasets: Dataset[] = [
    { label: t('wild.series.own'), data: rows.map((r) => r.own), backgroundColor: EXPLICIT_COLOUR, borderColor: EXPLICIT_COLOUR },
    { label: t('wild.series.ref'), data: rows.map((r) => r.ref), backgroundColor: SCALE_COLOURS.inv_sqrt_dk, borderColor: SCALE_COLOURS.inv_sqrt_dk },
  ];
  const x = axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: lnL * 1.02 });
  // long model names are cut on the axis (the tooltip, the data table and the CSV keep them whole)
  const short = (i: number) => { const l = labels[i] ?? ''; return l.length > 18 ? `${l.slice(0, 17)}…` : l; };
  const y = axis('', 'category', { ticks: { autoSkip: false, font: { size: 11 }, callback: (_v: unknown, i: number) => short(i) }, grid: { display: false } });
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { indexAxis: 'y', plugins: { vline: { x: lnL } } }) },
    csv: { header: ['model', 'entropy_own_scale_nats', 'entropy_inv_sqrt_d_head_nats'], rows: rows.map((r) => [r.model, r.own, r.ref]) },
    points: rows.filter((r) => Number.isFinite(r.own) && Number.isFinite(r.ref)).length * 2,
  };
}
