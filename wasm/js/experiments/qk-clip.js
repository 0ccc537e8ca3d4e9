// qkClip: QK-Clip (MuonClip) per head and per K/V group, before and after (C++: wasm/src/qk_clip.*).
import { seed, kernel, scale, softcap, causal } from './common.js';

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  qkClip: {
    doc: 'QK-Clip (Kimi K2\'s MuonClip, Kimi Team 2025 §2.1; NVIDIA/Megatron-LM megatron/core/transformer/attention.py clip_qk, qk_clip_threshold 100 and qk_clip_alpha 0.5 in transformer_config.py): η = min(1, τ / S_max) per head (per KV group under GQA: the maximum over its query heads), q × η^α and k × η^(1−α); MLA (ropeDim > 0): the rotary query part × η, the shared rotary key untouched. A clipped head\'s new maximum is τ (without a soft-cap).',
    cpp: 'qk_clip', call: 'params', part: 'full', costed: false, plan: 'single',
    params: {
      heads: { type: 'int', default: 8, range: [1, 64], doc: 'query heads' },
      headsKv: { type: 'int', default: 0, range: [0, 64], doc: 'K heads; 0: heads; else must divide heads (GQA: η per group)' },
      seqLen: { type: 'int', default: 128, range: [1, 512], doc: 'L' },
      dk: { type: 'int', default: 64, range: [1, 512], doc: 'd_k' },
      scale, seed, kernel, causal, softcap,
      qGain: { type: 'number', default: 1, range: [0, 1000], doc: 'the multiplier of q (positive): logits past τ' },
      tau: { type: 'number', default: 100, range: [0, 1e6], doc: "τ, Megatron-Core's qk_clip_threshold (positive)" },
      alpha: { type: 'number', default: 0.5, range: [0, 1], doc: "α, Megatron-Core's qk_clip_alpha: q × η^α, k × η^(1−α)" },
      ropeDim: { type: 'int', default: 0, range: [0, 511], doc: "MLA: the rotary dimensions at the end of each head (0: not MLA; < dk; needs headsKv = heads)" },
    },
    result: {
      scale: { type: 'number', doc: 'c' },
      groups: { type: 'number', doc: 'KV heads' },
      maxLogit: { type: 'f64', doc: '[heads] the signed maximum logit S_max of each head before clipping' },
      groupMaxLogit: { type: 'f64', doc: "[groups] the maximum over each group's heads" },
      gamma: { type: 'f64', doc: "[heads] η of each head (its group's)" },
      clippedMax: { type: 'f64', doc: '[heads] the maximum logit after clipping' },
      entropyBefore: { type: 'f64', doc: '[heads] mean row entropy in nats before clipping' },
      entropyAfter: { type: 'f64', doc: '[heads] and after' },
      clippedHeads: { type: 'number', doc: 'heads with η < 1' },
      row: {
        type: 'object', doc: 'the query row holding the largest logit of all: its logits before and after (−∞ masked)',
        fields: {
          head: { type: 'number', cpp: 'row_head' }, query: { type: 'number', cpp: 'row_query' },
          before: { type: 'f64', cpp: 'row_before', doc: '[seqLen]' }, after: { type: 'f64', cpp: 'row_after', doc: '[seqLen]' },
        },
      },
    },
    example: [{ heads: 2, seqLen: 8, dk: 8 }],
  },
}));
