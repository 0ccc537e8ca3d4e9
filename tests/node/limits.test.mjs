// Issue 20: a budget a library user can set, and the core's own estimate. loadCore({ limits })
// takes workSeconds and workBytes within WORK_LIMIT_BOUNDS (a RangeError outside them, a TypeError
// for another key), an unknown option to loadCore is refused like an unknown parameter, a large
// call is accepted under a raised budget and refused under the default, and core.cost gives the
// estimate the call is checked against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore, LIMITS, WORK_LIMIT_BOUNDS, COSTED_CALLS } from '../../wasm/js/core.js';

const core = await loadCore();
const LARGE = { dks: [1024], samples: 200000 };  // 2 · 200000 · 1024 normal draws ≈ 9.8 s by the cost model

test('the default limits are LIMITS\' and the bounds are documented', () => {
  assert.deepEqual({ ...core.limits }, { workSeconds: LIMITS.workSeconds, workBytes: LIMITS.workBytes });
  assert.deepEqual(WORK_LIMIT_BOUNDS.workSeconds, [0.01, 3600]);
  assert.deepEqual(WORK_LIMIT_BOUNDS.workBytes, [1024 * 1024, 768 * 1024 * 1024]);
  assert.ok(Object.isFrozen(core.limits));
});

test('loadCore refuses an unknown option, naming it, like an unknown parameter', async () => {
  await assert.rejects(loadCore({ kernal: 'simd' }), (e) => e instanceof TypeError && /unknown option 'kernal'/.test(e.message) && /kernel, build/.test(e.message));
  await assert.rejects(loadCore({ limits: { workSecond: 10 } }), (e) => e instanceof TypeError && /unknown option 'limits.workSecond'/.test(e.message));
  await assert.rejects(loadCore({ limits: 10 }), (e) => e instanceof TypeError && /limits must be an object, got number/.test(e.message));
  await assert.rejects(loadCore({ limits: { workSeconds: '10' } }), (e) => e instanceof TypeError && /limits.workSeconds must be a number, got string/.test(e.message));
  await assert.rejects(loadCore([]), TypeError);
});

test('limits outside their bounds are refused with a RangeError naming the bound', async () => {
  for (const [limits, re] of [
    [{ workSeconds: 0.001 }, /limits.workSeconds = 0.001 is outside 0.01..3600/],
    [{ workSeconds: 3601 }, /limits.workSeconds = 3601 is outside 0.01..3600/],
    [{ workSeconds: NaN }, /limits.workSeconds = NaN is outside/],
    [{ workBytes: 1000 }, /limits.workBytes = 1000 is outside 1048576..805306368/],
    [{ workBytes: 1024 ** 3 }, /limits.workBytes = 1073741824 is outside/],
  ]) await assert.rejects(loadCore({ limits }), (e) => e instanceof RangeError && re.test(e.message), JSON.stringify(limits));
  const edge = await loadCore({ limits: { workSeconds: 3600, workBytes: 768 * 1024 * 1024 } });
  assert.equal(edge.limits.workSeconds, 3600);
});

test('a large call is refused under the default budget and accepted under a raised one; the default core keeps its own', async () => {
  assert.throws(() => core.scoreVariance(LARGE), (e) => e instanceof RangeError && /about 9.8 s of work \(cost model\), more than the 8 s budget/.test(e.message));
  const big = await loadCore({ limits: { workSeconds: 20 } });
  const r = big.scoreVariance(LARGE);
  assert.equal(r.rows[0].dk, 1024);
  assert.ok(Math.abs(r.rows[0].raw.variance / 1024 - 1) < 0.02, `Var(q·k)/d_k = ${r.rows[0].raw.variance / 1024}`);
  // the module is shared: the default core still refuses, the raised one still accepts
  assert.throws(() => core.scoreVariance(LARGE), /more than the 8 s budget/);
  assert.equal(big.cost('scoreVariance', LARGE).fits, true);
  const tight = await loadCore({ limits: { workSeconds: 0.01 } });
  assert.throws(() => tight.attentionStats({ dk: 64 }), /more than the 0.01 s budget/);
  assert.doesNotThrow(() => core.attentionStats({ dk: 64 }));
});

test('workBytes bounds the memory of a call', async () => {
  const small = await loadCore({ limits: { workBytes: 1024 * 1024 } });
  assert.throws(() => small.attentionStats({ heads: 8, seqLen: 256, dk: 64 }), (e) => e instanceof RangeError && /more than the 1 MiB limit/.test(e.message));
  assert.doesNotThrow(() => core.attentionStats({ heads: 8, seqLen: 256, dk: 64, perRow: false }));
});

test('trainingRun.step is capped by the budget of the core that made the run', async () => {
  const tight = await loadCore({ limits: { workSeconds: 0.01 } });
  const run = tight.createTrainingRun({ steps: 100 });
  try {
    assert.throws(() => run.step(100), /more than the 0.01 s budget/);
    assert.doesNotThrow(() => run.step(1));
  } finally { run.dispose(); }
});

test('core.cost is the estimate the call is checked against, with its drivers, and checks the parameters as the call does', async () => {
  const est = core.cost('scoreVariance', LARGE);
  assert.equal(est.fits, false);
  assert.ok(Math.abs(est.seconds - 9.8304) < 1e-9, String(est.seconds));
  assert.equal(est.bytes, 3 * 8 * 200000);
  assert.deepEqual(est.drivers.map((d) => d.params), ['samples = 200000, dks = 1024 in sum']);
  const big = await loadCore({ limits: { workSeconds: 20 } });
  assert.equal(big.cost('scoreVariance', LARGE).fits, true);
  const a = core.cost('attentionStats', { heads: 8, seqLen: 128, dk: 512 });
  assert.ok(a.fits && a.seconds > 0 && a.drivers.length === 3);
  assert.ok(Math.abs(a.drivers.reduce((s, d) => s + d.seconds, 0) - a.seconds) < 1e-12);
  // kernels: the scalar products cost more
  assert.ok(core.cost('attentionStats', { dk: 512, kernel: 'scalar' }).seconds > core.cost('attentionStats', { dk: 512, kernel: 'simd' }).seconds);
  assert.throws(() => core.cost('attentionStats', { dk: 0 }), (e) => e instanceof RangeError && /attentionStats: dk = 0 is outside 1..16384/.test(e.message));
  assert.throws(() => core.cost('attentionStats', { dk: 8, kernal: 'simd' }), (e) => e instanceof TypeError && /unknown parameter 'kernal'/.test(e.message));
  assert.throws(() => core.cost('softmaxJacobian', {}), (e) => e instanceof RangeError && /name = 'softmaxJacobian' is not one of/.test(e.message));
  assert.throws(() => core.cost(7, {}), TypeError);
  assert.deepEqual([...COSTED_CALLS].sort(), ['attention', 'attentionStats', 'longContext', 'precisionLab', 'saturationSweep', 'scoreVariance', 'tensorStats']);
  // every costed call answers (attention and tensorStats with their tensors)
  const n = 2 * 16 * 8;
  const t = new Float32Array(n).fill(0.5);
  for (const [name, params] of [['saturationSweep', { dks: [8, 64] }], ['precisionLab', {}], ['precisionLab', { logits: [1, 2] }], ['longContext', { seqLens: [64, 128] }],
    ['attention', { q: t, k: t, v: t, heads: 2, seqLen: 16, dk: 8 }], ['tensorStats', { q: t, k: t, heads: 2, seqLen: 16, dk: 8 }]]) {
    const e = core.cost(name, params);
    assert.ok(e.seconds > 0 && e.fits && e.drivers.length > 0, `${name}: ${JSON.stringify(e)}`);
  }
  // nothing is computed: a refused-size call is estimated at once, the heap does not grow
  const heap = core.info().heapBytes;
  const huge = core.cost('attentionStats', { heads: 64, seqLen: 8192, dk: 16384 });
  assert.equal(huge.fits, false);
  assert.ok(huge.bytes > LIMITS.workBytes);
  assert.equal(core.info().heapBytes, heap);
});

test('core.cost answers under its own core\'s limits, whichever core ran last on the module', async () => {
  // A sweep's scales share their products only when the shared buffer fits workBytes, so the
  // estimate's bytes depend on the limits: a core with 4 MiB must give the same answer before its
  // first call, after it and after another core's call, and that answer must be what the call does.
  const p = { dks: [1, 7, 64, 130], seqLen: 300, heads: 4, seed: 3, scales: ['none', 'inv_sqrt_dk', 'inv_dk', 0.37] };
  const small = await loadCore({ limits: { workBytes: 4 * 1024 * 1024 } });
  core.scoreVariance({ dks: [4] });  // the default core ran last
  const before = small.cost('saturationSweep', p);
  small.saturationSweep(p);  // accepted under 4 MiB
  const after = small.cost('saturationSweep', p);
  core.scoreVariance({ dks: [4] });
  const afterOther = small.cost('saturationSweep', p);
  assert.equal(before.fits, true);
  assert.equal(before.bytes, after.bytes);
  assert.equal(afterOther.bytes, after.bytes);
  assert.ok(after.bytes <= 4 * 1024 * 1024, `${after.bytes} bytes`);
});

test('attention whose weights pass the default 512 MiB runs under a raised workBytes', async () => {
  // heads 33 · seqLen² 2048² weights = 553 MiB with the output: refused under the default budget,
  // within a 768 MiB one; the bindings sized their buffers against the default and failed inside.
  const heads = 33, seqLen = 2048, dk = 1;
  const n = heads * seqLen * dk;
  const q = new Float32Array(n).fill(0), k = new Float32Array(n).fill(0), v = new Float32Array(n);
  for (let i = 0; i < n; ++i) v[i] = i % seqLen;
  const params = { q, k, v, heads, seqLen, dk, weights: true };
  assert.throws(() => core.attention(params), /workBytes|memory|MiB/);
  const big = await loadCore({ limits: { workBytes: 768 * 1024 * 1024, workSeconds: 30 } });
  const r = big.attention(params);
  assert.equal(r.weights.length, heads * seqLen * seqLen);
  // equal logits: every weight is 1 / seqLen, every output the mean of 0 … seqLen − 1
  assert.equal(r.weights[r.weights.length - 1], 1 / seqLen);
  assert.ok(Math.abs(r.output[n - 1] - (seqLen - 1) / 2) < 1e-3, `${r.output[n - 1]}`);
});
