// The public JS API: shapes of results, errors (type and message), recovery after errors,
// results that survive heap growth, and the two artifacts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore, LIMITS, SCALE_NAMES, simdSupported, CORE_VERSION } from '../../wasm/js/core.js';
import { randn } from './helpers.mjs';

const core = await loadCore();

test('loadCore memoises the module and reports the build and kernel', async () => {
  assert.equal(await simdSupported(), true);  // Node 20's V8 validates SIMD128
  const { heapBytes, ...info } = core.info();
  assert.deepEqual(info, { version: '0.6.0', kernel: 'simd', simd: true, build: 'simd128', part: 'full' });
  assert.ok(heapBytes >= 16 * 1024 * 1024 && heapBytes <= 1024 ** 3);
  const scalar = await loadCore({ kernel: 'scalar' });
  const withoutHeap = ({ heapBytes, ...rest }) => (assert.equal(typeof heapBytes, 'number'), rest);
  assert.deepEqual(withoutHeap(scalar.info()), { version: '0.6.0', kernel: 'scalar', simd: true, build: 'simd128', part: 'full' });
  const base = await loadCore({ build: 'baseline' });
  assert.deepEqual(withoutHeap(base.info()), { version: '0.6.0', kernel: 'scalar', simd: false, build: 'baseline', part: 'full' });
  await assert.rejects(loadCore({ build: 'baseline', kernel: 'simd' }), RangeError);
  await assert.rejects(loadCore({ kernel: 'gpu' }), /kernel = 'gpu'/);
  assert.throws(() => base.attentionStats({ dk: 8, kernel: 'simd' }), /not in the baseline build/);
});

test('one core version: the JS constant (links), the C++ kVersion (info) and the npm package agree', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.match(CORE_VERSION, /^\d+\.\d+\.\d+$/);
  assert.equal(core.info().version, CORE_VERSION, 'wasm/src/experiments.hpp kVersion vs wasm/js/version.js');
  assert.equal(pkg.version, CORE_VERSION, 'package.json version vs wasm/js/version.js');
});

test('scoreVariance returns rows, theory and histograms of the stated shapes', () => {
  const r = core.scoreVariance({ dks: [1, 64, 512], samples: 4000, seed: 1, histDk: 512, bins: 50 });
  assert.deepEqual(r.rows.map((x) => x.dk), [1, 64, 512]);
  assert.equal(r.rows[2].theory.raw.variance, 512);
  assert.equal(r.rows[2].theory.invSqrtDk.variance, 1);
  assert.equal(r.rows[2].theory.invDk.variance, 1 / 512);
  assert.ok(Math.abs(r.rows[2].raw.variance / 512 - 1) < 0.12);  // 5σ at N = 4000
  assert.equal(r.histDk, 512);
  assert.ok(r.histRaw.edges instanceof Float64Array);
  assert.equal(r.histRaw.edges.length, 51);
  assert.equal(r.histRaw.counts.length, 50);
  const total = r.histRaw.counts.reduce((a, b) => a + b, 0) + r.histRaw.below + r.histRaw.above;
  assert.equal(total, 4000);
  assert.ok(Math.abs(r.histInvSqrtDk.edges[50] - 5) < 1e-12);
});

test("attentionStats reproduces the article's check (C4) and its shapes", () => {
  const lnL = Math.log(128);
  const none = core.attentionStats({ heads: 8, seqLen: 128, dk: 512, scale: 'none', seed: 0 });
  const sqrt = core.attentionStats({ heads: 8, seqLen: 128, dk: 512, scale: 'inv_sqrt_dk', seed: 0 });
  const invDk = core.attentionStats({ heads: 8, seqLen: 128, dk: 512, scale: 'inv_dk', seed: 0, perRow: false });
  assert.equal(none.logSeqLen, lnL);
  assert.ok(none.summary.entropy.median < 0.1);
  assert.ok(Math.abs(sqrt.summary.entropy.mean - (lnL - 0.5)) < 0.06);  // ≈ 4.35, not ln 128
  assert.ok(Math.abs(invDk.summary.entropy.mean - lnL) < 0.003);
  assert.equal(none.rows.entropy.length, 8 * 128);
  assert.equal(invDk.rows.entropy.length, 0);
  assert.equal(none.heatmapSize, 128);
  assert.ok(none.heatmap instanceof Float32Array);
  assert.equal(none.heatmap.length, 128 * 128);
  assert.equal(sqrt.summary.scale, 1 / Math.sqrt(512));
});

test('saturationSweep returns points[scale][dk] equal to attentionStats', () => {
  const s = core.saturationSweep({ dks: [8, 64], heads: 2, seqLen: 32, seed: 3, scales: ['none', 'inv_sqrt_d_model', 0.5] });
  assert.equal(s.points.length, 3);
  assert.equal(s.points[0].length, 2);
  const one = core.attentionStats({ heads: 2, seqLen: 32, dk: 64, seed: 3, scale: 'inv_sqrt_d_model' });
  assert.equal(s.points[1][1].entropy.mean, one.summary.entropy.mean);
  assert.equal(s.points[2][0].scale, 0.5);
  assert.equal(s.points[1][1].scale, 1 / Math.sqrt(128));
});

test('softmaxJacobian gives p, J and norms of [10, 0] (C5)', () => {
  const r = core.softmaxJacobian([10, 0]);
  const p1 = 1 / (1 + Math.exp(-10));
  assert.ok(Math.abs(r.probs[0] - p1) < 1e-15);
  assert.equal(r.jacobian.length, 4);
  const p2 = 1 / (1 + Math.exp(10));  // 1 − p1 without the cancellation
  assert.ok(Math.abs(r.spectral - 2 * p1 * p2) < 1e-17);
  assert.ok(Math.abs(r.frobenius - 9.0792e-5) < 1e-8);
  const masked = core.softmaxJacobian([-Infinity, -Infinity, -Infinity]);
  assert.deepEqual(Array.from(masked.probs), [0, 0, 0]);
  assert.equal(masked.spectral, 0);
});

test('bad input throws RangeError or TypeError naming the value, and the core keeps working', () => {
  const cases = [
    [() => core.attentionStats({ dk: 0 }), RangeError, /dk = 0 is outside 1\.\.16384/],
    [() => core.attentionStats({ dk: 64, seqLen: 9000 }), RangeError, /seqLen = 9000/],
    [() => core.attentionStats({ dk: 64, heads: 65 }), RangeError, /heads = 65/],
    [() => core.attentionStats({ dk: 2.5 }), RangeError, /dk = 2\.5 must be an integer/],
    [() => core.attentionStats({ dk: '64' }), TypeError, /dk must be a number, got string/],
    [() => core.attentionStats({ dk: 64, seqlen: 64 }), TypeError, /unknown parameter 'seqlen'/],
    [() => core.attentionStats({ dk: 64, scale: -1 }), RangeError, /scale = -1/],
    [() => core.attentionStats({ dk: 64, scale: Infinity }), RangeError, /scale = Infinity/],
    [() => core.attentionStats({ dk: 64, scale: 'sqrt' }), RangeError, /scale = 'sqrt'/],
    [() => core.attentionStats({ dk: 64, seed: -1 }), RangeError, /seed = -1/],
    [() => core.attentionStats({ dk: 64, threshold: 1 }), RangeError, /threshold = 1 must lie in \(0, 1\)/],
    [() => core.attentionStats({ dk: 64, seqLen: 8192, heads: 64 }), RangeError, /MiB of memory, more than the 512 MiB limit/],
    [() => core.attentionStats({ dk: 16384, seqLen: 1024, heads: 1 }), RangeError, /more than the 8 s budget; most of it is the products heads · seqLen² · dk \(heads = 1, seqLen = 1024, dk = 16384\)/],
    [() => core.attentionStats(null), TypeError, /params must be an object/],
    [() => core.scoreVariance({ dks: [64], samples: 1 }), RangeError, /samples = 1/],
    [() => core.scoreVariance({ dks: [] }), RangeError, /dks is empty/],
    [() => core.scoreVariance({ dks: [64, 20000] }), RangeError, /dks\[1\] = 20000 is outside 1\.\.16384/],
    [() => core.scoreVariance({ dks: 'all' }), TypeError, /dks must be an array/],
    [() => core.saturationSweep({ dks: [8], scales: [] }), RangeError, /scales is empty/],
    [() => core.softmaxJacobian([1, NaN]), RangeError, /logits\[1\] = NaN/],
    [() => core.softmaxJacobian([Infinity]), RangeError, /logits\[0\] = inf/],
    [() => core.softmaxJacobian([]), RangeError, /logits\.length = 0/],
    [() => core.softmaxJacobian(['1']), TypeError, /logits\[0\] must be a number/],
    [() => core.attention({ q: new Float32Array(6), k: new Float32Array(5), v: new Float32Array(6), heads: 1, seqLen: 3, dk: 2 }), RangeError, /k\.length = 5 does not match headsKv · seqLen · dk = 6/],
    [() => core.attention({ q: [1, 2], k: new Float32Array(2), v: new Float32Array(2), heads: 1, seqLen: 1, dk: 2 }), TypeError, /q must be a Float32Array/],
    [() => core.attention({ q: new Float32Array(6 * 4), k: new Float32Array(4 * 4), v: new Float32Array(4 * 4), heads: 6, headsKv: 4, seqLen: 2, dk: 2 }), RangeError, /headsKv = 4 does not divide heads = 6/],
    [() => core.attentionStats({ dk: 8, heads: 4, headsKv: 8 }), RangeError, /headsKv = 8 is outside 1\.\.4/],
    [() => core.precisionLab({ logits: [1, NaN] }), RangeError, /logits\[1\] = NaN/],
    [() => core.precisionLab({ logits: [] }), RangeError, /logits is empty/],
    [() => core.precisionLab({ rows: 0 }), RangeError, /rows = 0/],
    [() => core.precisionLab({ blockSize: 0 }), RangeError, /blockSize = 0/],
    [() => core.longContext({ seqLens: [64], methods: ['alibi'] }), RangeError, /methods\[0\] = 'alibi'/],
    [() => core.longContext({ seqLens: [20000] }), RangeError, /seqLens\[0\] = 20000 is outside 1\.\.16384/],
    [() => core.longContext({ seqLens: [64], trainLen: 1 }), RangeError, /trainLen = 1/],
    [() => core.tensorStats({ q: new Float32Array(4), k: new Float32Array(3), heads: 1, seqLen: 2, dk: 2 }), RangeError, /k\.length = 3/],
    [() => core.tensorStats({ q: Float32Array.of(1, 2, 3, Infinity), k: new Float32Array(4), heads: 1, seqLen: 2, dk: 2 }), RangeError, /q\[3\] = inf/],
    [() => core.attention({ q: Float32Array.of(1, NaN), k: new Float32Array(2), v: new Float32Array(2), heads: 1, seqLen: 1, dk: 2 }), RangeError, /q\[1\] = NaN is not a finite number/],
  ];
  for (const [fn, type, pattern] of cases) {
    assert.throws(fn, (e) => e instanceof type && pattern.test(e.message), `expected ${type.name} ${pattern}`);
    // After each refusal the module still answers correctly.
    assert.equal(core.softmaxJacobian([0, 0]).spectral, 0.5);
  }
});

test('results are JS-owned copies that survive wasm heap growth', () => {
  const small = core.attentionStats({ heads: 1, seqLen: 16, dk: 8, seed: 4 });
  const heatmap = Array.from(small.heatmap);
  const entropy = Array.from(small.rows.entropy);
  // A large call grows the heap (scores of L = 2048 alone need 16 MiB per matrix).
  const big = core.attentionStats({ heads: 2, seqLen: 2048, dk: 16, seed: 4, perRow: false, heatmapSize: 512 });
  assert.equal(big.heatmap.length, 512 * 512);
  assert.equal(small.heatmap.length, 16 * 16);
  assert.deepEqual(Array.from(small.heatmap), heatmap);
  assert.deepEqual(Array.from(small.rows.entropy), entropy);
  assert.notEqual(small.heatmap.buffer.byteLength, 0);
});

test('the baseline build gives the numbers of the scalar kernel of the SIMD128 build', async () => {
  const base = await loadCore({ build: 'baseline' });
  const scalar = await loadCore({ kernel: 'scalar' });
  const q = randn(2 * 20 * 12, 3), k = randn(2 * 20 * 12, 4), v = randn(2 * 20 * 12, 5);
  const a = base.attention({ q, k, v, heads: 2, seqLen: 20, dk: 12 });
  const b = scalar.attention({ q, k, v, heads: 2, seqLen: 20, dk: 12 });
  assert.deepEqual(a.output, b.output);
  assert.deepEqual(a.weights, b.weights);
});

test('LIMITS and SCALE_NAMES describe what the core enforces', () => {
  assert.deepEqual([...SCALE_NAMES], ['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model']);
  for (const [key, field] of [['dk', 'dk'], ['seqLen', 'seqLen'], ['heads', 'heads']]) {
    const [lo, hi] = LIMITS[key];
    assert.throws(() => core.attentionStats({ dk: 8, seqLen: 8, heads: 1, perRow: false, [field]: lo - 1 }), RangeError);
    assert.throws(() => core.attentionStats({ dk: 8, seqLen: 8, heads: 1, perRow: false, [field]: hi + 1 }), RangeError);
    assert.doesNotThrow(() => core.attentionStats({ dk: 8, seqLen: 8, heads: 1, perRow: false, [field]: lo }));
  }
  assert.throws(() => core.softmaxJacobian(new Float64Array(LIMITS.logits[1] + 1)), RangeError);
  assert.doesNotThrow(() => core.scoreVariance({ dks: [8], samples: LIMITS.samples[0] }));
});
