// The requests of "Does attention have to sum to one?": the six normalisers on the state's draws, on the closed-form rows, and QK-Clip's per-head readout. No DOM, no Chart.js.
import type { NormalisersParams, QkClipParams } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import { QKCLIP_HEADS } from '../state/schema.js';
import { kernelParam } from './attention.ts';

/** The core's limits of normalisers(): the state's d_k and L are read up to these (the view says so). */
export const NORMALISERS_MAX = { dk: 256, seqLen: 512 } as const;
/** QK-Clip's fixed shape on the view: 8 query heads of d_k 64 over L = 128, 1/√d_k. */
export const QKCLIP_SHAPE = { heads: QKCLIP_HEADS, dk: 64, seqLen: 128 } as const;

/** d_k and L as the normalisers call reads them (the state's, capped at the core's limits). */
export function normalisersShape(s: State): { dk: number; seqLen: number } {
  return { dk: Math.min(s.dk, NORMALISERS_MAX.dk), seqLen: Math.min(s.seqLen, NORMALISERS_MAX.seqLen) };
}

/** The six normalisers on the state's q, k, v (the saturation view's draws: same seed, heads, L, d_k, scale). */
export function normalisersParams(s: State): NormalisersParams {
  return {
    heads: s.heads, ...normalisersShape(s), scale: s.scale, seed: s.seed,
    sink: s.nsink, lambda: s.nlambda, gateMean: s.ngate, ...kernelParam(s),
  };
}

/** One explicit row of logits through every normaliser (the sources' checks: all-zero logits, [2, 1, 0]). */
export function normalisersRowParams(s: State, logits: readonly number[]): NormalisersParams {
  return { logits: [...logits], dk: 4, seed: s.seed, sink: s.nsink, lambda: s.nlambda, gateMean: s.ngate, ...kernelParam(s) };
}
/** The closed-form rows the view checks: all-zero logits over n = 4 and 128 keys, and [2, 1, 0]. */
export const CHECK_ROWS: readonly { id: string; logits: readonly number[] }[] = [
  { id: 'zero4', logits: [0, 0, 0, 0] },
  { id: 'zero128', logits: Array.from({ length: 128 }, () => 0) },
  { id: 'two10', logits: [2, 1, 0] },
];

/** The key heads of QK-Clip's 8 query heads: the state's, or the nearest smaller divisor of 8. */
export function qkClipHeadsKv(s: State): number {
  let h = Math.min(Math.max(1, s.qchkv), QKCLIP_SHAPE.heads);
  while (QKCLIP_SHAPE.heads % h !== 0) h--;
  return h;
}

/** QK-Clip on 8 heads of q × qcgain and k, τ = qctau, α = ½ (Megatron-Core's default), one η per KV group. */
export function qkClipParams(s: State): QkClipParams {
  return {
    ...QKCLIP_SHAPE, headsKv: qkClipHeadsKv(s), scale: 'inv_sqrt_dk', seed: s.seed,
    qGain: s.qcgain, tau: s.qctau, alpha: 0.5, ...kernelParam(s),
  };
}
