// normalDraws through the JS API: the draws of the core's generator of one stream, in double — Python's port of the
// generator (web/public/python/sqrtdk_rng.py) gives them bit for bit, in float32 they are attentionStats' own Q and
// K, both builds and a second call give the same bits, σ is a factor, and every bad value is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../wasm/js/core.js';
import { PYTHON, pythonHas, runPython } from './python.mjs';

const simd = await loadCore({ build: 'simd128' });
const base = await loadCore({ build: 'baseline' });
const MODULE_DIR = fileURLToPath(new URL('../../web/public/python/', import.meta.url));
const numpy = pythonHas('numpy');

test('normalDraws: a Float64Array of n draws; stream 0 of seed 0 is the generator\'s golden normals (scripts/golden_rng.py)', () => {
  const r = simd.normalDraws({ n: 6 });
  assert.deepEqual(Object.keys(r), ['values']);
  assert.ok(r.values instanceof Float64Array);
  const golden = [0.5981026483626094, 1.4634599192204392, -0.8950525532379914, -0.1880627660388742, -2.415606685712082, 1.1072094167289706];
  r.values.forEach((x, i) => assert.ok(Math.abs(x - golden[i]) <= 1e-15 * Math.abs(golden[i]), `draw ${i}: ${x} vs ${golden[i]}`));
  assert.equal(simd.normalDraws({ n: 1, seed: 0, stream: 0, sigma: 1 }).values[0], r.values[0]);
});

test('normalDraws: the same bits in both builds and on every call; a prefix of a longer call; σ an exact factor', () => {
  for (const p of [{ n: 4097, seed: 3, stream: 1 }, { n: 10, seed: 4294967295, stream: 2147483647, sigma: 0.5 }]) {
    const a = simd.normalDraws(p).values, b = base.normalDraws(p).values, c = simd.normalDraws(p).values;
    assert.deepEqual(b, a);
    assert.deepEqual(c, a);
    assert.deepEqual(simd.normalDraws({ ...p, n: 3 }).values, a.subarray(0, 3));
  }
  const one = simd.normalDraws({ n: 300, seed: 8, stream: 5 }).values, two = simd.normalDraws({ n: 300, seed: 8, stream: 5, sigma: 2 }).values;
  one.forEach((x, i) => assert.equal(two[i], 2 * x));
  const other = simd.normalDraws({ n: 300, seed: 8, stream: 6 }).values;
  assert.ok(other.every((x, i) => x !== one[i]), 'another stream: other draws');
});

test('normalDraws in float32: streams 1 and 2 are attentionStats\' Q and K (attention on them gives its heatmap bit for bit)', () => {
  for (const s of [{ heads: 1, seqLen: 16, dk: 8, seed: 0 }, { heads: 2, seqLen: 33, dk: 17, seed: 77 }]) {
    const n = s.heads * s.seqLen * s.dk;
    const q = Float32Array.from(simd.normalDraws({ n, seed: s.seed, stream: 1 }).values);
    const k = Float32Array.from(simd.normalDraws({ n, seed: s.seed, stream: 2 }).values);
    const stats = simd.attentionStats({ ...s, scale: 'inv_sqrt_dk', heatmapSize: s.seqLen, gradients: false, kernel: 'scalar' });
    const att = simd.attention({ q, k, v: k, heads: s.heads, seqLen: s.seqLen, dk: s.dk, scale: 'inv_sqrt_dk', kernel: 'scalar' });
    assert.deepEqual(Array.from(stats.heatmap), Array.from(att.weights.subarray(0, s.seqLen * s.seqLen)), `seed ${s.seed}`);
  }
});

test('normalDraws: Python\'s port of the generator draws the same doubles (Stream(seed, stream).normals(n) · σ)', { skip: numpy.ok ? false : `${PYTHON} has no NumPy (${numpy.why})` }, () => {
  const cases = [{ n: 1, seed: 0, stream: 0, sigma: 1 }, { n: 4096, seed: 0, stream: 1, sigma: 1 }, { n: 777, seed: 12345, stream: 2, sigma: 0.5 }];
  const out = JSON.parse(runPython(`
import sys, json, base64
sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})
from sqrtdk_rng import Stream
print(json.dumps([base64.b64encode((c['sigma'] * Stream(c['seed'], c['stream']).normals(c['n'])).tobytes()).decode() for c in json.loads(sys.stdin.read())]))
`, { stdin: JSON.stringify(cases) }));
  cases.forEach((c, i) => {
    const b = Buffer.from(out[i], 'base64');
    const py = new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    assert.deepEqual(simd.normalDraws(c).values, py, `seed ${c.seed} stream ${c.stream}`);
  });
});

test('normalDraws: bad values are refused naming them (TypeError for a type, RangeError for a range)', () => {
  const bad = [
    [undefined, TypeError, /params must be an object/], [{}, TypeError, /n is required/], [{ n: '5' }, TypeError, /n must be a number/],
    [{ n: 5, mean: 1 }, TypeError, /unknown parameter 'mean'/], [{ n: 0 }, RangeError, /n = 0/], [{ n: 2.5 }, RangeError, /n = 2.5/],
    [{ n: 16777217 }, RangeError, /n = 16777217/], [{ n: 5, stream: -1 }, RangeError, /stream = -1/],
    [{ n: 5, seed: -1 }, RangeError, /seed = -1/], [{ n: 5, sigma: 0 }, RangeError, /sigma = 0/],
    [{ n: 5, sigma: NaN }, RangeError, /sigma = NaN/], [{ n: 5, sigma: 1001 }, RangeError, /sigma = 1001/],
  ];
  for (const [p, E, re] of bad) assert.throws(() => simd.normalDraws(p), (e) => e instanceof E && re.test(e.message), JSON.stringify(p));
  // 8 · n bytes over a core's workBytes: refused before anything is drawn
  return loadCore({ limits: { workBytes: 1024 * 1024 } }).then((small) => {
    assert.throws(() => small.normalDraws({ n: 262144 }), (e) => e instanceof RangeError && /n = 262144/.test(e.message));
    assert.equal(small.normalDraws({ n: 131072 }).values.length, 131072);
  });
});
