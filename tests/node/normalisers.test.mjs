// normalisers and qkClip through the JS API: explicit logits against an independent double reference written here (softmax, off-by-one, a sink, sigmoid with b = −ln n, the differential's (1 − λ)p), the sources' closed forms, QK-Clip's η per head and per KV group, and bad values named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../wasm/js/core.js';
import { randn } from './helpers.mjs';

const core = await loadCore();
const row = (r, name) => r.rows.find((x) => x.name === name);

/** The weights of each normaliser on one row in double, from its definition. */
function reference(s, { sink = 1, lambda = 0.8 } = {}) {
  const n = s.filter((x) => x !== -Infinity).length;
  const m = Math.max(...s);
  const e = s.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  const softmax = e.map((x) => x / z);
  const withSink = (S) => { const mm = Math.max(m, S); const ee = s.map((x) => Math.exp(x - mm)); const zz = ee.reduce((a, b) => a + b, 0) + Math.exp(S - mm); return ee.map((x) => x / zz); };
  const b = -Math.log(n);
  return {
    softmax, offByOne: withSink(0), sink: withSink(sink),
    sigmoid: s.map((x) => (x === -Infinity ? 0 : 1 / (1 + Math.exp(-(x + b))))),
    differential: softmax.map((p) => p - lambda * p),
  };
}
const entropy = (w) => { const z = w.reduce((a, b) => a + b, 0); return -w.reduce((a, x) => (x > 0 ? a + (x / z) * Math.log(x / z) : a), 0); };

test('normalisers on explicit logits: row sum, first key, entropy and weights against a double reference', () => {
  const logits = Array.from(randn(64, 11), (x) => 3 * x);
  logits[5] = -Infinity;  // a masked key: not counted in n
  for (const [sink, lambda] of [[1, 0.8], [-2.5, 0.3]]) {
    const r = core.normalisers({ logits, sink, lambda });
    const ref = reference(logits, { sink, lambda });
    assert.equal(r.keys, 64);
    assert.ok(Math.abs(r.sigmoidBias + Math.log(63)) < 1e-12);
    for (const name of ['softmax', 'offByOne', 'sink', 'sigmoid', 'differential']) {
      const x = row(r, name), w = ref[name];
      const sum = w.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(x.rowSum - sum) < 2e-6, `${name} row sum ${x.rowSum} vs ${sum}`);
      assert.ok(Math.abs(x.firstMass - w[0]) < 1e-6, `${name} first`);
      assert.ok(Math.abs(x.entropy - entropy(w)) < 1e-5, `${name} entropy`);
      w.forEach((v, j) => assert.ok(Math.abs(x.weights[j] - v) < 1e-6, `${name} w[${j}]`));
    }
  }
});

test('normalisers: the sources’ closed forms (n/(n + 1) at all-zero logits; 1.4366 for [2, 1, 0]); a negative weight has no entropy', () => {
  for (const n of [4, 128]) {
    const r = core.normalisers({ logits: new Array(n).fill(0) });
    assert.ok(Math.abs(row(r, 'sigmoid').rowSum - n / (n + 1)) < 1e-6);
    assert.ok(Math.abs(row(r, 'offByOne').rowSum - n / (n + 1)) < 1e-6);
    assert.ok(Math.abs(row(r, 'softmax').rowSum - 1) < 1e-6);
  }
  assert.equal(row(core.normalisers({ logits: [0, 0, 0, 0] }), 'sigmoid').rowSum.toFixed(4), '0.8000');
  assert.equal(row(core.normalisers({ logits: new Array(128).fill(0) }), 'offByOne').rowSum.toFixed(5), '0.99225');
  assert.equal(row(core.normalisers({ logits: [2, 1, 0] }), 'sigmoid').rowSum.toFixed(4), '1.4366');
  // drawn q, k: p₁ − λp₂ of two heads goes negative, and those rows' entropy is not applicable
  const d = row(core.normalisers({ heads: 2, seqLen: 32, dk: 16, lambda: 1 }), 'differential');
  assert.ok(Math.abs(d.rowSum) < 1e-6, 'λ = 1: the rows sum to 0');
  assert.equal(d.entropyRows, 0);
  assert.equal(d.entropy, null, 'not applicable, said as null');
  assert.equal(row(core.normalisers({ heads: 1, seqLen: 8, dk: 4 }), 'differential').rowSum, null, 'one head: no pair');
});

test('qkClip: η = min(1, τ / S_max) per head, per KV group under GQA, and the clipped maximum is τ', () => {
  const mha = core.qkClip({ heads: 4, seqLen: 32, dk: 32, qGain: 40 });
  for (let h = 0; h < 4; h++) {
    assert.ok(Math.abs(mha.gamma[h] - Math.min(1, 100 / mha.maxLogit[h])) < 1e-12);
    if (mha.gamma[h] < 1) assert.ok(Math.abs(mha.clippedMax[h] - 100) < 1e-3, `head ${h}: ${mha.clippedMax[h]}`);
  }
  const gqa = core.qkClip({ heads: 8, headsKv: 2, seqLen: 32, dk: 32, qGain: 40, tau: 80 });
  assert.equal(gqa.groups, 2);
  for (let g = 0; g < 2; g++) {
    const m = Math.max(...Array.from(gqa.maxLogit.subarray(4 * g, 4 * g + 4)));
    assert.equal(gqa.groupMaxLogit[g], m);
    for (let h = 4 * g; h < 4 * g + 4; h++) assert.ok(Math.abs(gqa.gamma[h] - Math.min(1, 80 / m)) < 1e-12);
    assert.ok(Math.abs(Math.max(...Array.from(gqa.clippedMax.subarray(4 * g, 4 * g + 4))) - 80) < 1e-3);
  }
  // MLA: every logit × η (the rotary query part × η, the shared rotary key untouched)
  const mla = core.qkClip({ heads: 4, seqLen: 16, dk: 32, ropeDim: 8, qGain: 40 });
  const eta = mla.gamma[mla.row.head];
  mla.row.before.forEach((x, j) => assert.ok(Math.abs(mla.row.after[j] - eta * x) < 1e-4 * (1 + Math.abs(x))));
  // below τ nothing is clipped
  assert.equal(core.qkClip({ heads: 2, seqLen: 8, dk: 8 }).clippedHeads, 0);
});

test('bad values are refused, naming them', () => {
  assert.throws(() => core.normalisers({ lambda: 3 }), /lambda/);
  assert.throws(() => core.normalisers({ logits: [1, 2], seqLen: 4 }), /seqLen cannot go with logits/);
  assert.throws(() => core.normalisers({ logits: [1, NaN] }), /logits\[1\]/);
  assert.throws(() => core.qkClip({ tau: 0 }), /tau/);
  assert.throws(() => core.qkClip({ heads: 8, headsKv: 3 }), /headsKv = 3/);
  assert.throws(() => core.qkClip({ heads: 8, headsKv: 2, ropeDim: 8 }), /ropeDim = 8 \(MLA\) needs headsKv = heads/);
  assert.throws(() => core.qkClip({ dk: 16, ropeDim: 16 }), /ropeDim = 16 is outside 0..15/);
});
