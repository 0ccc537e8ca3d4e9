// The loader refuses what is not this core, by name (issue 21): a .wasm reporting another version
// (a stale cache entry, another release), an empty or foreign module, a detached input; and it
// reads parameters as own properties only (a polluted Object.prototype changes nothing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore, CORE_VERSION } from '../../wasm/js/core.js';

const simdWasm = readFileSync(new URL('../../wasm/dist/sqrtdk-simd.wasm', import.meta.url));

/** The build's bytes with its version string replaced by another of the same length. */
function withVersion(bytes, version) {
  assert.equal(version.length, CORE_VERSION.length);
  const b = Buffer.from(bytes);
  const at = b.indexOf(Buffer.from(CORE_VERSION + '\0'));
  assert.ok(at >= 0, 'the version string is in the data section');
  b.write(version, at, 'latin1');
  return new Uint8Array(b);
}

test('a core that reports another version is refused with a TypeError naming the source and both versions', async () => {
  const other = CORE_VERSION === '9.9.9' ? '8.8.8' : '9.9.9';
  const bytes = withVersion(simdWasm, other);
  await assert.rejects(loadCore({ build: 'simd128', wasmBinary: bytes }), (e) => {
    assert.ok(e instanceof TypeError, e);
    assert.match(e.message, new RegExp(`^loadCore: wasmBinary is core ${other.replaceAll('.', '\\.')}, not ${CORE_VERSION.replaceAll('.', '\\.')}`));
    return true;
  });
  await assert.rejects(loadCore({ build: 'simd128', wasmModule: new WebAssembly.Module(bytes) }), /^TypeError: loadCore: wasmModule is core 9\.9\.9|wasmModule is core/);
  // the real build still loads, and reports this version
  const core = await loadCore({ build: 'simd128', wasmBinary: simdWasm });
  assert.equal(core.info().version, CORE_VERSION);
});

test('an empty wasm module and detached inputs give named TypeErrors, not engine errors', async () => {
  const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  await assert.rejects(loadCore({ wasmModule: new WebAssembly.Module(empty) }), { name: 'TypeError', message: /^loadCore: wasmModule is not the 'simd128' build of this core \(it exports no memory: an empty or foreign WebAssembly module\)$/ });
  await assert.rejects(loadCore({ wasmBinary: empty }), { name: 'TypeError', message: /^loadCore: the wasm module did not load \(custom binary 'simd128'\): wasmBinary exports no memory/ });
  const detach = (buffer) => structuredClone(buffer, { transfer: [buffer] });
  const ab = new ArrayBuffer(8);
  detach(ab);
  await assert.rejects(loadCore({ wasmBinary: ab }), { name: 'TypeError', message: 'loadCore: wasmBinary is a detached ArrayBuffer (it was transferred)' });
  const u8 = new Uint8Array(8);
  detach(u8.buffer);
  await assert.rejects(loadCore({ wasmBinary: u8 }), { name: 'TypeError', message: /^loadCore: wasmBinary is a Uint8Array over a detached ArrayBuffer/ });
  const core = await loadCore();
  const dks = new Int32Array([64]);
  detach(dks.buffer);
  assert.throws(() => core.scoreVariance({ dks, samples: 100 }), { name: 'TypeError', message: /^scoreVariance: dks is a Int32Array over a detached ArrayBuffer/ });
  const logits = new Float64Array([1, 0]);
  detach(logits.buffer);
  assert.throws(() => core.softmaxJacobian(logits), { name: 'TypeError', message: /^softmaxJacobian: logits is a Float64Array over a detached ArrayBuffer/ });
});

test('parameters are read as own properties only: a polluted Object.prototype changes no result and no option', async () => {
  const core = await loadCore();
  const params = { heads: 1, seqLen: 16, dk: 64, perRow: false, heatmapSize: 4 };
  const clean = core.attentionStats(params);
  const keys = ['scale', 'seed', 'kernel', 'causal', 'softcap', 'variance', 'build', 'wasmBinary'];
  const values = { scale: 'none', seed: 5, kernel: 'scalar', causal: true, softcap: 1, variance: 9, build: 'baseline', wasmBinary: new Uint8Array(8) };
  try {
    for (const k of keys) Object.defineProperty(Object.prototype, k, { value: values[k], configurable: true, writable: true });
    const polluted = core.attentionStats(params);
    assert.equal(polluted.summary.entropy.mean, clean.summary.entropy.mean);
    assert.deepEqual(polluted.summary.maxWeight, clean.summary.maxWeight);
    const sweep = core.saturationSweep({ dks: [8], heads: 1, seqLen: 8, gradients: false });
    assert.equal(sweep.points.length, 3, 'the default scales, not a polluted one');
    // loadCore's options too: no polluted build or wasmBinary is used
    const again = await loadCore({});
    assert.equal(again.info().build, core.info().build);
    const run = core.createTrainingRun({ steps: 1, evalSize: 4, batch: 2 });
    try { assert.equal(run.config.seed, 0); } finally { run.dispose(); }
  } finally {
    for (const k of keys) delete Object.prototype[k];
  }
});
