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

/**
 * Double-precision attention of float32 q, k [heads, L, dk] and v [heads, L, dv] on the full score matrix:
 * { out [heads, L, dv], weights [heads, L, L], lse [heads, L] } as Float64Array. Options: softcap (cap·tanh(s/cap)
 * of the scaled logits), an additive mask [L, L] or [heads, L, L], ALiBi slopes [heads] (−m_h·(i − j), Press et al.
 * 2022), causal (row i sees keys 0..i), dv (default dk); a row with every logit −∞ gives zeros (lse −∞), or NaN with
 * nanRows (PyTorch SDPA semantics). lse is ln Σ_j e^{s_j} in nats.
 */
export function attentionReference(q, k, v, heads, L, dk, scale, { mask = null, causal = false, softcap = 0, nanRows = false, alibi = null, dv = dk, queryScale = null } = {}) {
  const out = new Float64Array(heads * L * dv);
  const weights = new Float64Array(heads * L * L);
  const lse = new Float64Array(heads * L);
  const s = new Float64Array(L);
  for (let h = 0; h < heads; ++h) {
    const base = h * L * dk, baseV = h * L * dv;
    for (let i = 0; i < L; ++i) {
      let mx = -Infinity;
      for (let j = 0; j < L; ++j) {
        let dot = 0;
        for (let d = 0; d < dk; ++d) dot += q[base + i * dk + d] * k[base + j * dk + d];
        let x = scale * dot;
        if (queryScale) x *= queryScale[i];  // a multiplier per query row, before the soft-cap
        if (softcap > 0) x = softcap * Math.tanh(x / softcap);
        if (mask) x += mask[(mask.length > L * L ? h * L * L : 0) + i * L + j];  // one mask for all heads, or one per head
        if (alibi) x += -alibi[h] * (i - j);  // ALiBi (Press et al. 2022), in double
        if (causal && j > i) x = -Infinity;
        s[j] = x;
        mx = Math.max(mx, x);
      }
      if (mx === -Infinity) {
        for (let j = 0; j < L; ++j) weights[h * L * L + i * L + j] = nanRows ? NaN : 0;
        for (let d = 0; d < dv; ++d) out[baseV + i * dv + d] = nanRows ? NaN : 0;
        lse[h * L + i] = -Infinity;
        continue;
      }
      let sum = 0;
      for (let j = 0; j < L; ++j) { s[j] = Math.exp(s[j] - mx); sum += s[j]; }
      lse[h * L + i] = mx + Math.log(sum);
      for (let j = 0; j < L; ++j) {
        const p = s[j] / sum;
        weights[h * L * L + i * L + j] = p;
        for (let d = 0; d < dv; ++d) out[baseV + i * dv + d] += p * v[baseV + j * dv + d];
      }
    }
  }
  return { out, weights, lse };
}
