// longContext: entropy against length beyond the training length, for each temperature scheme (C++: wasm/src/long_context.*).
import { dk, seed, kernel } from './common.js';
import { LONG_CONTEXT_METHODS } from './choices.js';

/** The records of its results, by the name of their C++ struct and TypeScript interface. */
export const RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  LongContextPoint: {
    doc: 'One temperature scheme at one length L.',
    fields: {
      seqLen: { type: 'number', doc: 'L' },
      multiplier: { type: 'number', doc: 'on q·k/√d_k' },
      entropy: { type: 'number', doc: 'mean over queries, nats' },
      entropyRatio: { type: 'number', doc: 'entropy / ln L (ln(L + 1) with a finite sink)' },
      maxWeight: { type: 'number', doc: 'mean over queries' },
      sinkMass: { type: 'number', when: 'sink', doc: 'only with a sink: the mean sink weight p_sink over the queries' },
    },
  },
}));

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  longContext: {
    doc: 'entropy against sequence length beyond the training length, for each temperature scheme',
    cpp: 'long_context', call: 'params', part: 'full', costed: true, plan: 'pointsByLengths',
    params: {
      dk: { type: 'int', default: 64, range: dk, doc: 'd_k' },
      seqLens: { type: 'intList', range: [1, 16384], count: [1, 16], doc: 'each 1..16384, at most 16, each at most once (a repeat is refused, naming it)' },
      trainLen: { type: 'int', default: 512, range: [2, 16384], doc: 'L_train, the training length' },
      queries: { type: 'int', default: 64, range: [1, 1024], doc: 'queries per length (each the newest token)' },
      methods: { type: 'choiceList', default: LONG_CONTEXT_METHODS, values: LONG_CONTEXT_METHODS, count: [1, 16], ts: 'LongContextScheme[]', doc: 'default all six (LONG_CONTEXT_METHODS); each at most once (a repeat is refused, naming it)' },
      seed, kernel,
      floorScale: { type: 'number', field: 'options.floor_scale', default: 8192, range: [1, 1e9], doc: "Llama 4's temperature: floor_scale" },
      attnScale: { type: 'number', field: 'options.attn_scale', default: 0.1, range: [0, 10], doc: "Llama 4's temperature: attn_scale" },
      s: { type: 'number', field: 'options.ssmax_s', default: 0.43, range: [0, 10], doc: '\'ssmax\': the scaling parameter s, in (0, 10] (default 0.43, the paper\'s check)' },
      mscale: { type: 'number', field: 'options.mscale', default: 1, range: [0, 100], doc: "YaRN's m-scale (positive)" },
      mscaleAllDim: { type: 'number', field: 'options.mscale_all_dim', default: 0, range: [0, 100], doc: '\'yarn\': mscale_all_dim, 0 = absent (the default) or in (0, 100]' },
      sink: { type: 'sink', default: null, doc: 'one sink logit appended to every row (gpt-oss semantics, see Sinks; default: none; −Infinity = none, bit for bit): the entropy is then that of the L + 1 outcomes and entropyRatio divides by ln(L + 1); maxWeight is over the keys; every point carries sinkMass' },
    },
    flags: { sink: '!std::isnan(p.sink)' },  // null (none) is NaN; −∞ is a sink of weight 0
    result: {
      points: { type: 'LongContextPoint[][]', doc: 'points[m][i]: methods[m] at seqLens[i]' },
    },
    example: [{ dk: 8, seqLens: [16, 32], trainLen: 16, queries: 2 }],
  },
}));
