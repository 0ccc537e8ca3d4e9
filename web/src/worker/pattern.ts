// The fixed inputs of the worker's identity checks (split-KV merge, d_v ≠ d_k): a uniform integer pattern of unit variance, exact in every engine, not random draws.
const SQRT3 = Math.sqrt(3);

/**
 * The inputs: a fixed integer pattern, not random draws — uniform on (−√3, √3) (unit variance) from a murmur3 finaliser
 * of (seed, stream, index) in 32-bit integer arithmetic, exact in every engine. For the sections that check an identity
 * (the LSE merge, d_v ≠ d_k), which holds for any inputs; the statistics views use the core's own draws.
 */
export function fixedPattern(n: number, seed: number, stream: number): Float32Array {
  const out = new Float32Array(n);
  const base = Math.imul((seed >>> 0) + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35);
  for (let i = 0; i < n; i++) {
    let z = (base ^ Math.imul(i + 1, 0x27d4eb2f)) >>> 0;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    out[i] = (((z >>> 8) + 0.5) / 8388608 - 1) * SQRT3;  // (−1, 1) on a grid of 2^−23, times √3
  }
  return out;
}

