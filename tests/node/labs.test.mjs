// The precision, long-context, grouped-query and own-tensor experiments through the JS API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore, LONG_CONTEXT_METHODS } from '../../wasm/js/core.js';
import { randn } from './helpers.mjs';

const core = await loadCore();
const cell = (r, format, algorithm) => r.cells.find((c) => c.format === format && c.algorithm === algorithm);

test('precisionLab: the presets overflow where each format ends', () => {
  const big = core.precisionLab({ logits: [100, 90, 80] });
  for (const f of ['float32', 'bfloat16', 'float16']) {
    assert.equal(cell(big, f, 'naive').shareNan, 1, `${f} naive`);
    assert.equal(cell(big, f, 'safe').shareNonfinite, 0, `${f} safe`);
    assert.equal(cell(big, f, 'online').shareNonfinite, 0, `${f} online`);
  }
  assert.equal(cell(big, 'float64', 'naive').shareNonfinite, 0);
  const eleven = core.precisionLab({ logits: [11, 11] });
  assert.deepEqual(Array.from(cell(eleven, 'float16', 'naive').probs), [0, 0]);  // sum overflows: 0, not NaN
  assert.equal(cell(eleven, 'float16', 'naive').causes.sumOverflow, 1);  // named right: not an underflow
  assert.equal(cell(eleven, 'float16', 'naive').causes.underflow, 0);
  assert.deepEqual(Array.from(cell(eleven, 'float16', 'safe').probs), [0.5, 0.5]);
  const ten = core.precisionLab({ logits: [10, 0] });
  assert.ok(ten.cells.every((c) => c.shareNonfinite === 0));
  assert.equal(ten.cells.length, 12);
  assert.equal(ten.onlineVsSafe.length, 4);
});

test('precisionLab: without the scale the float64 Jacobian is as small as float32 (C11)', () => {
  const r = core.precisionLab({ rows: 32, seqLen: 128, dk: 512, scale: 'none' });
  const f32 = cell(r, 'float32', 'safe').jacFroMedian;
  assert.ok(Math.abs(f32 - r.jacFroMedianF64) <= 1e-3 * r.jacFroMedianF64 + 1e-9);
  assert.ok(r.jacFroMedianF64 < 0.05);
  assert.ok(r.maxAbsLogit > 50);
});

test('longContext: the fixed scale keeps H ≈ ln L − 1/2; multipliers follow their formulas', () => {
  const r = core.longContext({ dk: 64, seqLens: [64, 512, 8192], trainLen: 512, queries: 16 });
  assert.equal(r.points.length, LONG_CONTEXT_METHODS.length);
  const [fixed, logn, yarn, article] = r.points;
  fixed.forEach((p) => assert.ok(Math.abs(p.entropy - (Math.log(p.seqLen) - 0.5)) < 0.15, `fixed L=${p.seqLen}`));
  assert.ok(Math.abs(logn[2].multiplier - 13 / 9) < 1e-12);
  assert.ok(Math.abs(yarn[2].multiplier - (1 + 0.1 * Math.log(16)) ** 2) < 1e-12);
  assert.equal(article[2].multiplier, 4);
  assert.ok(article[2].entropy < logn[2].entropy && logn[2].entropy < fixed[2].entropy);
  assert.ok(Math.abs(fixed[2].entropyRatio - fixed[2].entropy / Math.log(8192)) < 1e-12);
});

test('grouped-query attention equals multi-head attention with repeated K/V', () => {
  const [heads, L, dk] = [4, 9, 8];
  const hs = L * dk;
  const q = randn(heads * hs, 1), k = randn(hs, 2), v = randn(hs, 3);  // MQA: one K/V head
  const krep = new Float32Array(heads * hs), vrep = new Float32Array(heads * hs);
  for (let h = 0; h < heads; ++h) { krep.set(k, h * hs); vrep.set(v, h * hs); }
  const mqa = core.attention({ q, k, v, heads, headsKv: 1, seqLen: L, dk });
  const mha = core.attention({ q, k: krep, v: vrep, heads, seqLen: L, dk });
  assert.deepEqual(mqa.output, mha.output);
  assert.deepEqual(mqa.weights, mha.weights);
});

test('tensorStats reads your own tensors and matches attentionStats on its draws', () => {
  const [heads, L, dk] = [2, 16, 8];
  const q = randn(heads * L * dk, 11), k = randn(heads * L * dk, 12);
  const r = core.tensorStats({ q, k, heads, seqLen: L, dk, scale: 'none' });
  assert.ok(Math.abs(r.qk.variance / dk - 1) < 0.3);
  assert.equal(r.rows.entropy.length, heads * L);
  // Scaling q by 1/√d_k and using scale 'none' is the same as scale 'inv_sqrt_dk'.
  const qs = q.map((x) => x / Math.sqrt(dk));
  const a = core.tensorStats({ q: qs, k, heads, seqLen: L, dk, scale: 'none', seed: 3 });
  const b = core.tensorStats({ q, k, heads, seqLen: L, dk, scale: 'inv_sqrt_dk', seed: 3 });
  assert.ok(Math.abs(a.summary.entropy.mean - b.summary.entropy.mean) < 1e-5);
});
