// Regression tests for defects found by adversarial input to the JS API (QA pass). Each test states
// the contract of README.md / core.d.ts it holds the core to: bad input throws a RangeError or
// TypeError naming the parameter, the module keeps working, no NaN comes back silently.
// Tests whose name starts with "REGRESSION" failed when they were written.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadCore } from '../../wasm/js/core.js';

let core;
before(async () => { core = await loadCore({ kernel: 'simd' }); });

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

/** Paths of every non-finite number in a result (typed arrays included). */
function nonFinite(v, path = '', out = []) {
  if (typeof v === 'number') { if (!Number.isFinite(v)) out.push(`${path} = ${v}`); return out; }
  if (ArrayBuffer.isView(v)) { const i = Array.prototype.findIndex.call(v, (x) => !Number.isFinite(x)); if (i >= 0) out.push(`${path}[${i}] = ${v[i]}`); return out; }
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) nonFinite(x, path ? `${path}.${k}` : k, out);
  return out;
}

/** Either a RangeError naming `name`, or a result without NaN/±∞. */
function refusedOrFinite(fn, name) {
  let r;
  try { r = fn(); } catch (e) {
    assert.ok(e instanceof RangeError, `${e.name}: ${e.message}`);
    assert.match(e.message, new RegExp(`\\b${name}\\b`));
    return;
  }
  assert.deepEqual(nonFinite(r), [], 'no silent NaN or ±∞');
}

test('REGRESSION: refused calls do not leak their inputs (the params object stays referenced after a C++ error)', () => {
  const n = 1024 * 256;  // 1 MiB per tensor
  gc();
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 100; i++) {
    const q = new Float32Array(n);
    q[n - 1] = NaN;  // refused by the core, after the copy into the heap
    assert.throws(() => core.attention({ q, k: new Float32Array(n), v: new Float32Array(n), heads: 1, seqLen: 1024, dk: 256, weights: false }),
      (e) => e instanceof RangeError && /q\[262143\] = NaN/.test(e.message));
  }
  gc();
  const grown = (process.memoryUsage().arrayBuffers - before) / 2 ** 20;
  assert.ok(grown < 50, `100 refused calls with 3 MiB of inputs left ${grown.toFixed(0)} MiB of array buffers alive`);
  // and the module still answers
  assert.ok(Number.isFinite(core.attentionStats({ heads: 1, seqLen: 8, dk: 8, perRow: false, heatmapSize: 1 }).summary.entropy.mean));
});

test('REGRESSION: attentionStats with a huge but finite scale never returns NaN silently', () => {
  for (const scale of [1e39, 1e300]) {
    refusedOrFinite(() => core.attentionStats({ heads: 1, seqLen: 4, dk: 4, scale, perRow: false, heatmapSize: 4 }), 'scale');
    refusedOrFinite(() => core.saturationSweep({ dks: [4], scales: [scale], heads: 1, seqLen: 4 }), 'scales');
  }
});

test('REGRESSION: tensorStats with finite float32 tensors whose q·k overflows never returns NaN silently', () => {
  const big = new Float32Array(16).fill(1e19);  // finite; q·k = 4e38 > FLT_MAX
  refusedOrFinite(() => core.tensorStats({ q: big, k: big, heads: 1, seqLen: 4, dk: 4, scale: 'none' }), 'q');
});

test('REGRESSION: a detached Float32Array is refused with an error naming the parameter', () => {
  const q = new Float32Array(4);
  structuredClone(q.buffer, { transfer: [q.buffer] });  // detach
  assert.throws(() => core.attention({ q, k: new Float32Array(4), v: new Float32Array(4), heads: 1, seqLen: 2, dk: 2 }),
    (e) => (e instanceof TypeError || e instanceof RangeError) && /\bq\b/.test(e.message));
});

test('bad input from a hostile caller: typed errors naming parameter and value, and the module keeps working', () => {
  const cases = [
    [() => core.attentionStats({ dk: NaN }), RangeError, /dk = NaN/],
    [() => core.attentionStats({ dk: -0 }), RangeError, /dk = 0 is outside/],
    [() => core.attentionStats({ dk: 2 ** 53 }), RangeError, /dk = 9007199254740992/],
    [() => core.attentionStats({ dk: 64, heads: 64, seqLen: 8192 }), RangeError, /MiB of memory/],
    [() => core.attentionStats({ dk: 4, headsKv: 3, heads: 4 }), RangeError, /headsKv = 3/],
    [() => core.attentionStats({ dk: 4, scale: -0 }), RangeError, /scale = 0/],
    [() => core.attentionStats({ dk: 4, perRow: 1 }), TypeError, /perRow/],
    [() => core.attentionStats({ dk: 4, extra: 1 }), TypeError, /unknown parameter 'extra'/],
    [() => core.scoreVariance({ dks: [4, , 8] }), TypeError, /dks\[1\]/],
    [() => core.scoreVariance({ dks: new BigInt64Array([4n]) }), TypeError, /dks must be an array of integers, got BigInt64Array/],
    [() => core.scoreVariance({ dks: Array(65).fill(4) }), RangeError, /dks.length = 65/],
    [() => core.softmaxJacobian([Infinity, -Infinity]), RangeError, /logits\[0\] = inf/],
    [() => core.softmaxJacobian([0, , 1]), TypeError, /logits\[1\]/],
    [() => core.attention({ q: new Float64Array(4), k: new Float32Array(4), v: new Float32Array(4), heads: 1, seqLen: 2, dk: 2 }), TypeError, /q must be a Float32Array/],
    [() => core.attention({ q: new Float32Array(16), k: new Float32Array(12), v: new Float32Array(12), heads: 4, headsKv: 3, seqLen: 2, dk: 2 }), RangeError, /headsKv = 3 does not divide heads = 4/],
    [() => core.tensorStats({ q: new Float32Array(16).fill(NaN), k: new Float32Array(16), heads: 1, seqLen: 4, dk: 4 }), RangeError, /q\[0\] = NaN/],
    [() => core.precisionLab({ logits: [] }), RangeError, /logits is empty/],
    [() => core.precisionLab({ logits: Array(8193).fill(0) }), RangeError, /logits.length = 8193/],
    [() => core.longContext({ seqLens: Array(17).fill(64) }), RangeError, /seqLens.length = 17/],
    [() => core.longContext({ seqLens: [64], methods: ['x'] }), RangeError, /'x'/],
  ];
  for (const [fn, type, re] of cases) {
    assert.throws(fn, (e) => e instanceof type && re.test(e.message), String(fn));
  }
  // all −∞ is documented: all zeros, no NaN
  const masked = core.softmaxJacobian([-Infinity, -Infinity]);
  assert.deepEqual(Array.from(masked.probs), [0, 0]);
  assert.deepEqual(nonFinite(masked), []);
  // still working, and results are still JS-owned after a call that grows the heap
  const small = core.attentionStats({ heads: 1, seqLen: 8, dk: 8, seed: 3, perRow: false, heatmapSize: 8 });
  const copy = Array.from(small.heatmap);
  core.attentionStats({ heads: 4, seqLen: 1024, dk: 64, perRow: true, heatmapSize: 512 });
  assert.deepEqual(Array.from(small.heatmap), copy);
});
