// Chart builders of the ALiBi sections: on long context each head's entropy against L with ALiBi on top of 1/√d_k, 1/√d_k alone (the mean over heads) and ln L; on saturation each head's entropy at one L under three scales (result + translator → ChartSpec, no DOM).
import type { AlibiResult, AlibiScalesResult } from '../worker/alibi.ts';
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

/**
 * The saturation view's "does ALiBi need the 1/√d_k?": x the head (1 = steepest slope), y the mean entropy of the last
 * rows; per scale one solid line with ALiBi and one dashed line without a bias (the heads' mean, flat), in the scale's colour.
 */
export function buildAlibiScales(r: AlibiScalesResult, t: T): ChartSpec {
  const datasets: Dataset[] = [];
  for (const row of r.rows) {
    const name = t(`scale.${row.scale}`);
    datasets.push(line(t('sal.series.alibi', { scale: name }), SCALE_COLOURS[row.scale], row.alibi.map((y, h) => ({ x: h + 1, y })), { pointRadius: 3 }));
    datasets.push(line(t('sal.series.plain', { scale: name }), SCALE_COLOURS[row.scale], row.alibi.map((_, h) => ({ x: h + 1, y: row.plainMean })), { borderDash: [6, 3], borderWidth: 1.5 }));
  }
  const H = r.slopes.length;
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(axis(t('sal.axis.head'), 'linear', { min: 1, max: H, ticks: { stepSize: 1, precision: 0 } }), axis(t('sat.axis.entropy'), 'linear', { min: 0 })) },
    csv: longCsv('head', 'entropy_last_rows_nats', datasets),
    points: countPoints(datasets),
  };
}
