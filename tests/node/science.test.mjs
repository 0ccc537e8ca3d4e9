// Issue 19 through the JS API of the built wasm module: correlated q, k and the d_k^−p scale,
// attention sinks, modelScales(), Llama 4 / Scalable-Softmax / YaRN m-scales in longContext, and
// the precision lab's q·kᵀ in a format and row sums — the numbers, the bit-for-bit
// defaults, and the boundary's errors (named, before anything is copied).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore, LONG_CONTEXT_METHODS, SCALE_AT, SCALE_ROUNDING } from '../../wasm/js/core.js';

const core = await loadCore();
const kernels = core.info().build === 'simd128' ? ['scalar', 'simd'] : ['scalar'];
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (±${tol})`);
const refuses = (f, Type, re) => assert.throws(f, (e) => e instanceof Type && re.test(e.message), String(re));

test('correlation: the matched pair at d_k 128, ρ 0.1 has mean 12.8 and variance 129.28', () => {
  const n = 50000;
  const r = core.scoreVariance({ dks: [128], samples: n, seed: 2, correlation: 0.1 });
  const row = r.rows[0];
  near(row.theory.raw.mean, 12.8, 1e-12, 'theory mean');
  near(row.theory.raw.variance, 129.28, 1e-10, 'theory variance');
  // Monte Carlo: the mean's std is √(129.28 / n) = 0.051 (5 of them); the variance's relative std √(3 / n) (5 of them)
  near(row.raw.mean, 12.8, 5 * Math.sqrt(129.28 / n), 'sample mean');
  near(row.raw.variance / 129.28, 1, 5 * Math.sqrt(3 / n), 'sample variance');
});

test('correlation 0 and no correlation give the same numbers, bit for bit', () => {
  assert.deepEqual(core.scoreVariance({ dks: [8, 64], samples: 300, seed: 4, correlation: 0 }), core.scoreVariance({ dks: [8, 64], samples: 300, seed: 4 }));
  for (const kernel of kernels) {
    const p = { heads: 2, seqLen: 16, dk: 8, seed: 3, kernel };
    assert.deepEqual(core.attentionStats({ ...p, correlation: 0 }), core.attentionStats(p));
  }
});

test('μP: with ρ = 0.5 the entropy under 1/d_k stays flat across d_k while 1/√d_k saturates', () => {
  const sw = core.saturationSweep({ dks: [64, 1024], scales: ['inv_sqrt_dk', { power: 1 }], heads: 2, seqLen: 64, seed: 3, gradients: false, correlation: 0.5 });
  const [sq, lin] = sw.points;
  assert.ok(sq[1].maxWeight.mean > 0.99, `max weight ${sq[1].maxWeight.mean}`);
  near(lin[1].entropy.mean, lin[0].entropy.mean, 0.05, 'flat entropy under 1/d_k');
  assert.equal(lin[0].scale, 1 / 64);
});

test('scale { power: p } is d_k^−p; ½ and 1 are the named scales exactly', () => {
  const base = { dks: [16, 100], heads: 1, seqLen: 8, gradients: false };
  const sw = core.saturationSweep({ ...base, scales: [{ power: 0.5 }, 'inv_sqrt_dk', { power: 1 }, 'inv_dk', { power: 0.25 }] });
  assert.deepEqual(sw.points[0], sw.points[1]);
  assert.deepEqual(sw.points[2], sw.points[3]);
  near(sw.points[4][0].scale, 0.5, 1e-15, '16^−¼');
  refuses(() => core.attentionStats({ dk: 8, scale: { power: 2.5 } }), RangeError, /^attentionStats: scale\.power = 2\.5 must be a number in 0\.\.2/);
  refuses(() => core.attentionStats({ dk: 8, scale: { power: '1' } }), TypeError, /^attentionStats: scale\.power must be a number, got string/);
  refuses(() => core.attentionStats({ dk: 8, scale: { pow: 1 } }), TypeError, /^attentionStats: scale as an object must be \{ power: p \}/);
  refuses(() => core.saturationSweep({ dks: [8], scales: ['none', { power: -1 }] }), RangeError, /^saturationSweep: scales\[1\]\.power = -1/);
});

test('sinks: logits [2, 1, 0] with S = 1 give [0.5344, 0.1966, 0.0723], sink 0.1966, in every kernel', () => {
  // one head, dk 1: q_0 = 1 and k = [2, 1, 0], scale 1, so row 0's logits are [2, 1, 0]
  const q = Float32Array.of(1, 0, 0), k = Float32Array.of(2, 1, 0), v = Float32Array.of(1, 2, 3);
  for (const kernel of kernels) {
    const r = core.attention({ q, k, v, heads: 1, seqLen: 3, dk: 1, scale: 'none', kernel, sinks: [1] });
    const row = Array.from(r.weights.subarray(0, 3));
    [0.5344, 0.1966, 0.0723].forEach((x, j) => near(row[j], x, 5e-5, `${kernel} w${j}`));
    near(r.sinkWeights[0], 0.1966, 5e-5, `${kernel} sink`);
    near(row.reduce((a, b) => a + b, 0) + r.sinkWeights[0], 1, 1e-6, 'row + sink = 1');
    // rows 1 and 2 (q = 0): logits 0, sink 1: p_sink = e / (e + 3)
    near(r.sinkWeights[1], Math.E / (Math.E + 3), 1e-6, 'flat row');
    near(r.sinkMass, (r.sinkWeights[0] + r.sinkWeights[1] + r.sinkWeights[2]) / 3, 1e-7, 'sinkMass');
  }
});

test('sinks: a fully masked row gives zeros under both masked-row rules; −∞ sinks are no sinks, bit for bit', () => {
  const L = 4, dk = 3;
  const q = Float32Array.from({ length: L * dk }, (_, i) => Math.sin(i)), k = Float32Array.from({ length: L * dk }, (_, i) => Math.cos(i));
  const mask = new Float32Array(L * L);
  mask.fill(-Infinity, L, 2 * L);  // row 1 sees nothing
  for (const kernel of kernels) {
    for (const maskedRow of ['nan', 'zero']) {
      const r = core.attention({ q, k, v: q, heads: 1, seqLen: L, dk, mask, maskedRow, kernel, sinks: [0.5] });
      assert.deepEqual(Array.from(r.weights.subarray(L, 2 * L)), [0, 0, 0, 0], `${maskedRow} weights`);
      assert.deepEqual(Array.from(r.output.subarray(dk, 2 * dk)), [0, 0, 0], `${maskedRow} output`);
      assert.equal(r.sinkWeights[1], 1);
      const none = core.attention({ q, k, v: q, heads: 1, seqLen: L, dk, mask, maskedRow, kernel });
      const minf = core.attention({ q, k, v: q, heads: 1, seqLen: L, dk, mask, maskedRow, kernel, sinks: [-Infinity] });
      assert.deepEqual(minf.weights, none.weights);
      assert.deepEqual(minf.output, none.output);
      assert.ok(!('sinkMass' in none) && !('sinkWeights' in none), 'no sink fields without sinks');
    }
    const p = { heads: 2, seqLen: 12, dk: 8, seed: 1, kernel, causal: true };
    const a = core.attentionStats(p), b = core.attentionStats({ ...p, sinks: Float32Array.of(-Infinity, -Infinity) });
    assert.deepEqual(b.rows.entropy, a.rows.entropy);
    assert.deepEqual(b.rows.gradQuery, a.rows.gradQuery);
    assert.equal(b.summary.sinkMass.mean, 0);
    assert.ok(!('sinkMass' in a.summary) && !('sinkMass' in a.rows));
  }
});

test('sinks: the sweep reports the mean sink mass, which grows as the logits shrink', () => {
  const sw = core.saturationSweep({ dks: [256], scales: ['none', 'inv_dk'], heads: 2, seqLen: 32, seed: 2, gradients: false, sinks: [2, 2] });
  near(sw.points[1][0].sinkMass.mean, Math.exp(2) / (Math.exp(2) + 32), 0.01, '1/d_k: logits ≈ 0');
  assert.ok(sw.points[0][0].sinkMass.mean < 1e-3);
});

test('sinks are checked at the boundary, naming the value', () => {
  refuses(() => core.attentionStats({ dk: 8, heads: 2, sinks: [1] }), RangeError, /^attentionStats: sinks\.length = 1 does not match heads = 2/);
  refuses(() => core.attentionStats({ dk: 8, heads: 1, sinks: [NaN] }), RangeError, /^attentionStats: sinks\[0\] = NaN/);
  refuses(() => core.saturationSweep({ dks: [8], heads: 1, sinks: [Infinity] }), RangeError, /^saturationSweep: sinks\[0\] = Infinity/);
  refuses(() => core.attention({ q: new Float32Array(2), k: new Float32Array(2), v: new Float32Array(2), heads: 1, seqLen: 2, dk: 1, sinks: ['1'] }), TypeError, /^attention: sinks\[0\] must be a number/);
  refuses(() => core.attention({ q: new Float32Array(2), k: new Float32Array(2), v: new Float32Array(2), heads: 1, seqLen: 2, dk: 1, sinks: 1 }), TypeError, /^attention: sinks must be/);
  refuses(() => core.attentionStats({ dk: 8, heads: 1, sinks: [3e6] }), RangeError, /^attentionStats: sinks\[0\] = 3000000/);
  // logits are real: an integer typed array is refused by kind; Float32Array and Float64Array are the same logits
  refuses(() => core.attentionStats({ dk: 8, heads: 2, sinks: Int32Array.of(1, 1) }), TypeError, /^attentionStats: sinks must be a Float32Array, Float64Array or an array of numbers, got Int32Array$/);
  refuses(() => core.saturationSweep({ dks: [8], heads: 1, sinks: Uint8Array.of(1) }), TypeError, /^saturationSweep: sinks must be .* got Uint8Array$/);
  const p = { dk: 8, heads: 2, seqLen: 8, gradients: false, perRow: false };
  assert.deepEqual(core.attentionStats({ ...p, sinks: Float64Array.of(1, 0.5) }), core.attentionStats({ ...p, sinks: [1, 0.5] }));
  assert.deepEqual(core.attentionStats({ ...p, sinks: Float32Array.of(1, 0.5) }), core.attentionStats({ ...p, sinks: [1, 0.5] }));
});

test('modelScales: every entry computed from its parameters, with the issue\'s numbers', () => {
  const all = core.modelScales();
  // it takes nothing: an argument (options it would ignore) is refused
  refuses(() => core.modelScales({ model: 'GPT-2' }), TypeError, /^modelScales: takes no arguments, got 1 \(object\)$/);
  refuses(() => core.modelScales({}), TypeError, /^modelScales: takes no arguments, got 1/);
  const by = Object.fromEntries(all.map((m) => [m.model, m]));
  assert.ok(all.length >= 13);
  near(by['Gemma 3 27B'].scale, 0.077152, 5e-7, 'Gemma 3 27B');
  near(by['DeepSeek-V3'].scale, 0.135234, 5e-7, 'DeepSeek-V3');
  near(by['gpt-oss-120b / 20b'].scale, 0.2267, 5e-5, 'gpt-oss');
  assert.equal(by['gpt-oss-120b / 20b'].sinks, true);
  assert.equal(by['Gemma 2 9B'].softcap, 50);
  assert.equal(by['Grok-1'].softcap, 30);
  assert.equal(by['Granite 3.0 8B'].scale, 1 / 128);
  assert.equal(by['T5-base'].scale, 1);
  assert.equal(by['GPT-2 (124M)'].softcap, null);
  for (const m of all) {
    assert.ok(m.scale > 0 && m.scale <= 1e4 && m.source.length > 10, m.model);
    // each is usable as an explicit scale, as the panels' one-click links do
    assert.equal(core.attentionStats({ dk: m.dHead, heads: 1, seqLen: 4, scale: m.scale, gradients: false }).summary.scale, m.scale);
  }
});

test('longContext: Llama 4\'s temperature, Scalable-Softmax\'s check and DeepSeek\'s mscale²', () => {
  assert.deepEqual(LONG_CONTEXT_METHODS, ['fixed', 'logn', 'yarn', 'article', 'llama4', 'ssmax']);
  // t = 1 + 0.1 ln(⌊L / floorScale⌋ + 1): ⌊16384 / 1024⌋ = ⌊131072 / 8192⌋ = 16, so t = 1.28332 as at 131072
  const l4 = core.longContext({ seqLens: [1024, 16384], methods: ['llama4'], floorScale: 1024, queries: 2, dk: 8 });
  near(l4.points[0][1].multiplier, 1.28332, 5e-6, 't');
  near(l4.points[0][0].multiplier, 1 + 0.1 * Math.log(2), 1e-15, 't at 1024');
  // SSMax: s · ln n; all logits −2 but one +3, n = 1000, s = 0.43: max weight 0.12935 → 0.99965
  const ss = core.longContext({ seqLens: [1000], methods: ['ssmax'], queries: 1, dk: 4 }).points[0][0].multiplier;
  near(ss, 0.43 * Math.log(1000), 1e-14, 's ln n');
  // each method once: a repeat is refused, naming it
  refuses(() => core.longContext({ seqLens: [64], methods: ['llama4', 'fixed', 'llama4'], queries: 1, dk: 4 }), RangeError, /^longContext: methods\[2\] = 'llama4' repeats methods\[0\]; give each method at most once$/);
  refuses(() => core.longContext({ seqLens: [64, 128, 64], methods: ['fixed'], queries: 1, dk: 4 }), RangeError, /^longContext: seqLens\[2\] = 64 repeats seqLens\[0\]; give each length at most once$/);
  const z = Array.from({ length: 1000 }, (_, i) => (i === 0 ? 3 : -2));
  near(core.softmaxJacobian(z).probs[0], 0.12935, 5e-6, 'softmax');
  near(core.softmaxJacobian(z.map((x) => x * ss)).probs[0], 0.99965, 5e-6, 'SSMax');
  // YaRN: DeepSeek's form at s = 40 with mscale = mscaleAllDim = 1; the defaults are today's numbers bit for bit
  const ds = core.longContext({ seqLens: [40 * 256], trainLen: 256, methods: ['yarn'], queries: 1, dk: 4, mscale: 1, mscaleAllDim: 1 });
  near(ds.points[0][0].multiplier, 1.873854, 5e-7, 'mscale²');
  const p = { seqLens: [64, 2048], trainLen: 256, methods: ['fixed', 'logn', 'yarn', 'article'], queries: 4, dk: 16, seed: 1 };
  assert.deepEqual(core.longContext({ ...p, mscale: 1, mscaleAllDim: 0, floorScale: 8192, attnScale: 0.1, s: 0.43 }), core.longContext(p));
  refuses(() => core.longContext({ seqLens: [8], floorScale: 0 }), RangeError, /^longContext: floorScale = 0 must be/);
  refuses(() => core.longContext({ seqLens: [8], s: -1 }), RangeError, /^longContext: s = -1 must be/);
  refuses(() => core.longContext({ seqLens: [8], mscaleAllDim: '1' }), TypeError, /^longContext: mscaleAllDim must be a number/);
  refuses(() => core.longContext({ seqLens: [8], attnScale: NaN }), RangeError, /^longContext: attnScale = NaN must be a finite number/);
});

test('longContext with a sink: the mean sink mass per point; −∞ is no sink, bit for bit', () => {
  const p = { seqLens: [16, 256], methods: ['fixed', 'ssmax'], queries: 8, dk: 16, seed: 2 };
  const none = core.longContext(p);
  assert.ok(!('sinkMass' in none.points[0][0]));
  const minf = core.longContext({ ...p, sink: -Infinity });
  minf.points.forEach((pts, m) => pts.forEach((pt, i) => {
    const { sinkMass, ...rest } = pt;
    assert.equal(sinkMass, 0);
    assert.deepEqual(rest, none.points[m][i]);
  }));
  const big = core.longContext({ ...p, sink: 30 });
  assert.ok(big.points[0][0].sinkMass > 0.999 && big.points[0][0].maxWeight < 1e-3, 'a large sink takes the mass');
  refuses(() => core.longContext({ ...p, sink: NaN }), RangeError, /^longContext: sink = NaN must be/);
  refuses(() => core.longContext({ ...p, sink: '1' }), TypeError, /^longContext: sink must be a number/);
});

test('precisionLab q·kᵀ in float16: the products overflow before the scale, not when q is scaled first', () => {
  assert.deepEqual(SCALE_AT, ['scores', 'query', 'both']);
  const dk = 128;
  const q = new Float32Array(dk).fill(24);
  const k = new Float32Array(3 * dk);
  k.fill(24, 0, dk);
  k.fill(12, dk, 2 * dk);
  const cell = (r, f, a) => r.cells.find((c) => c.format === f && c.algorithm === a);
  const atScores = core.precisionLab({ q, k, dk, scale: 'inv_sqrt_dk', scaleAt: 'scores' });
  assert.equal(atScores.rows, 1);
  assert.equal(atScores.seqLen, 3);
  for (const a of ['naive', 'safe', 'online']) {
    assert.equal(cell(atScores, 'float16', a).shareNan, 1, a);
    assert.equal(cell(atScores, 'float16', a).causes.inputOverflow, 1, a);
  }
  const atQuery = core.precisionLab({ q, k, dk, scale: 'inv_sqrt_dk', scaleAt: 'query' });
  assert.deepEqual(Array.from(cell(atQuery, 'float16', 'safe').probs), [1, 0, 0]);
  assert.equal(cell(atQuery, 'float16', 'safe').shareNonfinite, 0);
  assert.ok('rowSum' in cell(atQuery, 'float16', 'safe'), 'q/k cells carry rowSum');
  refuses(() => core.precisionLab({ q, dk }), TypeError, /^precisionLab: q and k go together/);
  refuses(() => core.precisionLab({ q, k, dk, rows: 2 }), TypeError, /^precisionLab: rows cannot go with q and k/);
  refuses(() => core.precisionLab({ q, k, dk, logits: [1] }), TypeError, /^precisionLab: logits cannot go with q and k/);
  refuses(() => core.precisionLab({ q, k: k.subarray(1), dk }), RangeError, /^precisionLab: k\.length = 383 is not keys · dk for dk = 128/);
  refuses(() => core.precisionLab({ q: Array.from(q), k, dk }), TypeError, /^precisionLab: q must be a Float32Array/);
  refuses(() => core.precisionLab({ q, k, dk, scaleAt: 'keys' }), RangeError, /^precisionLab: scaleAt = 'keys' is not one of 'scores', 'query'/);
  refuses(() => core.precisionLab({ logits: [1], scaleAt: 'query' }), TypeError, /^precisionLab: scaleAt goes with q and k/);
  refuses(() => core.precisionLab({ q, k, dk: 100 }), RangeError, /^precisionLab: q\.length = 128 is not queries · dk for dk = 100/);
});

test("precisionLab: a bfloat16 cell's scale is a float32 constant, as PyTorch and FlashAttention hold it (issue 27's example)", () => {
  // d_k 128, bfloat16, safe, accumulate 'float32', q = e₀, keys 227·e₀ and 226·e₀: PyTorch multiplies a bf16 tensor by
  // a Python float in float32 (pytorch/pytorch#147134): logits [20.125, 20], p = [0.53125, 0.46875]; float64
  // 1/(1 + e^{∓c}) = [0.5220827, 0.4779173]. Rounding c to bfloat16 first (0.08837890625, core 0.3.0) gave [0.5, 0.5].
  assert.deepEqual(SCALE_ROUNDING, ['float32', 'cell']);
  const dk = 128, c = 1 / Math.sqrt(128);
  const q = new Float32Array(dk); q[0] = 1;
  const k = new Float32Array(2 * dk); k[0] = 227; k[dk] = 226;
  const cell = (r, f, a) => r.cells.find((x) => x.format === f && x.algorithm === a);
  const base = { q, k, dk, accumulate: 'float32', scaleAt: 'scores' };
  const r = core.precisionLab(base);
  assert.deepEqual(Array.from(cell(r, 'bfloat16', 'safe').probs), [0.53125, 0.46875]);
  assert.equal(cell(r, 'bfloat16', 'safe').scaleApplied, Math.fround(c));
  assert.equal(cell(r, 'float64', 'safe').scaleApplied, c);
  assert.ok(Math.abs(r.reference[0] - 0.5220827) < 1e-7 && Math.abs(r.reference[1] - 0.4779173) < 1e-7, String(r.reference));
  assert.deepEqual(core.precisionLab({ ...base, scaleRounding: 'float32' }), r, "'float32' is the default");
  const old = core.precisionLab({ ...base, scaleRounding: 'cell' });
  assert.deepEqual(Array.from(cell(old, 'bfloat16', 'safe').probs), [0.5, 0.5]);
  assert.equal(cell(old, 'bfloat16', 'safe').scaleApplied, 0.08837890625);
  assert.equal(cell(old, 'float16', 'safe').scaleApplied, 0.08837890625);
  // float32 and float64 cells hold c the same way under both rules
  r.cells.forEach((x, i) => {
    if (x.format === 'float32' || x.format === 'float64') assert.deepEqual(old.cells[i], x, `${x.format} ${x.algorithm}`);
  });
  // 'both': √c on q and on k (PyTorch's math backend before pytorch/pytorch#163508): q'₀ = 0.296875, k' = [67.5, 67],
  // logits [20, 19.875] in bfloat16, p = [0.53125, 0.46875]; the cell carries the square of float32(√c)
  const both = core.precisionLab({ ...base, scaleAt: 'both' });
  assert.deepEqual(Array.from(cell(both, 'bfloat16', 'safe').probs), [0.53125, 0.46875]);
  assert.equal(cell(both, 'bfloat16', 'safe').scaleApplied, Math.fround(Math.sqrt(c)) ** 2);
  assert.deepEqual(both.reference, r.reference, 'the float64 reference is c · (q·k) wherever c is applied');
  // without q and k the cells carry no scaleApplied, and scaleRounding is refused
  assert.ok(!('scaleApplied' in core.precisionLab({ logits: [1, 2] }).cells[0]));
  refuses(() => core.precisionLab({ logits: [1], scaleRounding: 'cell' }), TypeError, /^precisionLab: scaleRounding goes with q and k/);
  refuses(() => core.precisionLab({ ...base, scaleRounding: 'bf16' }), RangeError, /^precisionLab: scaleRounding = 'bf16' is not one of 'float32', 'cell'/);
});

test('precisionLab row sums: 4096 zero logits summed in float16 stall at 2048 (weights 1/2048, row sum 2.0, cause sumStall)', () => {
  const r = core.precisionLab({ logits: new Float64Array(4096) });  // row sums are on by default
  for (const c of r.cells.filter((x) => x.format === 'float16')) {
    assert.equal(c.probs[0], 1 / 2048, c.algorithm);
    assert.deepEqual(c.rowSum, { min: 2, max: 2 }, c.algorithm);
    assert.equal(c.causes.sumStall, 1, c.algorithm);
  }
  for (const c of r.cells.filter((x) => x.format === 'float64' || x.format === 'float32')) assert.equal(c.causes.sumStall, 0);
  // rowSums: false leaves out rowSum and sumStall and nothing else: every other number the same, bit for bit
  for (const p of [{ logits: new Float64Array(4096) }, { rows: 8, seqLen: 64, dk: 32, seed: 3, scale: 'none' }, { logits: [100, 90, 80], blockSize: 2 }]) {
    const on = core.precisionLab(p), off = core.precisionLab({ ...p, rowSums: false });
    assert.ok(on.cells.every((c) => c.rowSum && typeof c.causes.sumStall === 'number'), 'on by default, every cell');
    assert.ok(off.cells.every((c) => !('rowSum' in c) && !('sumStall' in c.causes)), 'the opt-out');
    const strip = (res) => ({ ...res, cells: res.cells.map(({ rowSum, ...c }) => ({ ...c, causes: Object.fromEntries(Object.entries(c.causes).filter(([k]) => k !== 'sumStall')) })) });
    assert.deepEqual(strip(on), off);
  }
  refuses(() => core.precisionLab({ logits: [1], rowSums: 1 }), TypeError, /^precisionLab: rowSums must be a boolean/);
});
