// The kernels of the wasm build under Node, through the public API: SIMD128 and scalar against a
// double-precision reference within 1e-5 relative, at sizes around the SIMD tile (4 rows × 8 columns).
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

test('simd and scalar give identical products and readouts beyond rounding', () => {
  const [heads, L, dk] = [4, 65, 33];
  const q = randn(heads * L * dk, 7), k = randn(heads * L * dk, 8), v = randn(heads * L * dk, 9);
  const a = core.attention({ q, k, v, heads, seqLen: L, dk, kernel: 'simd', scale: 'none' });
  const b = core.attention({ q, k, v, heads, seqLen: L, dk, kernel: 'scalar', scale: 'none' });
  for (let i = 0; i < a.weights.length; ++i) {
    assert.ok(Math.abs(a.weights[i] - b.weights[i]) <= 1e-6 * b.weights[i] + 1e-37);
  }
  const sa = core.attentionStats({ heads: 2, seqLen: 128, dk: 64, scale: 'none', kernel: 'simd' });
  const sb = core.attentionStats({ heads: 2, seqLen: 128, dk: 64, scale: 'none', kernel: 'scalar' });
  assert.ok(Math.abs(sa.summary.entropy.mean - sb.summary.entropy.mean) < 1e-6);
  assert.ok(Math.abs(sa.summary.maxWeight.mean - sb.summary.maxWeight.mean) < 1e-6);
});
