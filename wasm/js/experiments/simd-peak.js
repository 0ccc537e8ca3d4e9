// simdPeak: the single-core WebAssembly SIMD128 multiply+add peak (C++: wasm/src/peak.hpp, bound in wasm/bindings/bindings.cpp).

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  simdPeak: {
    doc: 'The single-core WebAssembly SIMD128 multiply+add peak kernel (8 f32x4 chains fed from L1, as a GEMM micro-kernel is): runs `iters` steps (1..1e6, default 10000) and returns the FLOPs done (16 384 per step) and the accumulators\' sum. Time the call to get GFLOP/s. SIMD128 build only (RangeError in the baseline build).',
    cpp: 'simd_peak', call: 'params', part: 'full', costed: false, plan: 'single', struct: null,
    params: {
      iters: { type: 'int', default: 10000, range: [1, 1000000], doc: 'steps of 4 × 8 × 256 mul+add' },
    },
    convert: 'own',
    result: {
      flop: { type: 'number', doc: 'floating-point operations done (16 384 per step)' },
      sum: { type: 'number', doc: "the accumulators' sum (keeps the work from being optimised away)" },
    },
    example: [{ iters: 1 }],
  },
}));
