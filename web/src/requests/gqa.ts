// The requests of the GQA view: query heads sharing K/V heads (MHA, GQA, MQA) at one shape, and
// Gemma 2 27B's numbers it quotes. No DOM.
import type { AttentionStatsParams } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { Layout } from './results.ts';
import { kvLayouts } from '../kvcache.ts';
import { kernelParam } from './attention.ts';
import type { DvCheckParams } from '../worker/dv-check.ts';

/** Keys per row of the statistics (small, so MHA/GQA/MQA at 64 heads stay quick). */
export const GQA_SEQ_LEN = 32;
/** A published configuration (gemma_pytorch `get_config_for_27b`; Hugging Face Gemma2Config). */
export const GEMMA2_27B = { hq: 32, hkv: 16, gdk: 128, kvl: 46, queryPreAttnScalar: 144, dModel: 4608, attnLogitSoftcap: 50 } as const;
/** The logit gap of the Gemma 2 note's soft-cap computation: the case, cap 50 on [100, 0]. */
export const GEMMA2_CAP_GAP = 100;

export function headsKvOf(layout: Layout, s: State): number {
  return kvLayouts(s.hq, s.hkv).find((l) => l.id === layout)!.headsKv;
}
export function gqaStatsParams(s: State, layout: Layout, dk: number, scale: 'inv_sqrt_dk' | 'none' = 'inv_sqrt_dk'): AttentionStatsParams {
  return { heads: s.hq, headsKv: headsKvOf(layout, s), seqLen: GQA_SEQ_LEN, dk, scale, seed: 0, perRow: false, heatmapSize: 1, ...kernelParam(s) };
}

/**
 * The MLA preset: Kimi K2 (moonshotai/Kimi-K2-Instruct config.json, saved in tests/node/configs/kimi-k2-instruct.json):
 * 64 query heads, each with its own expanded K/V head, q/k heads of qk_nope_head_dim 128 + qk_rope_head_dim 64 = 192,
 * v_head_dim 128, 61 layers; its cache holds kv_lora_rank 512 + 64 rotary entries per layer and token.
 */
export const KIMI_K2_MLA = { hq: 64, hkv: 64, gdk: 192, gdv: 128, kvl: 61, kvLoraRank: 512, ropeDim: 64 } as const;

/** d_v as the state gives it (gdv; 0 = d_head). */
export function dvOf(s: State): number {
  return s.gdv > 0 ? s.gdv : s.gdk;
}
/** The d_v check's request (worker/dv-check.ts): the view's heads and K/V heads at L = 32, d_k = gdk, d_v = gdv. */
export function dvCheckParams(s: State): DvCheckParams {
  return { heads: s.hq, headsKv: headsKvOf('gqa', s), seqLen: GQA_SEQ_LEN, dk: s.gdk, dv: dvOf(s), seed: 0 };
}
