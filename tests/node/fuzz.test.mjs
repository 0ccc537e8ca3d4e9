// Property-based fuzzing of every public function of the core (fast-check, seeded and bounded):
// each call gets a mix of valid small values and hostile ones (wrong types, out-of-range numbers,
// NaN, huge lengths, fake or lying typed arrays, unknown keys, incompatible parameters). Every
// outcome must be a result or a RangeError/TypeError whose message starts with the function's
// name and names one of its parameters; the wasm heap stays under HEAP_BOUND; a fixed reference
// call returns the same numbers afterwards.
//
// `npm test` runs FUZZ_RUNS = 5400 calls in all (540 per function, ~15 s here); `npm run fuzz` runs 30000.
// FUZZ_SEED picks another seed (default 12); a failure prints the seed and path to replay it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadCore } from '../../wasm/js/core.js';

const TOTAL = Number(process.env.FUZZ_RUNS ?? 5400);
const SEED = Number(process.env.FUZZ_SEED ?? 12);
const FUNCTIONS = 10;
const RUNS = Math.max(1, Math.ceil(TOTAL / FUNCTIONS));
/** The wasm heap after fuzzing stays under this (valid calls are small; refusals copy nothing). */
const HEAP_BOUND = 256 * 1024 * 1024;

const core = await loadCore();
const REF = { heads: 2, seqLen: 16, dk: 8, seed: 5, perRow: true, heatmapSize: 4, kernel: 'scalar' };
const reference = core.attentionStats(REF);

// ---- values ----
const HOSTILE = [undefined, null, NaN, Infinity, -Infinity, -1, 0, -0, 1.5, 2 ** 31, 2 ** 32, 2 ** 53, 1e300, -1e300,
  '', '8', 'inv_dk', 'simd', true, false, [], {}, [1, 2], [NaN], 1n, Symbol('s'), () => 1, new Date(0),
  65, 16385, 20001, 1e7, 4294967296];  // no large in-range sizes: the budget tests cover those
const hostile = fc.constantFrom(...HOSTILE);
const pick = (...xs) => fc.constantFrom(...xs);
/** Mostly valid, sometimes hostile. */
const mix = (valid) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostile });

function lyingLength(arr, claimed) {
  Object.defineProperty(arr, 'length', { value: claimed });
  return arr;
}
function fakeFloat32(n) {
  const o = { length: n, buffer: new ArrayBuffer(4 * n), byteLength: 4 * n, BYTES_PER_ELEMENT: 4 };
  return Object.setPrototypeOf(o, Float32Array.prototype);
}
/** A tensor for n elements: right, wrong length, lying, of another kind, with a bad entry, or fake. */
const tensor = (n) => fc.tuple(pick('ok', 'ok', 'ok', 'short', 'long', 'lie', 'lie-long', 'f64', 'nan', 'huge', 'fake', 'array', 'empty', 'hostile'), fc.integer({ min: 0, max: 1000 }), hostile)
  .map(([kind, s, h]) => {
    const fill = (a) => a.map((_, i) => Math.sin(i * 0.7 + s));
    switch (kind) {
      case 'ok': return fill(new Float32Array(n));
      case 'short': return fill(new Float32Array(Math.max(0, n - 1)));
      case 'long': return fill(new Float32Array(n + 3));
      case 'lie': return lyingLength(fill(new Float32Array(n)), 1);
      case 'lie-long': return lyingLength(fill(new Float32Array(1)), n);
      case 'f64': return fill(new Float64Array(n));
      case 'nan': { const a = fill(new Float32Array(n)); a[s % Math.max(1, n)] = NaN; return a; }
      case 'huge': { const a = fill(new Float32Array(n)); a[s % Math.max(1, n)] = 1e7; return a; }
      case 'fake': return fakeFloat32(n);
      case 'array': return Array.from({ length: n }, (_, i) => i);
      case 'empty': return new Float32Array(0);
      default: return h;
    }
  });
const numbers = fc.tuple(pick('ok', 'ok', 'typed', 'f32', 'holes', 'strings', 'lengthy', 'bigint', 'huge', 'minf', 'nan', 'hostile', 'empty'), fc.integer({ min: 1, max: 40 }), hostile)
  .map(([kind, n, h]) => {
    const xs = Array.from({ length: n }, (_, i) => Math.cos(i) * 20 - 3);
    switch (kind) {
      case 'ok': return xs;
      case 'typed': return Float64Array.from(xs);
      case 'f32': return lyingLength(Float32Array.from(xs), 2 ** 31);
      case 'holes': return new Array(n);
      case 'strings': return xs.map(String);
      case 'lengthy': return { length: 2 ** 32 };
      case 'bigint': return new BigInt64Array(n);
      case 'huge': return new Array(2 ** 30);
      case 'minf': return [...xs.slice(1), -Infinity];
      case 'nan': return [...xs, NaN];
      case 'empty': return [];
      default: return h;
    }
  });
const intList = (valid, unique = false) => fc.oneof(
  // mostly valid lists; `unique`: without repeats, for lists that refuse them (longContext's seqLens)
  { weight: 4, arbitrary: unique ? fc.uniqueArray(valid, { minLength: 1, maxLength: 4 }) : fc.array(valid, { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.array(mix(valid), { minLength: 0, maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom({ length: 2 ** 32 }, new Array(2 ** 31), Int32Array.of(4, 8), new Float64Array([2.5]), new DataView(new ArrayBuffer(4)), Array(70).fill(1)) },
  { weight: 1, arbitrary: hostile },
);
const scaleArb = fc.oneof({ weight: 40, arbitrary: mix(pick('none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model', 0.5, 2, 'bogus', { power: 0.5 }, { power: 0.3 })) },
  { weight: 1, arbitrary: pick({ power: 3 }, { power: -1 }, { power: NaN }, { power: '1' }, { pow: 1 }, { power: 1, extra: 2 }) });
/** A tensor of n elements, mostly a valid one. */
const mostlyOk = (n) => fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 99 }).map((s) => Float32Array.from({ length: n }, (_, i) => Math.sin(i + s) * 30)) }, { weight: 1, arbitrary: tensor(n) });
/** A new optional parameter: mostly absent, else mostly valid. */
const optional = (valid) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: mix(valid) });
const correlationArb = optional(pick(0, 0.1, -0.5, 1, -1));
/** One sink logit per head (h of them): right, wrong length, with −∞, NaN, +∞ or out of range. */
const sinksArb = (h) => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, fc.constant(null),
  { weight: 2, arbitrary: pick(Array(h).fill(1), Array(h).fill(-2.5)) }, pick(Array(h).fill(1), Float32Array.from(Array(h).fill(0.5)), Array(h).fill(-Infinity), [...Array(Math.max(0, h - 1)).fill(0), -Infinity],
    Array(h + 1).fill(0), [], [...Array(Math.max(0, h - 1)).fill(0), NaN], [...Array(Math.max(0, h - 1)).fill(0), Infinity], Array(h).fill(2e6), Array(h).fill('1')),
  hostile);
const kernelArb = mix(pick('scalar', 'simd', 'gpu'));
/** An object of optional fields, sometimes with an unknown key, sometimes not an object at all. */
const params = (fields) => fc.oneof(
  { weight: 12, arbitrary: fc.record(fields, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }).map((p) => ({ ...p, bogusKey: 1 })) },
  { weight: 1, arbitrary: hostile },
);

// ---- outcomes ----
const stats = { results: 0, refusals: 0 };
/** Runs f; a result passes, a refusal must be a RangeError/TypeError naming one of `names`. */
function outcome(what, names, f, prefixes = [what]) {
  let r;
  try {
    r = f();
  } catch (e) {
    assert.ok(e instanceof RangeError || e instanceof TypeError, `${what}: ${e?.constructor?.name}: ${e?.message}`);
    const prefix = prefixes.find((x) => e.message.startsWith(`${x}: `));
    assert.ok(prefix, `message does not start with ${prefixes.join(' or ')}: ${e.message}`);
    const named = names.some((n) => new RegExp(`(^|[^A-Za-z])${n}([^A-Za-z]|$)`).test(e.message.slice(prefix.length)));
    assert.ok(named, `${what}: no parameter named in: ${e.message}`);
    stats.refusals += 1;
    return null;
  }
  stats.results += 1;
  return r;
}
const run = (arb, f) => fc.assert(fc.property(arb, f), { seed: SEED, numRuns: RUNS });

const small = { heads: pick(1, 2, 4), seqLen: pick(1, 2, 3, 8, 16), dk: pick(1, 2, 4, 8, 16) };

test(`scoreVariance (${RUNS} calls)`, () => {
  run(params({ dks: intList(pick(1, 2, 4, 64)), samples: mix(pick(2, 10, 100, 500)), seed: mix(pick(0, 1, 4294967295)), variance: mix(pick(0.5, 1, 4)), histDk: mix(pick(1, 8, 64)), bins: mix(pick(4, 10, 60)), correlation: correlationArb }), (p) => {
    outcome('scoreVariance', ['params', 'dks', 'samples', 'seed', 'variance', 'histDk', 'bins', 'correlation', 'bogusKey'], () => core.scoreVariance(p));
  });
});

test(`attentionStats (${RUNS} calls)`, () => {
  run(params({ heads: mix(small.heads), headsKv: mix(pick(0, 1, 2, 3)), seqLen: mix(small.seqLen), dk: mix(small.dk), scale: scaleArb, seed: mix(pick(0, 9)), variance: mix(pick(1, 2)), threshold: mix(pick(0.5, 0.99, 1)), kernel: kernelArb, heatmapSize: mix(pick(1, 4, 512)), perRow: mix(pick(true, false)), gradients: mix(pick(true, false)), causal: mix(pick(true, false)), softcap: mix(pick(1, 30)), correlation: correlationArb, sinks: sinksArb(2) }), (p) => {
    outcome('attentionStats', ['params', 'heads', 'headsKv', 'seqLen', 'dk', 'scale', 'seed', 'variance', 'threshold', 'kernel', 'heatmapSize', 'perRow', 'gradients', 'causal', 'softcap', 'correlation', 'sinks', 'bogusKey'], () => core.attentionStats(p));
  });
});

test(`saturationSweep (${RUNS} calls)`, () => {
  const scales = fc.oneof({ weight: 4, arbitrary: fc.array(scaleArb, { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: fc.constantFrom([], Array(9).fill('none'), { length: 2 ** 32 }, 'none') });
  run(params({ dks: intList(pick(1, 2, 8, 16)), scales, heads: mix(small.heads), seqLen: mix(small.seqLen), seed: mix(pick(0, 3)), variance: mix(pick(1)), threshold: mix(pick(0.9)), kernel: kernelArb, gradients: mix(pick(true, false)), causal: mix(pick(true, false)), softcap: mix(pick(2)), correlation: correlationArb, sinks: sinksArb(4) }), (p) => {
    outcome('saturationSweep', ['params', 'dks', 'scales', 'heads', 'seqLen', 'seed', 'variance', 'threshold', 'kernel', 'gradients', 'causal', 'softcap', 'correlation', 'sinks', 'bogusKey', 'dk'], () => core.saturationSweep(p));
  });
});

test(`softmaxJacobian (${RUNS} calls)`, () => {
  run(fc.tuple(numbers, fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: params({ softcap: mix(pick(1, 5)) }) })), ([logits, options]) => {
    outcome('softmaxJacobian', ['logits', 'options', 'params', 'softcap', 'bogusKey'], () => core.softmaxJacobian(logits, options));
  });
});

test(`attention (${RUNS} calls)`, () => {
  const arb = fc.record({ h: small.heads, g: pick(0, 1, 2, 3), L: small.seqLen, dk: small.dk }).chain(({ h, g, L, dk }) => {
    const hkv = g === 0 ? h : g;
    return params({
      q: tensor(h * L * dk), k: tensor(hkv * L * dk), v: tensor(hkv * L * dk), heads: mix(pick(h)), headsKv: mix(pick(g)), seqLen: mix(pick(L)), dk: mix(pick(dk)),
      scale: scaleArb, kernel: kernelArb, weights: mix(pick(true, false)), causal: mix(pick(true, false)), mask: fc.oneof(fc.constant(null), tensor(L * L), tensor(h * L * L)), softcap: mix(pick(3)), maskedRow: mix(pick('nan', 'zero', 'inf')),
      sinks: sinksArb(h), alibi: optional(fc.oneof(fc.constant('press'), tensor(h), fc.constant('bloom'))),
      dv: optional(pick(0, dk, 1, 16385)), lse: optional(pick(true, false)), queryScale: optional(tensor(L)),
    });
  });
  run(arb, (p) => {
    outcome('attention', ['params', 'q', 'k', 'v', 'heads', 'headsKv', 'seqLen', 'dk', 'scale', 'kernel', 'weights', 'causal', 'mask', 'softcap', 'maskedRow', 'sinks', 'alibi', 'dv', 'lse', 'queryScale', 'bogusKey'], () => core.attention(p));
  });
});

test(`mergeAttention (${RUNS} calls)`, () => {
  /** { output [n], lse [rows] }: mostly valid (an empty chunk's −∞ too), else a broken tensor or not an object */
  const state = (n, rows) => fc.oneof({ weight: 4, arbitrary: fc.record({ output: mostlyOk(n), lse: fc.oneof(mostlyOk(rows), fc.constant(new Float32Array(rows).fill(-Infinity))) }) },
    { weight: 1, arbitrary: fc.record({ output: tensor(n), lse: tensor(rows) }, { requiredKeys: [] }) }, { weight: 1, arbitrary: hostile });
  const arb = fc.record({ h: small.heads, L: small.seqLen, dv: small.dk }).chain(({ h, L, dv }) => params({
    a: state(h * L * dv, h * L), b: state(h * L * dv, h * L), heads: mix(pick(h)), seqLen: mix(pick(L)), dv: mix(pick(dv)),
  }));
  run(arb, (p) => {
    const r = outcome('mergeAttention', ['params', 'a', 'b', 'heads', 'seqLen', 'dv', 'bogusKey'], () => core.mergeAttention(p));
    if (r) assert.ok(!r.output.some(Number.isNaN), 'a merge never gives NaN');
  });
});

test(`tensorStats (${RUNS} calls)`, () => {
  const arb = fc.record({ h: small.heads, L: small.seqLen, dk: small.dk }).chain(({ h, L, dk }) => params({
    q: tensor(h * L * dk), k: tensor(h * L * dk), v: fc.oneof(fc.constant(null), tensor(h * L * dk)), heads: mix(pick(h)), seqLen: mix(pick(L)), dk: mix(pick(dk)),
    scale: scaleArb, seed: mix(pick(1)), threshold: mix(pick(0.5)), kernel: kernelArb, causal: mix(pick(true, false)),
  }));
  run(arb, (p) => {
    outcome('tensorStats', ['params', 'q', 'k', 'v', 'heads', 'seqLen', 'dk', 'scale', 'seed', 'threshold', 'kernel', 'causal', 'bogusKey'], () => core.tensorStats(p));
  });
});

test(`precisionLab (${RUNS} calls)`, () => {
  const random = { rows: mix(pick(1, 4, 16)), seqLen: mix(pick(1, 8, 32)), dk: mix(pick(1, 8)), heads: mix(pick(1, 2)), scale: scaleArb, seed: mix(pick(0, 2)) };
  const shared = { blockSize: mix(pick(1, 4, 32)), accumulate: mix(pick('same', 'float32', 'double')), maskedRow: mix(pick('nan', 'zero')), softcap: mix(pick(4)) };
  const qk = fc.record({ dk: small.dk, nq: pick(1, 2, 3), nk: pick(1, 4, 9) }).chain(({ dk, nq, nk }) => params({
    q: mostlyOk(nq * dk), k: mostlyOk(nk * dk), dk: mix(pick(dk)), heads: mix(pick(1, 2)), scale: scaleArb, scaleAt: optional(pick('scores', 'query', 'both', 'keys')),
    scaleRounding: optional(pick('float32', 'cell', 'bf16')),
    rowSums: optional(pick(true, false)), rows: fc.constant(undefined), logits: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: numbers }), ...shared,
  }));
  const arb = fc.oneof(params({ ...random, ...shared, rowSums: optional(pick(true, false)) }), params({ logits: numbers, ...shared, rowSums: optional(pick(true, false)), scaleAt: fc.constantFrom(undefined, undefined, undefined, 'query') }), params({ logits: numbers, ...random, ...shared }), qk);
  run(arb, (p) => {
    outcome('precisionLab', ['params', 'logits', 'rows', 'seqLen', 'dk', 'heads', 'scale', 'seed', 'blockSize', 'accumulate', 'maskedRow', 'softcap', 'q', 'k', 'scaleAt', 'scaleRounding', 'rowSums', 'queries', 'keys', 'bogusKey'], () => core.precisionLab(p));
  });
});

test(`longContext (${RUNS} calls)`, () => {
  const methods = fc.oneof({ weight: 4, arbitrary: fc.array(mix(pick('fixed', 'logn', 'yarn', 'article', 'llama4', 'ssmax', 'alibi')), { minLength: 1, maxLength: 4 }) }, { weight: 1, arbitrary: fc.constantFrom([], 'fixed', { length: 2 ** 32 }, Array(17).fill('fixed')) });
  run(params({ dk: mix(pick(1, 8, 64)), seqLens: intList(pick(1, 16, 64, 256), true), trainLen: mix(pick(2, 64, 512)), queries: mix(pick(1, 4, 16)), methods, seed: mix(pick(0, 1)), kernel: kernelArb,
    floorScale: optional(pick(16, 8192)), attnScale: optional(pick(0, 0.1)), s: optional(pick(0.43, 1)), mscale: optional(pick(1, 0.707)), mscaleAllDim: optional(pick(0, 1)), sink: optional(pick(1, -Infinity)) })
    // and, now and then, one of the new options out of its range
    .chain((p) => fc.constantFrom(p, p, p, p, p, p, p, { ...p, floorScale: 0.5 }, { ...p, attnScale: 11 }, { ...p, s: 0 }, { ...p, mscale: 0 }, { ...p, mscaleAllDim: -1 }, { ...p, sink: Infinity })), (p) => {
    outcome('longContext', ['params', 'dk', 'seqLens', 'trainLen', 'queries', 'methods', 'seed', 'kernel', 'floorScale', 'attnScale', 's', 'mscale', 'mscaleAllDim', 'sink', 'bogusKey', 'seqLen'], () => core.longContext(p));
  });
});

test(`createTrainingRun and its methods (${RUNS} runs)`, () => {
  const config = params({
    task: mix(pick('copy', 'reverse', 'sort', 'assoc_recall')), vocab: mix(pick(2, 4, 16)), seqLen: mix(pick(8, 16)), layers: mix(pick(1, 2)),
    dModel: mix(pick(8, 16, 32)), heads: mix(pick(1, 2, 4)), mlp: mix(pick(4, 16)), norm: mix(pick('pre', 'post')), attention: mix(pick('none', 'inv_sqrt_dk', 'qk_l2', 'learnable_temperature')),
    softmax: mix(pick('safe', 'naive')), softcap: mix(pick(0, 5)), initStd: mix(pick(0.1, 2)), batch: mix(pick(1, 2, 4)), steps: mix(pick(1, 3, 20)), lr: mix(pick(1e-3, 1)),
    warmup: mix(pick(0, 2)), clip: mix(pick(0, 1)), weightDecay: mix(pick(0, 0.1)), beta1: mix(pick(0.9)), beta2: mix(pick(0.99)), adamEps: mix(pick(1e-8)), evalSize: mix(pick(1, 4, 16)),
    seed: mix(pick(0, 7)), kernel: kernelArb,
  });
  const action = fc.oneof(
    fc.record({ op: fc.constant('step'), n: fc.oneof(fc.constant(undefined), mix(pick(1, 2, 5, 20000))) }),
    fc.record({ op: fc.constant('analysis'), n: fc.oneof(fc.constant(undefined), mix(pick(8, 64, 200))) }),
    fc.record({ op: pick('evaluate', 'info', 'dispose') }),
  );
  const names = ['config', 'params', 'task', 'vocab', 'seqLen', 'layers', 'dModel', 'heads', 'mlp', 'norm', 'attention', 'softmax', 'softcap', 'initStd', 'batch', 'steps', 'lr', 'warmup', 'clip', 'weightDecay', 'beta1', 'beta2', 'adamEps', 'evalSize', 'seed', 'kernel', 'bogusKey'];
  run(fc.tuple(config, fc.array(action, { maxLength: 5 })), ([cfg, actions]) => {
    // The core's range checks of a config speak of 'trainingRun: …' (the run being configured).
    const r = outcome('createTrainingRun', names, () => core.createTrainingRun(cfg), ['createTrainingRun', 'trainingRun']);
    if (r === null) return;
    try {
      for (const a of actions) {
        if (r.disposed && a.op !== 'dispose') {
          assert.throws(() => r[a.op](a.n), (e) => e instanceof TypeError && new RegExp(`^trainingRun\\.${a.op}: this run was disposed`).test(e.message));
          continue;
        }
        outcome(`trainingRun.${a.op}`, ['n', 'bins'], () => r[a.op](a.n));
      }
    } finally {
      r.dispose();
    }
  });
});

test('after the fuzzing: the heap is bounded and the reference call is unchanged', () => {
  assert.ok(core.info().heapBytes <= HEAP_BOUND, `heap ${core.info().heapBytes} bytes`);
  assert.deepEqual(core.attentionStats(REF), reference);
  assert.ok(stats.results > TOTAL / 10 && stats.refusals > TOTAL / 10, JSON.stringify(stats));
});
