// The requests the views send to the core (attention experiments), one definition read downward by the
// panels, the claims, the interview and the planner, so that equal requests hit the same cache entry.
import type { AttentionStatsParams, SaturationSweepParams, ScoreVarianceParams, Scale } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import { sweepDks, varianceDks, pointOverLimit, POINT_SECONDS_LIMIT } from '../worker/cost.ts';
import { ALL_SCALES, ARTICLE_SCALES } from './results.ts';

export const HEATMAP_N = 48;

export function kernelParam(state: State): { kernel?: 'simd' | 'scalar' } {
  return state.kernel === 'auto' ? {} : { kernel: state.kernel };
}

export function sweepParams(state: State): SaturationSweepParams & { dks: number[] } {
  return {
    dks: sweepDks(state.heads, state.seqLen, [...ALL_SCALES], kernelParam(state)),
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

/**
 * The saturation panel's explicit scale (sscale > 0, e.g. a model's effective scale from "Scales in
 * the wild"): the point uses it instead of the named scale, and the sweep draws it as a fifth series at
 * the same d_k (so the four named series keep their cache entry and their order); none when 0.
 */
export function explicitPointParams(state: State): { scale?: number } {
  return state.sscale > 0 ? { scale: state.sscale } : {};
}
export function explicitSweepParams(state: State): { scales?: Scale[] } {
  return state.sscale > 0 ? { scales: [...ALL_SCALES, state.sscale] } : {};
}

/** The saturation panel's attention sink: one logit S per head (gpt-oss semantics), none at −∞. */
export function sinkParams(state: State): { sinks?: number[] } {
  const S = state.sink[0];
  return S === undefined || S === -Infinity ? {} : { sinks: new Array<number>(state.heads).fill(S) };
}

/**
 * The saturation panel's point (its heatmap and readouts), as the panel sends it, also read by the
 * interview, its drill and its links: the state's scale or explicit scale, causal mask, soft-cap and
 * sink; no backward pass and no ‖J‖₂ — no chart or readout of it shows them.
 */
export function saturationPointParams(state: State): AttentionStatsParams {
  return { ...pointParams(state), ...explicitPointParams(state), ...logitRuleParams(state), ...sinkParams(state), gradients: false, spectral: false };
}

/**
 * The core's estimate of the point (the gradient panel's request, the larger of the two panels')
 * in seconds, as text, when it is over POINT_SECONDS_LIMIT; else null.
 */
export function pointTooBig(state: State): string | null {
  const s = pointOverLimit(pointParams(state));
  return s === null ? null : s.toFixed(1);
}
export const POINT_LIMIT_SECONDS = POINT_SECONDS_LIMIT.toFixed(1);

/** Panel 1's law of the variance: every d_k the budget allows, 4 bins (the histograms come from the point). */
export function varianceSweepParams(state: State): ScoreVarianceParams & { dks: number[] } {
  return { dks: varianceDks(state.samples), samples: state.samples, seed: state.seed, bins: 4 };
}

/** Panel 1's point: the d_k of the slider with its two histograms. */
export function variancePointParams(state: State): ScoreVarianceParams & { dks: number[] } {
  return { dks: [state.dk], samples: state.samples, seed: state.seed, histDk: state.dk, bins: 60 };
}

/** The article's shape: q, k ~ randn(1, 8, 128, 512). */
export const ARTICLE_SHAPE = { heads: 8, seqLen: 128, dk: 512 } as const;

/**
 * Panel 4, the article's check in one sweep call: the three scales share the same Q and K, and no
 * backward pass is needed (entropy, max weight and share above 0.99 are forward quantities).
 */
export function articleParams(state: State): SaturationSweepParams & { dks: number[] } {
  return {
    dks: [ARTICLE_SHAPE.dk], scales: [...ARTICLE_SCALES], heads: ARTICLE_SHAPE.heads, seqLen: ARTICLE_SHAPE.seqLen,
    seed: state.aseed, gradients: false, ...kernelParam(state),
  };
}
