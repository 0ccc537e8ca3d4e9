// The inputs of the worker's own checks (the split-KV merge, d_v ≠ d_k): the core's normal draws as float32, the same bits in every engine.
import type { Core } from '../../../wasm/js/core.js';

/**
 * n draws N(0, 1) of stream `stream` of `seed` from the core's generator and sampler (normalDraws), as float32 — the
 * conversion the core's own experiments make (stream 1 is attentionStats' Q, 2 its K, 3 its V of that shape).
 * @throws RangeError from normalDraws (n over its limit, a bad seed or stream), naming the value
 */
export function coreNormals(core: Core, n: number, seed: number, stream: number): Float32Array {
  return Float32Array.from(core.normalDraws({ n, seed, stream }).values);
}
