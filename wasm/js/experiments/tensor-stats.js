// tensorStats: attentionStats' diagnostics on the caller's own q, k and v (C++: wasm/src/attention_stats.*).
import { dk, seqLen, heads, seed, kernel, scale, threshold, causal } from './common.js';

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  tensorStats: {
    doc: "attentionStats' diagnostics and Var(q·k) on the caller's q and k (and optionally v)",
    cpp: 'tensor_stats', call: 'params', part: 'full', costed: true, plan: 'single',
    params: {
      q: { type: 'float32', field: null, doc: '[heads, seqLen, dk] each, finite; v optional (random N(0, 1) when absent or null; a zero-length v is refused). Each must be a genuine Float32Array whose element count (byteLength / 4) matches the shape, checked before anything is copied (TypeError / RangeError naming the tensor).' },
      k: { type: 'float32', field: null, doc: 'K [heads, seqLen, dk]' },
      v: { type: 'float32', default: null, field: null, doc: 'V [heads, seqLen, dk], or null: drawn from the seed' },
      heads: { type: 'int', range: heads, doc: 'heads (required)' },
      seqLen: { type: 'int', range: seqLen, doc: 'L (required)' },
      dk: { type: 'int', range: dk, doc: 'd_k (required)' },
      scale,
      seed: { ...seed, doc: 'seeds the random V (if absent) and upstream gradient dO' },
      threshold, kernel,
      causal: { ...causal, doc: 'causal mask, as in AttentionStatsParams (default false)' },
    },
    flags: { sinks: 'false' },  // no sinks: its summary never carries sinkMass
    result: {
      qk: { type: 'Moments', doc: 'of the raw q·k over every head, query and key' },
      qComponent: { type: 'Moments', doc: 'of the entries of q' },
      kComponent: { type: 'Moments', doc: 'of the entries of k' },
      summary: { type: 'AttentionSummary' },
      logSeqLen: { type: 'number', doc: 'ln L' },
      rows: {
        type: 'object', doc: 'each [heads, seqLen]',
        fields: { entropy: { type: 'f64', doc: 'nats' }, maxWeight: { type: 'f64' }, jacFro: { type: 'f64' } },
      },
    },
    example: [{ q: new Float32Array(8), k: new Float32Array(8), heads: 1, seqLen: 2, dk: 4 }],
  },
}));
