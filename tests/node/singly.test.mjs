// Issue 20: statistics computed only when asked for are bit for bit the full call's. Without the
// spectral norm (spectral: false) every other number of attentionStats and saturationSweep equals
// the full call's exactly — plain, causal, soft-capped (Lanczos) and with sinks — and jacSpec is NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../wasm/js/core.js';

const core = await loadCore();

/** Every number of a result, by path, jacSpec left out. */
function numbers(v, path = '', out = new Map()) {
  if (/jacSpec/.test(path)) return out;
  if (typeof v === 'number') out.set(path, v);
  else if (ArrayBuffer.isView(v)) Array.from(v).forEach((x, i) => out.set(`${path}[${i}]`, x));
  else if (Array.isArray(v)) v.forEach((x, i) => numbers(x, `${path}[${i}]`, out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v).sort()) numbers(v[k], `${path}.${k}`, out);
  return out;
}
function bitwise(a, b, what) {
  const x = numbers(a), y = numbers(b);
  assert.deepEqual([...x.keys()], [...y.keys()], what);
  for (const [k, v] of x) assert.ok(Object.is(v, y.get(k)), `${what} ${k}: ${v} vs ${y.get(k)}`);
}

for (const [name, extra] of [['plain', {}], ['causal', { causal: true }], ['soft-capped', { softcap: 5 }], ['sinks', { sinks: [0.5, -1] }], ['no gradients', { gradients: false }]]) {
  test(`attentionStats without the spectral norm equals the full call, bit for bit: ${name}`, () => {
    for (const kernel of ['scalar', 'simd']) {
      const p = { heads: 2, seqLen: 48, dk: 16, seed: 3, scale: 'none', kernel, ...extra };
      const full = core.attentionStats(p);
      const lean = core.attentionStats({ ...p, spectral: false });
      bitwise(lean, full, `${name} ${kernel}`);
      assert.ok(Number.isNaN(lean.summary.jacSpec.mean) && lean.rows.jacSpec.length === 0);
      assert.ok(full.summary.jacSpec.mean > 0);
    }
  });
}

test('saturationSweep without the spectral norm equals the full sweep, bit for bit', () => {
  const p = { dks: [1, 8, 64], scales: ['none', 'inv_sqrt_dk'], heads: 2, seqLen: 32, seed: 5 };
  const full = core.saturationSweep(p);
  const lean = core.saturationSweep({ ...p, spectral: false });
  bitwise(lean, full, 'sweep');
  assert.ok(lean.points.flat().every((s) => Number.isNaN(s.jacSpec.median)));
  assert.throws(() => core.saturationSweep({ ...p, spectral: 1 }), (e) => e instanceof TypeError && /spectral must be a boolean/.test(e.message));
});

test('longContext draws its keys once for a panel\'s methods: any order of calls gives each call\'s own numbers', async () => {
  // the baseline build is another module (its own kept keys): one call each, in a fresh order
  const other = await loadCore({ build: 'baseline' });
  const calls = [
    { seed: 1, seqLens: [64, 4096], methods: ['logn'] }, { seed: 1, seqLens: [64, 8192], methods: ['yarn'] },
    { seed: 2, seqLens: [128], methods: ['fixed'] }, { seed: 1, seqLens: [256], methods: ['article'], dk: 32 },
    { seed: 1, seqLens: [64, 4096], methods: ['logn'] },
  ].map((c) => ({ dk: 64, queries: 4, kernel: 'scalar', ...c }));
  const here = calls.map((c) => core.longContext(c));
  const fresh = [...calls].reverse().map((c) => other.longContext(c)).reverse();
  here.forEach((r, i) => bitwise(r, fresh[i], `call ${i}`));
  bitwise(here[0], here[4], 'the same call again');
});
