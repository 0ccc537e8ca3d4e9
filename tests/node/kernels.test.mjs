// The kernels of the wasm build under Node, through the public API: SIMD128 and scalar against a
// double-precision reference within 1e-5 relative, at sizes around the SIMD tile (4 rows × 8 columns);
// and the two families against each other: the same products, the softmax each within the SIMD128
// family's stated bound (kernels_wasmsimd.cpp; since core 0.6.0 it has its own exponential).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore } from '../../wasm/js/core.js';
import { attentionReference, randn } from './helpers.mjs';

const core = await loadCore({ kernel: 'simd' });
const SHAPES = [[1, 1, 1], [1, 3, 5], [2, 4, 8], [1, 5, 9], [2, 8, 7], [1, 9, 16], [2, 17, 33], [1, 64, 64], [1, 65, 65]];

for (const kernel of ['simd', 'scalar']) {
  test(`${kernel} attention matches the double reference within 1e-5 relative`, () => {
    for (const [heads, L, dk] of SHAPES) {
      const n = heads * L * dk;
      const q = randn(n, 1 + L), k = randn(n, 2 + L), v = randn(n, 3 + L);
      const r = core.attention({ q, k, v, heads, seqLen: L, dk, kernel });
      const ref = attentionReference(q, k, v, heads, L, dk, 1 / Math.sqrt(dk));
      assert.equal(r.output.length, n);
      assert.equal(r.weights.length, heads * L * L);
      for (let i = 0; i < ref.weights.length; ++i) {
        const err = Math.abs(r.weights[i] - ref.weights[i]);
        assert.ok(err <= 1e-5 * ref.weights[i] + 1e-37, `${kernel} weights [${heads},${L},${dk}] #${i}: ${r.weights[i]} vs ${ref.weights[i]}`);
      }
      // Outputs are signed sums: relative 1e-5 of the largest |output| (at least 1).
      let maxErr = 0, maxRef = 1;
      for (let i = 0; i < n; ++i) {
        maxErr = Math.max(maxErr, Math.abs(r.output[i] - ref.out[i]));
        maxRef = Math.max(maxRef, Math.abs(ref.out[i]));
      }
      assert.ok(maxErr <= 1e-5 * maxRef, `${kernel} output [${heads},${L},${dk}]: max error ${maxErr}`);
    }
  });
}

// The SIMD128 exponential's documented relative error, read where it is declared (one number).
const EXP_ERR = Number(/kSimdExpRelError = ([0-9.e-]+);/.exec(readFileSync(new URL('../../wasm/src/kernels.hpp', import.meta.url), 'utf8'))[1]);
const U = 2 ** -24;
// The stated bound of a weight against the double softmax p of the float32 row x (kernels_wasmsimd.cpp,
// beside softmax_row_simd): (2E + 18u + d_j·u + Σ_i p_i·d_i·u)·p_j + 1e-37, d_i = |x_i − max|.
function softmaxBound(x, p, j) {
  let mx = -Infinity;
  for (const v of x) mx = Math.max(mx, v);
  let spread = 0;
  for (let i = 0; i < x.length; ++i) spread += p[i] * Math.abs(x[i] - mx) * U;
  return (2 * EXP_ERR + 18 * U + Math.abs(x[j] - mx) * U + spread) * p[j] + 1e-37;
}

test('simd and scalar: the same products, and each softmax within the stated bound of the double softmax of those logits', () => {
  assert.ok(EXP_ERR > 0 && EXP_ERR < 1e-6, `kSimdExpRelError = ${EXP_ERR}`);
  const [heads, L, dk] = [4, 65, 33];
  const q = randn(heads * L * dk, 7), k = randn(heads * L * dk, 8), v = randn(heads * L * dk, 9);
  const a = core.attention({ q, k, v, heads, seqLen: L, dk, kernel: 'simd', scale: 'none' });
  const b = core.attention({ q, k, v, heads, seqLen: L, dk, kernel: 'scalar', scale: 'none' });
  // Both families' logits are these bits (float32 products summed in p order, no FMA: reproduced
  // here with Math.fround), so the double softmax of them is the reference for both.
  const x = new Float64Array(L), p = new Float64Array(L);
  let worst = 0;
  for (let h = 0; h < heads; ++h)
    for (let i = 0; i < L; ++i) {
      let mx = -Infinity;
      for (let j = 0; j < L; ++j) {
        let acc = 0;
        for (let d = 0; d < dk; ++d) acc = Math.fround(acc + Math.fround(q[(h * L + i) * dk + d] * k[(h * L + j) * dk + d]));
        x[j] = acc;
        mx = Math.max(mx, acc);
      }
      let sum = 0;
      for (let j = 0; j < L; ++j) sum += (p[j] = Math.exp(x[j] - mx));
      for (let j = 0; j < L; ++j) {
        p[j] /= sum;
        const at = (h * L + i) * L + j, bound = softmaxBound(x, p, j);
        assert.ok(Math.abs(a.weights[at] - p[j]) <= bound, `simd [${h},${i},${j}]: ${a.weights[at]} vs ${p[j]} (bound ${bound})`);
        assert.ok(Math.abs(b.weights[at] - p[j]) <= bound, `scalar [${h},${i},${j}]: ${b.weights[at]} vs ${p[j]} (bound ${bound})`);
        worst = Math.max(worst, Math.abs(a.weights[at] - b.weights[at]) / p[j]);
      }
    }
  assert.ok(worst > 0, 'the families differ (the SIMD128 softmax has its own exponential)');
  // Readouts: a relative change r of every weight moves the max weight by at most r·max and the
  // entropy −Σ p ln p by at most r·(H + 1); r = twice the bound with d ≤ the logits' spread.
  const sa = core.attentionStats({ heads: 2, seqLen: 128, dk: 64, scale: 'none', kernel: 'simd' });
  const sb = core.attentionStats({ heads: 2, seqLen: 128, dk: 64, scale: 'none', kernel: 'scalar' });
  const spread = 12 * Math.sqrt(64);  // q·k of N(0, 1) entries at d_k 64: σ = 8, every |x − max| < 12σ here
  const r = 2 * (2 * EXP_ERR + 18 * U + 2 * spread * U);
  assert.ok(Math.abs(sa.summary.entropy.mean - sb.summary.entropy.mean) <= r * (sb.summary.entropy.mean + 1));
  assert.ok(Math.abs(sa.summary.maxWeight.mean - sb.summary.maxWeight.mean) <= r * sb.summary.maxWeight.mean);
});
