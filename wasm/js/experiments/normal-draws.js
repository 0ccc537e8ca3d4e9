// normalDraws: the core's own N(0, σ²) draws, the same bits in every engine (C++: wasm/src/normal_draws.*).
import { seed } from './common.js';

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  normalDraws: {
    doc: 'normalDraws: n draws N(0, σ²) from the core\'s own generator and normal sampler — xoshiro256** seeded by SplitMix64 at seed + stream · 0x9E3779B97F4A7C15 (Rng::stream), Marsaglia\'s polar method — in double. The sampler runs inside the wasm core with its own logarithm, so the draws are the same bits in every engine (a JavaScript Box–Muller on Math.log/cos is not: Firefox\'s are not correctly rounded). Converted to float32, stream 1 of a seed is attentionStats\' Q of that seed and stream 2 its K ([heads, seqLen, dk] row-major, K of headsKv heads); web/public/python/sqrtdk_rng.py draws the same numbers (Stream(seed, stream).normals(n) · σ). n outside 1..2^24, stream outside 0..2^31−1, σ not in (0, 1000] or 8·n bytes over the call\'s workBytes: RangeError.',
    cpp: 'normal_draws', call: 'params', part: 'full', costed: false, plan: 'single',
    params: {
      n: { type: 'int', range: [1, 16777216], doc: 'how many draws (required), 1..2^24' },
      seed,
      stream: { type: 'int', default: 0, range: [0, 2147483647], doc: 'which stream of the seed (Rng::stream): attentionStats draws Q from stream 1, K from 2, V from 3' },
      sigma: { type: 'number', default: 1, range: [0, 1000], doc: 'σ, the standard deviation of every draw (positive, ≤ 1000)' },
    },
    result: {
      values: { type: 'f64', doc: '[n] σ · z_i, z_i the stream\'s successive N(0, 1) draws, in order (dimensionless, units of σ)' },
    },
    example: [{ n: 5, seed: 1 }],
  },
}));
