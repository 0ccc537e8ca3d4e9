// scoreVariance: Var(q·k) against d_k by Monte Carlo, with its theory rows and histograms (C++: wasm/src/score_variance.*).
import { dk, seed, variance, correlation } from './common.js';

/** The records of its results, by the name of their C++ struct and TypeScript interface. */
export const RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  ScoreVarianceRow: {
    doc: 'The moments of the scores at one d_k, measured and in theory.',
    fields: {
      dk: { type: 'number', doc: 'd_k' },
      raw: { type: 'Moments', doc: 'of q·k' },
      invSqrtDk: { type: 'Moments', doc: 'of q·k/√d_k' },
      invDk: { type: 'Moments', doc: 'of q·k/d_k' },
      theory: {
        type: 'object', doc: 'N(0, d_k σ⁴), N(0, σ⁴), N(0, σ⁴/d_k) (with a correlation ρ: N(ρ d_k σ², d_k σ⁴ (1 + ρ²)) and its rescalings)',
        fields: { raw: { type: 'Moments', cpp: 'theory_raw' }, invSqrtDk: { type: 'Moments', cpp: 'theory_inv_sqrt_dk' }, invDk: { type: 'Moments', cpp: 'theory_inv_dk' } },
      },
    },
  },
}));

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  scoreVariance: {
    doc: 'Var(q·k) = d_k σ⁴ by Monte Carlo, with the theory rows and histograms of the raw and 1/√d_k scores (C1, C3)',
    cpp: 'score_variance', call: 'params', part: 'first', costed: true, plan: 'rowsByDks',
    params: {
      dks: { type: 'intList', range: dk, count: [1, 64], doc: 'the head dimensions d_k, 1..64 of them' },
      samples: { type: 'int', default: 20000, range: [2, 1000000], doc: 'pairs (q, k) per d_k, 2..1000000 (default 20000)' },
      seed,
      variance,
      histDk: { type: 'int', range: dk, optional: true, doc: 'the d_k whose scores are histogrammed (default: dks[0])' },
      bins: { type: 'int', default: 60, range: [4, 400], doc: 'histogram bins' },
      correlation: { ...correlation, doc: 'correlation of each drawn pair (default 0); the theory rows become N(ρ d_k σ², d_k σ⁴ (1 + ρ²)) and its rescalings, and the histograms are centred on the theoretical mean' },
    },
    result: {
      rows: { type: 'ScoreVarianceRow[]', doc: 'one per entry of dks, in its order' },
      histDk: { type: 'number', doc: 'the d_k of the histograms' },
      histRaw: { type: 'Histogram', doc: 'q·k at histDk, edges ±5 theoretical std' },
      histInvSqrtDk: { type: 'Histogram', doc: 'q·k/√d_k at histDk' },
    },
    example: [{ dks: [16, 64], samples: 200 }],
  },
}));
