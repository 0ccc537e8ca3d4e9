// Request parameters and text helpers of the lab panels (precision, long context, GQA), with no
// DOM and no Chart.js, so that unit tests import exactly what the panels send to the core.
import type { PrecisionLabParams, PrecisionLabResult, LongContextMethod, LongContextParams, AttentionStatsParams } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { WorkerName } from '../compute.ts';
import type { Layout } from '../charts/labs.ts';
import { LONG_SEQ_STEPS } from '../state/schema.js';
import { kvLayouts } from '../kvcache.ts';
import { fmt, pct } from '../format.ts';
import { kernelParam } from './common.ts';

// ---- precision lab ----
export const LOGIT_PRESETS: readonly (readonly number[])[] = [[100, 90, 80], [10, 0], [11, 11]];
/** Rows of the random mode: about 4096 keys in all (the lab runs 12 emulated softmaxes per row). */
export function precisionRows(seqLen: number): number {
  return Math.max(4, Math.min(64, Math.floor(4096 / seqLen)));
}
/** The setting of the C11 check: the article's d_k = 512 and L = 128, random rows. */
export const C11_SHAPE = { rows: 32, seqLen: 128, dk: 512, seed: 0, blockSize: 32 } as const;

export function precisionParams(s: State): PrecisionLabParams {
  return s.pmode === 'logits'
    ? { logits: [...s.plogits], blockSize: s.pblock }
    : { rows: precisionRows(s.pseqLen), seqLen: s.pseqLen, dk: s.pdk, scale: s.pscale, seed: s.pseed, blockSize: s.pblock };
}

/**
 * The text of one table cell, the same in every language (the table's note explains the signs):
 * NaN / ±∞ share of rows, 0↓ share of rows with a weight underflowed to 0, Δ the largest error.
 */
export function cellText(c: PrecisionLabResult['cells'][number]): string {
  const parts: string[] = [];
  if (c.shareNan > 0) parts.push(`NaN ${pct(c.shareNan)}`);
  if (c.shareNonfinite > c.shareNan) parts.push(`±∞ ${pct(c.shareNonfinite - c.shareNan)}`);
  if (c.shareUnderflow > 0) parts.push(`0↓ ${pct(c.shareUnderflow)}`);
  if (Number.isFinite(c.maxAbsError)) parts.push(`Δ ${fmt(c.maxAbsError, 2)}`);
  if (c.shareNonfinite === 0 && c.shareUnderflow === 0) parts.unshift('✓');
  return parts.join(' · ');
}

// ---- long context ----
export const METHODS: readonly LongContextMethod[] = ['fixed', 'logn', 'yarn', 'article'];
export const WORKER_OF: Record<LongContextMethod, WorkerName> = { fixed: 'live', logn: 'live', yarn: 'sweep', article: 'sweep' };
/** The length the text and readouts quote. */
export const QUOTE_L = 8192;

/** Queries per length: the sweep's cost is about queries · Σ L · d_k per method. */
export function longQueries(dk: number): number {
  return dk <= 64 ? 16 : dk <= 128 ? 8 : 4;
}

export function longParams(s: State, method: LongContextMethod): LongContextParams {
  return {
    dk: s.ldk, seqLens: [...LONG_SEQ_STEPS], queries: longQueries(s.ldk), methods: [method], seed: 0,
    // the fixed scale ignores L_train: one cache entry for every L_train
    trainLen: method === 'fixed' ? 512 : s.ltrain,
    ...kernelParam(s),
  };
}

// ---- GQA / MQA ----
/** Keys per row of the statistics (small, so MHA/GQA/MQA at 64 heads stay quick). */
export const GQA_SEQ_LEN = 32;
/** A published configuration (gemma_pytorch `get_config_for_27b`; Hugging Face Gemma2Config). */
export const GEMMA2_27B = { hq: 32, hkv: 16, gdk: 128, kvl: 46, queryPreAttnScalar: 144, dModel: 4608 } as const;

export function headsKvOf(layout: Layout, s: State): number {
  return kvLayouts(s.hq, s.hkv).find((l) => l.id === layout)!.headsKv;
}
export function gqaStatsParams(s: State, layout: Layout, dk: number, scale: 'inv_sqrt_dk' | 'none' = 'inv_sqrt_dk'): AttentionStatsParams {
  return { heads: s.hq, headsKv: headsKvOf(layout, s), seqLen: GQA_SEQ_LEN, dk, scale, seed: 0, perRow: false, heatmapSize: 1, ...kernelParam(s) };
}
