// What a result carries, by name: the scales a sweep covers, the formats and algorithms of the
// precision grid, the head layouts of the GQA view, and the lookups of one cell of a result. The
// requests ask for these and the charts, claims and interview read results by them. No DOM.
import type { SaturationSweepResult, AttentionSummary, PrecisionLabResult, FloatFormat, SoftmaxAlgorithm } from '../../../wasm/js/core.js';
import type { ScaleName } from '../state/state.ts';
import { SCALES } from '../state/schema.js';

/** Every scale a saturation sweep computes, in the schema's order. */
export const ALL_SCALES: readonly ScaleName[] = SCALES;

/** The three scales of the article's check. */
export const ARTICLE_SCALES: readonly ScaleName[] = ['none', 'inv_sqrt_dk', 'inv_dk'];

/** The summary of one scale at one d_k from a sweep (null when the d_k is not in the sweep). */
export function sweepAt(sweep: SaturationSweepResult, dks: number[], scales: readonly ScaleName[], scale: ScaleName, dk: number): AttentionSummary | null {
  const di = dks.indexOf(dk);
  const si = scales.indexOf(scale);
  return di >= 0 && si >= 0 ? sweep.points[si][di] : null;
}

/** The number formats of the precision grid, widest first. */
export const FORMATS: readonly FloatFormat[] = ['float64', 'float32', 'bfloat16', 'float16'];
/** The softmax algorithms of the precision grid. */
export const ALGORITHMS: readonly SoftmaxAlgorithm[] = ['naive', 'safe', 'online'];

/** The cell of one format and algorithm in a precision result (throws when the result has none). */
export function cellOf(r: PrecisionLabResult, format: FloatFormat, algorithm: SoftmaxAlgorithm) {
  const c = r.cells.find((x) => x.format === format && x.algorithm === algorithm);
  if (!c) throw new Error(`no cell ${format}/${algorithm}`);
  return c;
}

/** The head layouts of the GQA view: every query head its own K/V, groups, one K/V for all. */
export const LAYOUTS = ['mha', 'gqa', 'mqa'] as const;
export type Layout = (typeof LAYOUTS)[number];
