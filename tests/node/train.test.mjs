// The training lab through the JS API (wasm): reproducible losses, both kernel families, errors
// that name the value, a diverging run reported rather than thrown, and dispose().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore, ATTENTION_VARIANTS, TRAINING_DEFAULTS, TRAINING_LIMITS, TRAINING_TASKS } from '../../wasm/js/core.js';

const core = await loadCore();                        // simd128 build, 'simd' kernel (Node 20)
const scalar = await loadCore({ kernel: 'scalar' });  // same build, scalar kernel
const small = { steps: 20, evalSize: 32 };

test('the same seed gives identical first losses; another seed does not', () => {
  const first = (c, cfg) => {
    const run = c.createTrainingRun(cfg);
    try { return Array.from(run.step(5).loss); } finally { run.dispose(); }
  };
  for (const attention of ATTENTION_VARIANTS) {
    const a = first(core, { ...small, attention, seed: 7 });
    assert.deepEqual(first(core, { ...small, attention, seed: 7 }), a, attention);
    assert.ok(a.every(Number.isFinite), attention);
    assert.notDeepEqual(first(core, { ...small, attention, seed: 8 }), a, attention);
  }
});

test('simd and scalar kernels agree to float32 rounding (softmax sums are ordered differently)', () => {
  const a = core.createTrainingRun(small), b = scalar.createTrainingRun(small);
  assert.equal(a.config.kernel, 'simd');
  assert.equal(b.config.kernel, 'scalar');
  const la = a.step(5).loss, lb = b.step(5).loss;
  for (let i = 0; i < 5; ++i) assert.ok(Math.abs(la[i] - lb[i]) <= 1e-4 * lb[i], `step ${i}: ${la[i]} vs ${lb[i]}`);
  a.dispose();
  b.dispose();
});

test('step results, evaluation, analysis and info have the documented shapes', () => {
  const run = core.createTrainingRun({ ...small, attention: 'learnable_temperature', layers: 3, task: 'reverse' });
  const info = run.info();
  assert.equal(info.dk, 16);
  assert.equal(info.tokens, TRAINING_DEFAULTS.vocab + 1);
  assert.equal(info.causal, true);
  assert.equal(info.targetsPerSequence, 8);
  assert.ok(info.memoryBytes > 0 && info.memoryBytes < TRAINING_LIMITS.memoryBytes);
  // the cost model's seconds per step: more for the scalar kernel (its calibrated ns per multiply-add is larger)
  assert.ok(info.stepSeconds > 0 && info.stepSeconds < 1, `stepSeconds ${info.stepSeconds}`);
  const sc = scalar.createTrainingRun({ ...small, attention: 'learnable_temperature', layers: 3, task: 'reverse' });
  try { assert.ok(sc.info().stepSeconds > info.stepSeconds); } finally { sc.dispose(); }
  const r = run.step(4);
  assert.equal(r.firstStep, 0);
  assert.equal(r.count, 4);
  assert.equal(r.entropy.length, 4 * 3);
  assert.ok(Math.abs(r.headScale[0] - 1 / Math.sqrt(16)) < 1e-6);  // τ starts at 1/√d_k
  assert.equal(r.lr[0], TRAINING_DEFAULTS.lr);
  assert.equal(r.firstNonfiniteStep, null);
  const r2 = run.step(100);  // runs to the run's end, no further
  assert.equal(r2.firstStep, 4);
  assert.equal(r2.count, 16);
  assert.equal(r2.finished, true);
  assert.equal(run.step(1).count, 0);
  const e = run.evaluate();
  assert.equal(e.sequences, 32);
  assert.equal(e.targets, 32 * 8);
  const a = run.analysis(16);
  assert.equal(a.layers.length, 3);
  assert.equal(a.layers[0].logits.counts.length, 16);
  assert.equal(a.layers[0].normal.length, 16);
  run.dispose();
});

test('a diverging run is reported, not thrown: naive softmax overflows, safe does not', () => {
  const cfg = { attention: 'none', heads: 1, layers: 1, initStd: 1, batch: 4, steps: 3, evalSize: 8 };
  const naive = core.createTrainingRun({ ...cfg, softmax: 'naive' });
  const r = naive.step(3);
  assert.equal(r.count, 1);
  assert.equal(r.diverged, true);
  assert.equal(r.firstNonfiniteStep, 0);
  assert.ok(!Number.isFinite(r.loss[0]));
  assert.equal(naive.step(3).count, 0);
  assert.equal(naive.info().firstNonfiniteStep, 0);
  naive.dispose();
  const safe = core.createTrainingRun({ ...cfg, softmax: 'safe' });
  const s = safe.step(3);
  assert.equal(s.count, 3);
  assert.ok(s.loss.every(Number.isFinite));
  assert.ok(s.maxAbsLogit[0] > 88.8);
  safe.dispose();
});

test('bad configs are refused with RangeError / TypeError naming the value', () => {
  const refuses = (cfg, type, re) => assert.throws(() => core.createTrainingRun(cfg), (e) => e instanceof type && re.test(e.message), JSON.stringify(cfg));
  refuses({ dModel: 60, heads: 8 }, RangeError, /dModel = 60 is not divisible by heads = 8/);
  refuses({ seqLen: 7 }, RangeError, /seqLen = 7 is outside 8\.\.64/);
  refuses({ layers: 7 }, RangeError, /layers = 7 is outside 1\.\.6/);
  refuses({ steps: 20001 }, RangeError, /steps = 20001/);
  refuses({ steps: 10, warmup: 11 }, RangeError, /warmup = 11 is outside 0\.\.10/);
  refuses({ dModel: 512, mlp: 2048, layers: 6, heads: 8 }, RangeError, /64 MiB budget/);
  refuses({ lr: 0 }, RangeError, /lr = 0/);
  refuses({ lr: Infinity }, RangeError, /lr = Infinity/);
  refuses({ attention: 'sqrt' }, RangeError, /attention = 'sqrt'/);
  refuses({ task: 'translate' }, RangeError, /task = 'translate'/);
  refuses({ norm: 'sandwich' }, RangeError, /norm = 'sandwich'/);
  refuses({ softmax: 'fast' }, RangeError, /softmax = 'fast'/);
  refuses({ seqLen: '16' }, TypeError, /seqLen must be a number/);
  refuses({ batch: 2.5 }, RangeError, /batch = 2.5 must be an integer/);
  refuses({ task: 'assoc_recall', seqLen: 64, vocab: 8 }, RangeError, /vocab = 8 is below the 31 distinct keys/);
  refuses({ learningRate: 1 }, TypeError, /unknown parameter 'learningRate'/);
  refuses(null, TypeError, /params must be an object/);
  const run = core.createTrainingRun(small);
  assert.throws(() => run.step(0), RangeError);
  assert.throws(() => run.step('5'), TypeError);
  assert.throws(() => run.analysis(4), /bins = 4/);
  run.dispose();
  run.dispose();  // idempotent
  assert.equal(run.disposed, true);
  assert.throws(() => run.step(1), /disposed/);
  // TRAINING_LIMITS are the core's: both ends of every range are accepted by the C++ checks too
  const ends = [{ vocab: 2 }, { vocab: 256 }, { seqLen: 8 }, { seqLen: 64 }, { layers: 1 }, { layers: 6 },
    { dModel: 8, heads: 1 }, { dModel: 512, heads: 16, mlp: 4, layers: 1, batch: 1 }, { heads: 1 }, { heads: 16 },
    { mlp: 4 }, { mlp: 2048, layers: 1, batch: 1 }, { batch: 1 }, { batch: 256, layers: 1 }, { steps: 1 },
    { steps: 20000 }, { evalSize: 1 }, { evalSize: 4096 }];
  for (const cfg of ends) core.createTrainingRun({ ...small, ...cfg }).dispose();
  assert.deepEqual([...TRAINING_TASKS], ['copy', 'reverse', 'sort', 'assoc_recall']);
});

test('the baseline build trains with the scalar kernel and refuses simd', async () => {
  const base = await loadCore({ build: 'baseline' });
  assert.throws(() => base.createTrainingRun({ ...small, kernel: 'simd' }), /not in the baseline build/);
  const run = base.createTrainingRun(small);
  const ref = scalar.createTrainingRun(small);
  assert.deepEqual(run.step(3).loss, ref.step(3).loss);  // same arithmetic, other artifact
  run.dispose();
  ref.dispose();
});
