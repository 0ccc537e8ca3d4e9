// The per-call path of attention (issue 9): buffers kept from call to call, the row-blocked SIMD128
// head when no weights are asked for, the vectorised input check. None of it may change a number:
// the output without weights is bit-identical to the output with them (the unfused path), in both
// kernel families, whatever was computed before; a bad entry is still named by its index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../wasm/js/core.js';
import { randn } from './helpers.mjs';

const core = await loadCore({ kernel: 'simd' });
// lengths below, at and past a row block (64 rows up to L = 256, 16 at 1024), not multiples of 4 or 8
const SHAPES = [[1, 1, 1], [2, 5, 3], [3, 67, 9], [8, 130, 64], [2, 300, 16], [1, 1030, 8]];
const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);

for (const kernel of ['simd', 'scalar']) {
  test(`${kernel}: the output without weights is bit-identical to the one with them, also for GQA and after other calls`, () => {
    const done = new Map();
    for (const pass of [0, 1]) {  // the second pass runs every shape after larger and smaller ones
      for (const [heads, L, dk] of SHAPES) {
        for (const headsKv of heads % 2 === 0 ? [0, heads / 2] : [0]) {
          const nkv = (headsKv || heads) * L * dk;
          const q = randn(heads * L * dk, 1 + L), k = randn(nkv, 2 + L), v = randn(nkv, 3 + L);
          const p = { q, k, v, heads, headsKv, seqLen: L, dk, kernel };
          const plain = core.attention({ ...p, weights: false });
          const full = core.attention({ ...p, weights: true });
          assert.equal(plain.weights, null);
          assert.equal(plain.scale, 1 / Math.sqrt(dk));
          assert.deepEqual(bits(plain.output), bits(full.output), `${heads}x${L}x${dk} headsKv ${headsKv}`);
          const key = `${heads}x${L}x${dk}/${headsKv}`;
          if (pass === 1) assert.deepEqual(bits(plain.output), done.get(key), `${key}: the same bits on a later call`);
          done.set(key, bits(plain.output).slice());
          // the result is the caller's own array: a later call does not overwrite it
          assert.ok(!(plain.output.buffer instanceof SharedArrayBuffer));
        }
      }
    }
  });
}

test('simd and scalar outputs without weights agree within the SIMD128 softmax\'s stated bound', () => {
  // Since core 0.6.0 the SIMD128 softmax has its own exponential (kernels_wasmsimd.cpp): each weight is
  // within r = 2E + 18u + 2·d·u relative of the double softmax (E = 1.9e-7, u = 2^-24, d = the row's spread
  // of logits, < 12 at d_k 64 with 1/√d_k), so the outputs Σ_j w_j v_j differ by at most 2r·max|v| plus
  // both P·V sums' rounding (L·u·max|v| each).
  const [heads, L, dk] = [4, 130, 64];
  const q = randn(heads * L * dk, 5), k = randn(heads * L * dk, 6), v = randn(heads * L * dk, 7);
  const a = core.attention({ q, k, v, heads, seqLen: L, dk, kernel: 'simd', weights: false }).output;
  const b = core.attention({ q, k, v, heads, seqLen: L, dk, kernel: 'scalar', weights: false }).output;
  const u = 2 ** -24, r = 2 * 1.9e-7 + 18 * u + 2 * 12 * u;
  let err = 0, vmax = 0;
  for (let i = 0; i < a.length; ++i) err = Math.max(err, Math.abs(a[i] - b[i]));
  for (const x of v) vmax = Math.max(vmax, Math.abs(x));
  assert.ok(err > 0, 'the families differ');
  assert.ok(err <= (2 * r + 2 * L * u) * vmax, `max |simd − scalar| = ${err}`);
});

test('an output array outlives the next call (one copy out of the reused heap buffer)', () => {
  const q = randn(2 * 9 * 4, 1), k = randn(2 * 9 * 4, 2), v = randn(2 * 9 * 4, 3);
  const first = core.attention({ q, k, v, heads: 2, seqLen: 9, dk: 4, weights: false }).output;
  const keep = first.slice();
  core.attention({ q: v, k: q, v: k, heads: 2, seqLen: 9, dk: 4, weights: false });
  assert.deepEqual(first, keep);
});

test('the vectorised input check still names the first bad entry of each kind', () => {
  const n = 3 * 17 * 5;
  const good = () => randn(n, 9);
  for (const [name, i, value, re] of [
    ['q', 0, NaN, /attention: q\[0\] = NaN is not a finite number/],
    ['k', 200, Infinity, /attention: k\[200\] = \S+ is not a finite number/],
    ['v', n - 1, -2e6, new RegExp(`attention: v\\[${n - 1}\\] = -2(e\\+?0?6|000000) exceeds 1e6 in magnitude`)],
    ['q', 7, 1e6 + 64, /attention: q\[7\] = .* exceeds 1e6/],
  ]) {
    const t = { q: good(), k: good(), v: good() };
    t[name][i] = value;
    if (name === 'q') t.q[i + 1] = NaN;  // a later bad entry is not the one named
    assert.throws(() => core.attention({ ...t, heads: 3, seqLen: 17, dk: 5, weights: false }), re);
  }
  // exactly 1e6 in magnitude is allowed
  const t = { q: good(), k: good(), v: good() };
  t.k[3] = -1e6;
  assert.equal(core.attention({ ...t, heads: 3, seqLen: 17, dk: 5, weights: false }).output.length, n);
});

test('the packed parameters (experiments.js pack: true) are checked at the boundary: a bad number is a RangeError naming it', async () => {
  // the raw module, as core.js loads it, with numbers core.js would never write
  const { readFile } = await import('node:fs/promises');
  const { default: factory } = await import('../../wasm/dist/sqrtdk-simd.mjs');
  const mod = await factory({ wasmBinary: await readFile(new URL('../../wasm/dist/sqrtdk-simd.wasm', import.meta.url)) });
  const { EXPERIMENTS, packedLayout } = await import('../../wasm/js/experiments.js');
  const { packParams, checked } = await import('../../wasm/js/checks.js');
  assert.equal(EXPERIMENTS.attention.pack, true);
  const layout = packedLayout('attention');
  const at = mod.packedParams() / 8;
  assert.ok(Number.isInteger(at) && at > 0);
  const q = randn(2 * 3 * 4, 1);
  const o = { q, k: q, v: q, mask: null, sinks: null, alibi: null, queryScale: null };
  const params = { heads: 2, headsKv: 0, seqLen: 3, dk: 4, dv: 0, scale: 'inv_sqrt_dk', kernel: 'simd', weights: false, causal: false, softcap: 0, maskedRow: 'zero', lse: false };
  packParams(mod.HEAPF64, at, layout, params);
  const good = checked(mod.attention(o));
  // the same numbers as core.attention, bit for bit
  assert.deepEqual(good.output.slice(), core.attention({ q, k: q, v: q, heads: 2, seqLen: 3, dk: 4, weights: false }).output);
  const offset = (key) => layout.find(([k]) => k === key)[2];
  for (const [key, value, re] of [
    ['heads', 2.5, /heads = 2\.5 is not an integer/],
    ['kernel', 2, /kernel: index 2 names none of its 2 values/],
    ['maskedRow', -1, /maskedRow: index -1 names none of its 2 values/],
    ['weights', 0.5, /weights = 0\.5 is not a boolean/],
    ['scale', 9, /scale: index 9 names none of its 4 values/],
  ]) {
    packParams(mod.HEAPF64, at, layout, params);
    mod.HEAPF64[at + offset(key)] = value;
    assert.throws(() => checked(mod.attention(o)), (e) => e instanceof RangeError && re.test(e.message), key);
  }
});
