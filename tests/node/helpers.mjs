// Shared by the Node tests of the built wasm module.
import { Rng } from './rng.mjs';

/** Relative difference |a − b| / max(|b|, floor). */
export function relDiff(a, b, floor = 1e-300) {
  return Math.abs(a - b) / Math.max(Math.abs(b), floor);
}

/** iid N(0, 1) float32 values from the test's own seeded generator. */
export function randn(n, seed) {
  const r = new Rng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; ++i) out[i] = r.normal();
  return out;
}

/** Double-precision attention of float32 q, k, v [heads, L, dk]: { out, weights } as Float64Array. */
export function attentionReference(q, k, v, heads, L, dk, scale) {
  const out = new Float64Array(heads * L * dk);
  const weights = new Float64Array(heads * L * L);
  const s = new Float64Array(L);
  for (let h = 0; h < heads; ++h) {
    const base = h * L * dk;
    for (let i = 0; i < L; ++i) {
      let mx = -Infinity;
      for (let j = 0; j < L; ++j) {
        let dot = 0;
        for (let d = 0; d < dk; ++d) dot += q[base + i * dk + d] * k[base + j * dk + d];
        s[j] = scale * dot;
        mx = Math.max(mx, s[j]);
      }
      let sum = 0;
      for (let j = 0; j < L; ++j) { s[j] = Math.exp(s[j] - mx); sum += s[j]; }
      for (let j = 0; j < L; ++j) {
        const p = s[j] / sum;
        weights[h * L * L + i * L + j] = p;
        for (let d = 0; d < dk; ++d) out[base + i * dk + d] += p * v[base + j * dk + d];
      }
    }
  }
  return { out, weights };
}
