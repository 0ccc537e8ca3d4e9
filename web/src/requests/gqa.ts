// The requests of the GQA view: query heads sharing K/V heads (MHA, GQA, MQA) at one shape, and
// Gemma 2 27B's numbers it quotes. No DOM.
import type { AttentionStatsParams } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { Layout } from './results.ts';
import { kvLayouts } from '../kvcache.ts';
import { kernelParam } from './attention.ts';

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
