// The core's first part (wasm/dist/sqrtdk-simd-first: the SIMD128 build's objects linked with only
// the variance view's calls) gives the full core's numbers bit for bit on every request the
// variance view sends (its sweep over every d_k, its point at each d_k, the previews and per-d_k
// splits of worker/plan.ts) and the same cost estimates; it refuses what it does not have with a
// TypeError naming the full core, and loadCore checks the part option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { loadCore, FIRST_PART_CALLS, CORE_PARTS } from '../../wasm/js/core.js';
import { DK_STEPS, SAMPLE_STEPS } from '../../web/src/state/schema.js';

const full = await loadCore({ build: 'simd128' });
const first = await loadCore({ build: 'simd128', part: 'first' });

/** Whether a and b are the same bits: numbers by Object.is (−0 ≠ 0), typed arrays byte for byte. */
function sameBits(a, b, path = 'result') {
  if (ArrayBuffer.isView(a)) {
    assert.ok(ArrayBuffer.isView(b) && a.constructor === b.constructor, `${path}: not the same typed array`);
    assert.deepEqual(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), new Uint8Array(b.buffer, b.byteOffset, b.byteLength), `${path}: bytes differ`);
    return;
  }
  if (typeof a === 'number') { assert.ok(Object.is(a, b), `${path}: ${a} ≠ ${b}`); return; }
  if (a === null || typeof a !== 'object') { assert.equal(a, b, path); return; }
  assert.deepEqual(Object.keys(a), Object.keys(b), `${path}: keys differ`);
  for (const k of Object.keys(a)) sameBits(a[k], b[k], `${path}.${k}`);
}

/** The variance view's requests (web/src/requests/attention.ts, worker/plan.ts) at samples n and seed s. */
function requests(n, s) {
  const out = [
    { dks: [...DK_STEPS], samples: n, seed: s, bins: 4 },  // the sweep
    { dks: [...DK_STEPS], samples: 256, seed: s, bins: 4 },  // its preview (PREVIEW_SAMPLES)
    { dks: DK_STEPS.slice(0, 7), samples: n, seed: s, bins: 4 },  // a sweep cut by the budget
  ];
  for (const dk of DK_STEPS) {
    out.push({ dks: [dk], samples: n, seed: s, histDk: dk, bins: 60 });  // the point
    out.push({ dks: [dk], samples: n, seed: s, bins: 4 });  // one d_k of a split sweep
  }
  return out;
}

test('the first part is the SIMD128 build, part first, of this version; the full core says full', () => {
  assert.deepEqual(CORE_PARTS, ['full', 'first']);
  assert.deepEqual(FIRST_PART_CALLS, ['scoreVariance']);
  const a = full.info(), b = first.info();
  assert.equal(b.part, 'first');
  assert.equal(a.part, 'full');
  assert.equal(first.part, 'first');
  assert.equal(b.version, a.version);
  assert.equal(b.build, 'simd128');
  assert.equal(b.simd, true);
});

test('scoreVariance and its cost: the first part gives the full core\'s bits on the variance view\'s requests', () => {
  let calls = 0;
  // every request at the default samples (2000) and the fewest (500), three seeds at the default
  for (const n of [SAMPLE_STEPS[0], 2000]) {
    for (const s of n === 2000 ? [1, 7, 4294967295] : [1]) {
      for (const p of requests(n, s)) {
        sameBits(first.scoreVariance(p), full.scoreVariance(p), `scoreVariance(${JSON.stringify(p)})`);
        sameBits(first.cost('scoreVariance', p), full.cost('scoreVariance', p), `cost(${JSON.stringify(p)})`);
        calls++;
      }
    }
  }
  // the other sample counts at one point and a cut sweep, and other parameters of the library call
  // (the interview drill's σ², a correlation)
  const more = SAMPLE_STEPS.filter((n) => n !== 2000 && n !== SAMPLE_STEPS[0]).flatMap((n) => [
    { dks: [512], samples: n, seed: 1, histDk: 512, bins: 60 }, { dks: DK_STEPS.slice(0, 8), samples: n, seed: 1, bins: 4 },
  ]);
  for (const p of [...more, { dks: [64], samples: 2000, seed: 1, variance: 2.5, bins: 4 }, { dks: [1, 64, 512], samples: 5000, seed: 7, correlation: 0.3 }]) {
    sameBits(first.scoreVariance(p), full.scoreVariance(p), `scoreVariance(${JSON.stringify(p)})`);
    calls++;
  }
  assert.ok(calls > 100);
});

test('the first part refuses a bad parameter as the full core does, and what it lacks with a TypeError naming the full core', () => {
  for (const p of [{ dks: [0] }, { dks: [64], samples: 1 }, { dks: [64], bins: 2 }, { dks: [16384], samples: 1000000 }]) {
    const got = (c) => { try { c.scoreVariance(p); return null; } catch (e) { return `${e.name}: ${e.message}`; } };
    assert.notEqual(got(full), null);
    assert.equal(got(first), got(full));
  }
  for (const [name, f] of [
    ['attentionStats', (c) => c.attentionStats({ dk: 8 })],
    ['saturationSweep', (c) => c.saturationSweep({ dks: [8] })],
    ['softmaxJacobian', (c) => c.softmaxJacobian([1, 2])],
    ['precisionLab', (c) => c.precisionLab({})],
    ['longContext', (c) => c.longContext({ seqLens: [64] })],
    ['modelScales', (c) => c.modelScales()],
    ['createTrainingRun', (c) => c.createTrainingRun({})],
    ['attentionStats', (c) => c.cost('attentionStats', { dk: 8 })],
  ]) {
    assert.doesNotThrow(() => f(full), name);
    assert.throws(() => f(first), (e) => e instanceof TypeError && e.message.startsWith(`${name}: not in the first part`) && /part: 'full'/.test(e.message), name);
  }
});

test('loadCore: part is checked, the baseline build has no first part, and a binary of the other part is refused', async () => {
  await assert.rejects(loadCore({ part: 'half' }), (e) => e instanceof RangeError && /part = 'half' is not one of 'full', 'first'/.test(e.message));
  await assert.rejects(loadCore({ build: 'baseline', part: 'first' }), (e) => e instanceof RangeError && /baseline build loads whole/.test(e.message));
  const firstBytes = await readFile(new URL('../../wasm/dist/sqrtdk-simd-first.wasm', import.meta.url));
  const fullBytes = await readFile(new URL('../../wasm/dist/sqrtdk-simd.wasm', import.meta.url));
  // the same bytes as a custom binary: the first part again
  assert.equal((await loadCore({ build: 'simd128', part: 'first', wasmBinary: firstBytes })).part, 'first');
  // each part's .wasm goes with its own loader: the other part's bytes do not link (or are not that part)
  await assert.rejects(loadCore({ build: 'simd128', wasmBinary: firstBytes }), TypeError);
  // refused as not the part asked for, never as "not the simd128 build" (it is that build)
  await assert.rejects(loadCore({ build: 'simd128', part: 'first', wasmBinary: fullBytes }),
    (e) => e instanceof TypeError && /\(custom binary 'simd128', part first: each part's \.wasm goes with its own part\)/.test(e.message));
  await assert.rejects(loadCore({ build: 'simd128', part: 'first', wasmModule: new WebAssembly.Module(fullBytes) }),
    (e) => e instanceof TypeError && /^loadCore: wasmModule is not the first part of the 'simd128' build of this core \(/.test(e.message));
  // and the other way round: the first part's module under the full part's loader names the parts
  await assert.rejects(loadCore({ build: 'simd128', wasmModule: new WebAssembly.Module(firstBytes) }),
    (e) => e instanceof TypeError && /^loadCore: wasmModule is not the 'simd128' build of this core \(.*each part's \.wasm loads only with its own part, and this load asked for part 'full'\)$/.test(e.message));
  // part 'first' with build 'auto' on this engine (SIMD128): the first part
  assert.equal((await loadCore({ part: 'first' })).info().part, 'first');
});
