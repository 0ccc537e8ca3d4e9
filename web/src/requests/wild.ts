// The requests of "Scales in the wild": each real model's effective scale beside 1/√d_head, the bug
// museum's wrong and right scales, and the saturation links of their rows. No DOM, no Chart.js.
import type { AttentionStatsParams, Scale, ModelScale } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import { kernelParam } from './attention.ts';
import { SCHEMA } from '../state/schema.js';

// ---- Scales in the wild ----
/**
 * The default context length of the catalogue's entropy columns (the state's wlen): one head of L = 4096
 * queries on iid N(0, 1) inputs, as issue 19 asks. The requests ask for the entropy only (no gradients, no
 * ‖J‖₂: spectral false), so a soft-capped model (Gemma 2, Grok-1) is not charged for the Lanczos solve of
 * its Jacobian and every row fits the core's budget (tests/web/page-budget.test.ts).
 */
export const WILD_SEQ_LEN: number = SCHEMA.wlen.default;

/** The mean row entropy at L = wlen on iid inputs under a scale (a model's effective one, or 1/√d_head): forward only, no ‖J‖₂. */
export function wildStatsParams(s: State, dHead: number, scale: Scale, softcap = 0): AttentionStatsParams {
  return {
    heads: 1, seqLen: s.wlen, dk: dHead, scale, seed: 0, perRow: false, heatmapSize: 1, gradients: false, spectral: false,
    ...(softcap > 0 ? { softcap } : {}), ...kernelParam(s),
  };
}
/** A catalogue entry's own request: its effective scale, with its soft-cap when it has one. */
export function wildModelParams(s: State, m: ModelScale): AttentionStatsParams {
  return wildStatsParams(s, m.dHead, m.scale, m.softcap ?? 0);
}
/** The reference of a row: 1/√d_head at the same d_head, no cap. */
export function wildReferenceParams(s: State, dHead: number): AttentionStatsParams {
  return wildStatsParams(s, dHead, 'inv_sqrt_dk');
}

/**
 * The bug museum: real wrong-scale bugs at the shapes of the models they hit. `wrong` is the scale
 * the buggy code applied, `right` the one it should have; the numbers come from the core at the shape.
 */
export interface Bug {
  id: 'clip' | 'mlc' | 'dmodel' | 'twice';
  heads: number; seqLen: number; dk: number;
  /** the factor the bug applied; a number where it is not one of the core's named scales */
  wrong: Scale;
  /** the factor of the correct code */
  right: Scale;
  /** where the bug was reported (owner/repo#number) */
  source: string;
}
export const BUGS: readonly Bug[] = [
  // openai/clip-vit-base-patch32's vision tower: hidden 768, 12 heads of 64, 50 tokens (49 patches + CLS);
  // the tutorial multiplied by 1/√num_heads = 1/√12 instead of 1/√64.
  { id: 'clip', heads: 12, seqLen: 50, dk: 64, wrong: 1 / Math.sqrt(12), right: 'inv_sqrt_dk', source: 'tenstorrent/tt-metal#56789' },
  // the fallback path called prefill with sm_scale = 1.0; BGE-base (BERT-base: 12 heads of 64) at 512 tokens.
  { id: 'mlc', heads: 12, seqLen: 512, dk: 64, wrong: 'none', right: 'inv_sqrt_dk', source: 'mlc-ai/mlc-llm#3426' },
  // C**-0.5 with C = n_embd = 384 instead of head_size 64 (6 heads, block size 256).
  { id: 'dmodel', heads: 6, seqLen: 256, dk: 64, wrong: 'inv_sqrt_d_model', right: 'inv_sqrt_dk', source: 'karpathy/ng-video-lecture#6' },
  // a query already multiplied by 1/√d_k handed to a kernel that scales again: 1/d_k in all (d_head 128, 8 heads, 512 tokens).
  { id: 'twice', heads: 8, seqLen: 512, dk: 128, wrong: 'inv_dk', right: 'inv_sqrt_dk', source: 'F.scaled_dot_product_attention(q · d_k^−½, …)' },
];

/** One side of a bug row: entropy and max weight at the bug's shape under a scale, forward only. */
export function bugParams(s: State, b: Bug, which: 'wrong' | 'right'): AttentionStatsParams {
  return {
    heads: b.heads, seqLen: b.seqLen, dk: b.dk, scale: b[which], seed: 0, perRow: false, heatmapSize: 1, gradients: false, ...kernelParam(s),
  };
}

/** The saturation link of a scale: the catalogue's number as an explicit scale at the nearest d_k the heatmap takes. */
export function explicitScaleValue(scale: number): number {
  return Number(scale.toFixed(6));
}

/** The state the row's link opens: saturation at the model's d_head (4 heads, 128 keys) with its scale and cap. */
export function wildLinkPatch(m: ModelScale): Partial<State> {
  return { exp: 'saturation', dk: m.dHead, heads: 4, seqLen: 128, sscale: explicitScaleValue(m.scale), softcap: m.softcap ?? 0, causal: false, sink: [-Infinity] };
}
/** The state a bug row's link opens: saturation at the bug's shape (L at most the slider's 1024) with the wrong scale. */
export function bugLinkPatch(b: Bug, wrongC: number): Partial<State> {
  return { exp: 'saturation', dk: b.dk, heads: b.heads, seqLen: Math.min(b.seqLen, 1024), sscale: explicitScaleValue(wrongC), softcap: 0, causal: false, sink: [-Infinity] };
}
