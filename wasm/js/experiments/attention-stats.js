// attentionStats and saturationSweep: the rows of attention on random Q, K, V, one call and swept over d_k and scales (C++: wasm/src/attention_stats.*).
import { dk, seqLen, heads, seed, kernel, scale, variance, threshold, softcap, correlation, sinks, causal, gradients, spectral } from './common.js';

/** The records of its results, by the name of their C++ struct and TypeScript interface. */
export const RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  AttentionSummary: {
    doc: "The summaries of attentionStats' per-row quantities over every row of every head.",
    fields: {
      scale: { type: 'number', doc: 'the resolved scale factor c' },
      entropy: { type: 'Summary', doc: 'nats' },
      entropyRatio: { type: 'Summary', doc: "H_i / ln(keys row i sees): the entropy against the row's own ceiling, ln L without a mask and ln(i + 1) under the causal mask; rows that see one key are left out (NaN summary if none is left)" },
      maxWeight: { type: 'Summary' },
      effSupport: { type: 'Summary', doc: 'exp(entropy), in keys' },
      jacFro: { type: 'Summary', doc: '‖diag(p) − p pᵀ‖_F; under softcap ‖(diag(p) − p pᵀ) diag(1 − tanh²(s/cap))‖_F' },
      jacSpec: { type: 'Summary', doc: '‖diag(p) − p pᵀ‖₂ (under softcap with the same factor)' },
      gradLogits: { type: 'Summary', doc: '‖dS_i‖₂, the gradient reaching the logits of a row for a random upstream dO' },
      gradQuery: { type: 'Summary', doc: '‖dQ_i‖₂, the gradient reaching the query (scale factor included)' },
      shareAbove: { type: 'number', doc: 'fraction of rows whose max weight exceeds the threshold' },
      maxAbsLogit: { type: 'number', doc: 'max |logit| over all heads and unmasked pairs, after soft-capping' },
      sinkMass: { type: 'Summary', when: 'sinks', doc: "only when sinks were given: the sink's weight p_sink of every row (0 for a −∞ sink)" },
    },
  },
}));

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  attentionStats: {
    doc: 'entropy, max weight, support, Jacobian norms and gradients of the attention rows of random Q, K, V',
    cpp: 'attention_stats', call: 'params', part: 'full', costed: true, plan: 'oneGroupPreview',
    params: {
      heads: { type: 'int', default: 8, range: heads, doc: 'query heads' },
      headsKv: { type: 'int', default: 0, range: [0, 64], doc: 'K/V heads (grouped-query attention); 0: heads; must divide heads' },
      seqLen: { type: 'int', default: 128, range: seqLen, doc: 'L, queries and keys per head' },
      dk: { type: 'int', range: dk, doc: 'the head dimension d_k (required)' },
      scale, seed, variance, threshold, kernel,
      heatmapSize: { type: 'int', default: 128, range: [1, 512], doc: 'the heatmap holds the first min(seqLen, heatmapSize) rows × keys of head 0' },
      perRow: { type: 'bool', default: true, doc: "also return every row's quantities" },
      gradients: { ...gradients, doc: 'run the backward pass for gradLogits/gradQuery (default true); false skips V, dO and two of the three products (a third of the work) and gives NaN gradient summaries and empty gradient rows' },
      causal: { ...causal, doc: 'causal mask: row i sees keys 0..i, as PyTorch\'s scaled_dot_product_attention(is_causal=True) (default false). Each row\'s entropy is then bounded by ln(i + 1), not ln L: see summary.entropyRatio.' },
      spectral: { ...spectral, doc: 'compute ‖J‖₂ per row (default true): the secular (or, soft-capped, Lanczos) solve is most of the per-row work; false leaves jacSpec NaN (and rows.jacSpec empty) and every other number bit for bit the same' },
      softcap,
      correlation: { ...correlation, doc: 'key j correlated with query j, its match (default 0); the other keys of a row stay independent of its query. With headsKv < heads a K/V head is correlated with the first query head of its group.' },
      sinks: { ...sinks, doc: 'one sink logit per head (default: none). With a finite sink the row is L + 1 outcomes, the keys and the sink: entropy, effSupport, jacFro and jacSpec are those of that full softmax (the sink logit is a trained parameter), entropyRatio divides by ln(keys seen + 1); maxWeight and shareAbove are over the keys; gradLogits and gradQuery flow through the key weights only (dS_j = w_j (g_j − Σ_k w_k g_k)). The result then carries summary.sinkMass and rows.sinkMass.' },
    },
    flags: { sinks: '!p.sinks.empty()' },
    result: {
      summary: { type: 'AttentionSummary' },
      logSeqLen: { type: 'number', doc: 'ln L, the entropy of a uniform row over all L keys (under the causal mask row i\'s ceiling is ln(i + 1))' },
      rows: {
        type: 'object', doc: 'per-row quantities, each [heads, seq_len] (length 0 when perRow is false)',
        fields: {
          entropy: { type: 'f64', doc: 'nats' }, maxWeight: { type: 'f64' }, effSupport: { type: 'f64', doc: 'keys' },
          jacFro: { type: 'f64' }, jacSpec: { type: 'f64' }, gradLogits: { type: 'f64' }, gradQuery: { type: 'f64' },
          sinkMass: { type: 'f64', when: 'sinks', doc: 'only when sinks were given: p_sink per row [heads, seq_len]' },
        },
      },
      heatmapSize: { type: 'number', doc: 'n: heatmap is [n, n] float32, attention weights of head 0' },
      heatmap: { type: 'f32', doc: '[heatmapSize, heatmapSize], the weights of head 0, rows and keys 0..n−1' },
    },
    example: [{ heads: 2, seqLen: 16, dk: 8 }],
  },
  saturationSweep: {
    doc: "attentionStats' summary against d_k for each scale, on the same Q, K, V per d_k (C2, C3, C6)",
    cpp: 'saturation_sweep', call: 'params', part: 'full', costed: true, plan: 'scalesByDks',
    params: {
      dks: { type: 'intList', range: dk, count: [1, 64], doc: 'the head dimensions d_k, 1..64 of them' },
      scales: { type: 'scaleList', default: ['none', 'inv_sqrt_dk', 'inv_dk'], count: [1, 8], doc: 'the scales, 1..8 of them (each as `scale`)' },
      heads: { type: 'int', default: 4, range: heads, doc: 'heads' },
      seqLen: { type: 'int', default: 128, range: seqLen, doc: 'L, queries and keys per head' },
      seed, variance, threshold, kernel, gradients, causal, spectral, softcap, correlation, sinks,
    },
    flags: { sinks: '!p.sinks.empty()' },
    result: {
      logSeqLen: { type: 'number', doc: 'ln L' },
      points: { type: 'AttentionSummary[][]', doc: 'points[s][d]: scales[s] at dks[d]' },
    },
    example: [{ dks: [4, 16], heads: 1, seqLen: 16 }],
  },
}));
