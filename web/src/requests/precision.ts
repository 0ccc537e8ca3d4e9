// The requests of the precision view (softmax in float64/32, bfloat16, float16; naive, safe, online)
// and the text of its table's cells, with no DOM and no Chart.js, so that unit tests import exactly
// what the panel sends to the core.
import type { PrecisionLabParams, PrecisionLabResult } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import { SCHEMA } from '../state/schema.js';
import { parseNums } from '../state/state.ts';
import { fmt, pct } from '../format.ts';

export const LOGIT_PRESETS: readonly (readonly number[])[] = [[100, 90, 80], [10, 0], [11, 11]];
/** Rows of the random mode: about 4096 keys in all (the lab runs 12 emulated softmaxes per row). */
export function precisionRows(seqLen: number): number {
  return Math.max(4, Math.min(64, Math.floor(4096 / seqLen)));
}
/** The setting of the C11 check: the article's d_k = 512 and L = 128, random rows. */
export const C11_SHAPE = { rows: 32, seqLen: 128, dk: 512, seed: 0, blockSize: 32 } as const;

/** The q/k mode's tensors: q = pq·𝟏 [1, d_k] and keys k_j = pk_j·𝟏, each repeated pkrep times: [keys · pkrep, d_k], float32. */
export function precisionQk(s: State): { q: Float32Array; k: Float32Array } {
  const per = s.pkrep * s.pdk;
  const k = new Float32Array(s.pk.length * per);
  s.pk.forEach((x, j) => k.fill(x, j * per, (j + 1) * per));
  return { q: new Float32Array(s.pdk).fill(s.pq), k };
}
/** The float16 sum stall: 4096 zero logits (q = 0) summed in float16 stop at 2048, so Σp = 2 (issue 19). */
/**
 * The cache key of the precision lab's request: in the q/k mode the state fields the tensors are
 * built from (pq, pk, pkrep, pdk), not the tensors themselves (up to 8192 × 4096 numbers, which
 * JSON.stringify could neither afford on every change nor always hold in one string); else its params.
 */
export function precisionKey(s: State): string {
  if (s.pmode !== 'qk') return JSON.stringify(precisionParams(s));
  return JSON.stringify({ qk: [s.pq, s.pk, s.pkrep, s.pdk], scale: s.pscale, scaleAt: s.pscaleat, blockSize: s.pblock, accumulate: s.pacc, maskedRow: s.pmasked });
}

export const STALL_PRESET = { pmode: 'qk', pdk: 16, pq: 0, pk: [0], pkrep: 4096, pscale: 'inv_sqrt_dk', pscaleat: 'scores', pacc: 'same' } as const;
/** The d_k the q/k mode starts at: the fp16 case (q = 24·𝟏 against 24·𝟏, 12·𝟏, 0 at d_k 128). */
export const QK_PRESET = { pmode: 'qk', pdk: 128, pq: 24, pk: [24, 12, 0], pkrep: 1, pscale: 'inv_sqrt_dk', pscaleat: 'scores', pacc: 'same' } as const;

/**
 * The precision lab's request. The core checks the row sums by default (the Σp column and the cause sumStall,
 * in every mode); rowSums: false would leave out those two fields and nothing else.
 */
export function precisionParams(s: State): PrecisionLabParams {
  const rule = { accumulate: s.pacc, maskedRow: s.pmasked } as const;
  if (s.pmode === 'qk') return { ...precisionQk(s), dk: s.pdk, scale: s.pscale, scaleAt: s.pscaleat, blockSize: s.pblock, ...rule };
  return s.pmode === 'logits'
    ? { logits: [...s.plogits], blockSize: s.pblock, ...rule }
    : { rows: precisionRows(s.pseqLen), seqLen: s.pseqLen, dk: s.pdk, scale: s.pscale, seed: s.pseed, blockSize: s.pblock, ...rule };
}

/** The logit field: numbers separated by commas, spaces or semicolons; −∞ (-inf, −∞) is a masked key. */
export function parseLogitField(raw: string): number[] | null {
  const body = raw.replace(/[[\]]+/g, ' ').trim();
  if (body === '') return null;
  const spec = SCHEMA.plogits;
  const xs = parseNums(body, true, /[\s,;]+/);
  if (xs === null || xs.length > spec.maxLength || xs.some((x) => x !== -Infinity && (x < spec.min || x > spec.max))) return null;
  return xs;
}
/** The signs of the causes, in their order (the legend explains them; the same in every language). */
export const CAUSE_SIGNS = [
  ['inputOverflow', 'in→∞'], ['expOverflow', 'exp→∞'], ['sumOverflow', 'Σ→∞'], ['nan', '0/0'], ['underflow', '0↓'], ['sumStall', 'Σp≠1'],
] as const;

/** True when some row of the cell broke (a non-finite weight or any cause). */
export function cellBroken(c: PrecisionLabResult['cells'][number]): boolean {
  return c.shareNonfinite > 0 || CAUSE_SIGNS.some(([k]) => (c.causes[k] ?? 0) > 0);
}

/**
 * The text of one table cell, the same in every language (the legend explains the signs):
 * NaN / ±∞ share of rows, then each cause's share of rows (CAUSE_SIGNS), Δ the largest error.
 */
export function cellText(c: PrecisionLabResult['cells'][number]): string {
  const parts: string[] = [];
  if (c.shareNan > 0) parts.push(`NaN ${pct(c.shareNan)}`);
  if (c.shareNonfinite > c.shareNan) parts.push(`±∞ ${pct(c.shareNonfinite - c.shareNan)}`);
  for (const [k, sign] of CAUSE_SIGNS) if ((c.causes[k] ?? 0) > 0) parts.push(`${sign} ${pct(c.causes[k] ?? 0)}`);
  if (Number.isFinite(c.maxAbsError)) parts.push(`Δ ${fmt(c.maxAbsError, 2)}`);
  if (!cellBroken(c)) parts.unshift('✓');
  return parts.join(' · ');
}

/** The Σp column of a format: the min and max row sum of its safe cell ("–" without rowSums, "NaN" when every row's sum is NaN). */
export function rowSumText(c: PrecisionLabResult['cells'][number]): string {
  const r = c.rowSum;
  if (!r) return '–';
  // NaN: every row's sum is NaN (core.d.ts rowSum) — said as such, not '–', which the page keeps for "not computed yet"
  if (Number.isNaN(r.min)) return 'NaN';
  return r.min === r.max ? fmt(r.min, 5) : `${fmt(r.min, 5)} … ${fmt(r.max, 5)}`;
}
