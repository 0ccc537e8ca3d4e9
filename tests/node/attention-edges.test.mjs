// attention at its edges (found by an adversarial pass): the unfused path without weights, a polluted Object.prototype, a caller's Float32Array[Symbol.species]; each test on a module instance of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randn } from './helpers.mjs';

let instance = 0;
// a core over a module instance of its own (a trap or a corruption in one test cannot reach another)
const freshCore = async (options = { kernel: 'simd' }) => (await import(`../../wasm/js/core.js?instance=${++instance}`)).loadCore(options);
const bits = (a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const tensors = (heads, L, dk, dv = dk, seed = 1) => ({ q: randn(heads * L * dk, seed), k: randn(heads * L * dk, seed + 1), v: randn(heads * L * dv, seed + 2), heads, seqLen: L, dk });

test('simd, weights: false with lse: true or dv ≠ dk (no mask, causal, soft-cap, ALiBi, queryScale or sinks): the same numbers as with weights, no trap, and the module still sound', async (t) => {
  // run_attention reserves the head scratch only when it expects the unfused path, but takes that path also for
  // lse and dv ≠ dk: the scores are then written through scratch.data() of a buffer never reserved (or reserved
  // smaller by an earlier call), over the module's static data
  for (const [name, shape, extra] of [
    ['lse: true', [1, 64, 4], { lse: true }],
    ['dv ≠ dk', [1, 200, 4, 3], { dv: 3 }],
    ['dv ≠ dk after a smaller causal call', [1, 9, 6, 5], { dv: 5 }],
  ]) {
    await t.test(name, async () => {
      const core = await freshCore();
      const [heads, L, dk, dv] = shape;
      const p = { ...tensors(heads, L, dk, dv), ...extra };
      const small = tensors(1, 7, 8, 8, 9);
      const smallWant = core.attention({ ...small, weights: false });
      if (name.includes('after')) core.attention({ ...small, causal: true, weights: false });
      const got = core.attention({ ...p, weights: false });
      const want = core.attention({ ...p, weights: true });
      assert.deepEqual(bits(got.output), bits(want.output));
      if (extra.lse) assert.deepEqual(bits(got.lse), bits(want.lse));
      // and a later call is the one of a fresh module
      assert.deepEqual(bits(core.attention({ ...small, weights: false }).output), bits(smallWant.output));
    });
  }
});

test('a polluted Object.prototype.lse or .sinkWeights neither breaks a call nor adds a field to its result', async () => {
  const core = await freshCore();
  const p = tensors(1, 2, 4);
  const want = core.attention(p);
  for (const [key, value] of [['lse', 1], ['lse', new Float32Array([7])], ['sinkWeights', new Float32Array([0.5, 0.5])]]) {
    Object.prototype[key] = value;
    try {
      const r = core.attention(p);
      assert.deepEqual(Object.keys(r), Object.keys(want), `Object.prototype.${key}`);
      assert.deepEqual(bits(r.output), bits(want.output));
    } finally {
      delete Object.prototype[key];
    }
  }
});

test('the copy of a result out of the heap runs no caller code: a Float32Array[Symbol.species] that calls the core does not change it', async () => {
  const core = await freshCore();
  const want = bits(core.attention(tensors(1, 2, 4)).output);
  let inside = false;
  const species = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Float32Array), Symbol.species);
  Object.defineProperty(Float32Array, Symbol.species, {
    configurable: true,
    get() {
      if (!inside) { inside = true; core.attention(tensors(1, 2, 4, 4, 50)); inside = false; }
      return Float32Array;
    },
  });
  try {
    assert.deepEqual(bits(core.attention(tensors(1, 2, 4)).output), want);
  } finally {
    delete Float32Array[Symbol.species];
    assert.equal(Object.getOwnPropertyDescriptor(Float32Array, Symbol.species), undefined);
    assert.ok(species);
  }
});
