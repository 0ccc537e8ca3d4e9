// Chart builders of the GQA view: the entropy of each head layout (MHA, GQA, MQA) and their KV-cache
// bytes (results + translator → ChartSpec, no DOM).
import type { AttentionStatsResult } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset, Point } from './kit.ts';
import { LAYOUTS } from '../requests/results.ts';
import type { Layout } from '../requests/results.ts';
import { axis, baseOptions, countPoints, longCsv, line, pow2Ticks, alpha, GREY } from './kit.ts';

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
