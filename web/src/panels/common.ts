// Request parameters shared by panels, so that equal requests hit the same cache entry.
import type { AttentionStatsParams, SaturationSweepParams } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import { sweepDks, attentionMacs, POINT_MAC_LIMIT } from '../compute.ts';
import { ALL_SCALES } from '../charts/builders.ts';

export const HEATMAP_N = 48;

export function kernelParam(state: State): { kernel?: 'simd' | 'scalar' } {
  return state.kernel === 'auto' ? {} : { kernel: state.kernel };
}

export function sweepParams(state: State): SaturationSweepParams & { dks: number[] } {
  return {
    dks: sweepDks(state.heads, state.seqLen, ALL_SCALES.length),
    scales: [...ALL_SCALES],
    heads: state.heads,
    seqLen: state.seqLen,
    seed: state.seed,
    ...kernelParam(state),
  };
}

export function pointParams(state: State): AttentionStatsParams {
  return {
    heads: state.heads, seqLen: state.seqLen, dk: state.dk, scale: state.scale, seed: state.seed,
    perRow: false, heatmapSize: HEATMAP_N, ...kernelParam(state),
  };
}

/** The saturation panel's logit rule: the causal mask and the soft-cap, only when set (0 = off). */
export function logitRuleParams(state: State): { causal?: boolean; softcap?: number } {
  return { ...(state.causal ? { causal: true } : {}), ...(state.softcap > 0 ? { softcap: state.softcap } : {}) };
}

/** The work of the point in GMAC when it is over the limit, else null. */
export function pointTooBig(state: State): string | null {
  const macs = attentionMacs(state.heads, state.seqLen, state.dk);
  return macs > POINT_MAC_LIMIT ? (macs / 1e9).toFixed(1) : null;
}
export const POINT_LIMIT_GMAC = (POINT_MAC_LIMIT / 1e9).toFixed(1);
