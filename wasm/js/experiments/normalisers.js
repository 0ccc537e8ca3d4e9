// normalisers: does attention have to sum to one? Seven normalisers on the same draws (C++: wasm/src/normalisers.*).
import { seed, kernel, scale, causal } from './common.js';

/** The records of its results, by the name of their C++ struct and TypeScript interface. */
export const RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  NormaliserRow: {
    doc: 'One normaliser of normalisers(), measured on the same draws.',
    fields: {
      name: { type: 'string', ts: 'NormaliserName' },
      rowSum: { type: 'number', nullIf: 'nan', doc: 'Σ_j w_j, mean over rows (gated: the coefficients σ(g_c)·p_j averaged over channels c; null without rows)' },
      rowSumMin: { type: 'number', nullIf: 'nan' },
      rowSumMax: { type: 'number', nullIf: 'nan' },
      firstMass: { type: 'number', nullIf: 'nan', doc: 'w_0, the weight on the first key, mean over rows' },
      entropy: { type: 'number', nullIf: 'nan', doc: 'the entropy of the renormalised row w / Σw in nats, mean over the rows whose weights are all ≥ 0; null = not applicable (every differential row has a negative weight, or no rows)' },
      entropyRows: { type: 'number', doc: 'the rows whose entropy is defined' },
      rows: { type: 'number', doc: "rows measured (the differential's: its pairs' rows)" },
      negativeShare: { type: 'number', nullIf: 'nan', doc: "the share of weights < 0 (only the differential's)" },
      outputNorm: { type: 'number', nullIf: 'nan', doc: '‖o_i‖₂, mean over rows' },
      weights: { type: 'f64', doc: 'the first row of head 0 (of pair 0) [keys]' },
    },
  },
}));

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  normalisers: {
    doc: 'does attention have to sum to one? softmax, off-by-one softmax, a sink logit, sigmoid attention (bias −ln n), gated and differential attention on the same draws: row sum, mass on the first key, entropy of the renormalised row, output norm',
    cpp: 'normalisers', call: 'params', part: 'full', costed: false, plan: 'single',
    params: {
      heads: { type: 'int', default: 4, range: [1, 16], doc: '1..16 (default 4); the differential pairs heads (2h, 2h + 1): ⌊heads / 2⌋ pairs, none with 1 head' },
      seqLen: { type: 'int', default: 128, range: [1, 512], doc: 'L, queries and keys per head' },
      dk: { type: 'int', default: 64, range: [1, 256], doc: 'd_k' },
      scale,
      seed: { ...seed, doc: 'q, k, v drawn as attentionStats draws them (streams 1, 2, 3), the gate g from stream 5' },
      kernel, causal,
      sink: { type: 'number', default: 1, range: [-100, 100], doc: 'the sink logit S of the sink normaliser (off-by-one is S = 0)' },
      sigmoidBias: { type: 'number', default: null, range: [-100, 100], doc: "sigmoid attention's bias b, or null: −ln n, n the keys a row sees" },
      gateMean: { type: 'number', default: 0, range: [-20, 20], doc: 'the mean of the output gate g ~ N(gateMean, 1) (gated: σ(g) per head and channel)' },
      lambda: { type: 'number', default: 0.8, range: [0, 2], doc: 'λ, in [0, 2] (default 0.8, the Differential Transformer\'s λ_init of deep layers)' },
      logits: { type: 'numberList', default: null, range: [1, 4096], doc: 'one explicit row (1..4096 logits, −∞ a masked key) for every normaliser instead of the drawn q, k; not with seqLen, causal' },
    },
    result: {
      scale: { type: 'number', doc: 'c' },
      keys: { type: 'number', doc: 'n of the first row' },
      sigmoidBias: { type: 'number', doc: 'b of the first row' },
      rows: { type: 'NormaliserRow[]', doc: 'one per NormaliserName, in its order' },
    },
    example: [{ heads: 2, seqLen: 8, dk: 4 }],
  },
}));
