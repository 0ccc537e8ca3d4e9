// What several families of experiments share: the ranges and specs of their common parameters, and the records of moments, summaries and histograms.
/** @typedef {import('./spec.js').ParamSpec} ParamSpec */

/** Records several results are made of, by the name of their C++ struct and TypeScript interface. */
export const COMMON_RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  Moments: {
    doc: 'The moments of a sample.',
    fields: { mean: { type: 'number' }, variance: { type: 'number' }, std: { type: 'number', doc: 'the standard deviation' } },
  },
  Summary: {
    doc: 'The distribution of a per-row quantity: mean, median, 10 % and 90 % quantiles (type 7).',
    fields: { mean: { type: 'number' }, median: { type: 'number' }, p10: { type: 'number' }, p90: { type: 'number' } },
  },
  Histogram: {
    doc: 'A histogram: counts between ascending edges, and what fell outside them.',
    fields: {
      edges: { type: 'f64', doc: '[bins + 1] ascending bin edges' },
      counts: { type: 'f64', doc: '[bins] counts' },
      below: { type: 'number', doc: 'the count below the first edge' },
      above: { type: 'number', doc: 'the count above the last edge' },
    },
  },
}));

// The ranges and specs of the parameters several experiments take (each may refine its doc).
export const dk = /** @type {const} */ ([1, 16384]);
export const seqLen = /** @type {const} */ ([1, 8192]);
export const heads = /** @type {const} */ ([1, 64]);
export const seed = /** @type {ParamSpec} */ ({ type: 'seed', default: 0, range: [0, 4294967295], doc: 'the seed of every draw' });
export const kernel = /** @type {ParamSpec} */ ({ type: 'kernel', doc: "the float32 kernel family, 'scalar' or 'simd' (default: the build's)" });
export const scale = /** @type {ParamSpec} */ ({ type: 'scale', default: 'inv_sqrt_dk', doc: 'the scale c of q·k: a name of SCALE_NAMES, a number in (0, 1e4] or { power: p }, c = d_k^−p' });
export const variance = /** @type {ParamSpec} */ ({ type: 'number', default: 1, range: [0, 1e6], doc: 'σ², the variance of every drawn component (positive)' });
export const threshold = /** @type {ParamSpec} */ ({ type: 'number', default: 0.99, range: [0, 1], doc: 'shareAbove counts the rows whose max weight exceeds it (in (0, 1))' });
export const softcap = /** @type {ParamSpec} */ ({ type: 'softcap', default: 0, range: [0, 1e6], doc: 'logit soft-capping s ↦ cap · tanh(s / cap), cap in (0, 1e6]; left out: off (0, the core\'s off)' });
export const correlation = /** @type {ParamSpec} */ ({ type: 'correlation', default: 0, range: [-1, 1], doc: 'ρ, the correlation of each key with its matching query' });
export const sinks = /** @type {ParamSpec} */ ({ type: 'sinks', default: null, doc: 'attention sinks: one logit per head (−∞: none for that head), or null: none' });
export const causal = /** @type {ParamSpec} */ ({ type: 'bool', default: false, doc: 'row i sees keys 0..i' });
export const gradients = /** @type {ParamSpec} */ ({ type: 'bool', default: true, doc: 'run the backward pass (the gradient summaries; NaN without it)' });
export const spectral = /** @type {ParamSpec} */ ({ type: 'bool', default: true, doc: 'compute ‖J‖₂ (NaN without it; every other number unchanged)' });
