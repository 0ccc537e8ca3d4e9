// Chart builder of the long-context view's ALiBi section: each head's entropy against L with ALiBi on top of 1/√d_k, 1/√d_k alone (the mean over heads) and ln L (result + translator → ChartSpec, no DOM).
import type { AlibiResult } from '../worker/alibi.ts';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from './kit.ts';
import { axis, baseOptions, countPoints, longCsv, line, pow2Ticks, sig3, GREY, SCALE_COLOURS } from './kit.ts';
import { ln } from '../portable-math.ts';

/** A colour per head, steep slopes (head 1, m = 1/2) dark red to gentle ones (m = 1/256) light orange. */
export function headColour(h: number, heads: number): string {
  const u = heads > 1 ? h / (heads - 1) : 0;
  const c = (a: number, b: number) => Math.round(a + (b - a) * u).toString(16).padStart(2, '0');
  return `#${c(0x8b, 0xf0)}${c(0x1a, 0xa0)}${c(0x2e, 0x30)}`;
}

/** One line per ALiBi head (label: head and slope), 1/√d_k alone dashed, ln L dotted grey; x log L, y entropy in nats. */
export function buildAlibi(r: AlibiResult, t: T): ChartSpec {
  const at = (ys: number[]) => r.seqLens.map((x, l) => ({ x, y: ys[l] }));
  const datasets: Dataset[] = r.alibi.map((ys, h) => line(t('al.series.head', { h: h + 1, m: sig3(r.slopes[h]) }), headColour(h, r.alibi.length), at(ys), { pointRadius: 2 }));
  datasets.push(line(t('al.series.plain'), SCALE_COLOURS.inv_sqrt_dk, at(r.plainMean), { borderWidth: 3, borderDash: [6, 3], pointRadius: 3 }));
  datasets.push(line(t('lc.series.lnL'), GREY, r.seqLens.map((x) => ({ x, y: ln(x) })), { borderDash: [2, 3], borderWidth: 1.5 }));
  const lo = r.seqLens[0] ?? 16, hi = r.seqLens[r.seqLens.length - 1] ?? 1024;
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(axis(t('lc.axis.L'), 'logarithmic', pow2Ticks(lo, hi, 7)), axis(t('sat.axis.entropy'), 'linear', { min: 0 })) },
    csv: longCsv('seq_len', 'entropy_last_rows_nats', datasets),
    points: countPoints(datasets),
  };
}
