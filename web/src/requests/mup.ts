// The requests of "When is 1/d_k right?" (μP: correlated q and k, the scale exponent d_k^−p), read
// downward by the panel, the claims and the interview, so that equal requests hit the same cache
// entry. No DOM, no Chart.js.
import type { SaturationSweepParams, ScoreVarianceParams, Scale } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import { sweepDks, varianceDks } from '../worker/cost.ts';
import { kernelParam } from './attention.ts';

// ---- When is 1/d_k right? (μP) ----
/** The attention shape of the μP view's entropy sweep: the saturation panel's default, 4 heads of 128 keys. */
export const MUP_SHAPE = { heads: 4, seqLen: 128 } as const;
/** Pairs per d_k of the μP view's variance sweep. */
export const MUP_SAMPLES = 2000;
/** The d_k the μP view quotes in its table (and the interview's follow-ups). */
export const MUP_QUOTE_DKS = [64, 256, 1024] as const;

/** The three scales of the μP entropy sweep, in order: 1/√d_k, 1/d_k and d_k^−p. */
export function mupScales(p: number): Scale[] {
  return ['inv_sqrt_dk', 'inv_dk', { power: p }];
}
/** The index of each scale in mupScales(). */
export const MUP_SCALE = { sqrt: 0, inv: 1, power: 2 } as const;

/** The correlation key of a request: left out at ρ = 0, so the iid request is today's, bit for bit and cache entry for entry. */
function corr(rho: number): { correlation?: number } {
  return rho === 0 ? {} : { correlation: rho };
}

/**
 * Var(q·k) and mean(q·k) of matched pairs against d_k at correlation ρ (k_i = ρ q_i + √(1 − ρ²) z_i):
 * every d_k the variance budget allows for MUP_SAMPLES pairs. At ρ = 0 this is the variance panel's
 * default sweep (same cache entry).
 */
export function mupVarianceParams(s: State, rho: number): ScoreVarianceParams & { dks: number[] } {
  return { dks: varianceDks(MUP_SAMPLES), samples: MUP_SAMPLES, seed: s.seed, bins: 4, ...corr(rho) };
}

/** Mean entropy and max weight against d_k at the state's ρ for 1/√d_k, 1/d_k and d_k^−p; forward only. */
export function mupSweepParams(s: State): SaturationSweepParams & { dks: number[] } {
  return {
    dks: sweepDks(MUP_SHAPE.heads, MUP_SHAPE.seqLen, mupScales(s.mpow), kernelParam(s)), scales: mupScales(s.mpow),
    heads: MUP_SHAPE.heads, seqLen: MUP_SHAPE.seqLen, seed: s.seed, gradients: false, ...corr(s.rho), ...kernelParam(s),
  };
}
