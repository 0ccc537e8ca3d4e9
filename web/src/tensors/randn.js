// A small seeded normal generator for the page and its scripts (plain JS, so that
// scripts/make-examples.mjs runs it without a build): SplitMix32-seeded xorshift128 uniforms and
// Box–Muller normals. It draws the example tensors and the random q, k of the GQA logit check;
// the core keeps its own generator (xoshiro256**), so these draws differ from the core's.

/** @param {number} seed integer 0..2^32−1 @returns {() => number} uniforms in (0, 1) */
export function uniforms(seed) {
  let s = seed >>> 0;
  const next32 = () => {  // SplitMix32: fills the xorshift state from one seed
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = next32(), b = next32(), c = next32(), d = next32();
  if ((a | b | c | d) === 0) a = 1;
  return () => {
    const t = (a ^ (a << 11)) >>> 0;
    a = b; b = c; c = d;
    d = (d ^ (d >>> 19) ^ t ^ (t >>> 8)) >>> 0;
    return (d + 0.5) / 4294967296;  // never 0 or 1, so log(u) is finite
  };
}

/**
 * n iid N(0, σ²) draws (Box–Muller: each pair of uniforms gives two normals).
 * @param {number} n @param {number} seed @param {number} [sigma] @returns {Float64Array}
 */
export function randn(n, seed, sigma = 1) {
  const u = uniforms(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(u())) * sigma;
    const th = 2 * Math.PI * u();
    out[i] = r * Math.cos(th);
    if (i + 1 < n) out[i + 1] = r * Math.sin(th);
  }
  return out;
}
