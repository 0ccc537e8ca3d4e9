// Chart builder of the long-context view: entropy, its ratio to ln L or the largest weight against
// the context length L, one line per method (results + translator → ChartSpec, no DOM).
import type { LongContextResult, LongContextScheme } from '../../../wasm/js/core.js';
import type { T, MessageKey } from '../i18n/messages.ts';
import type { ChartSpec, Dataset, Point } from './kit.ts';
import { axis, baseOptions, countPoints, longCsv, line, pow2Ticks, GREY } from './kit.ts';
import { ln } from '../portable-math.ts';

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
