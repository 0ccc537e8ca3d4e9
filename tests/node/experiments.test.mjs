// The experiments' one declaration (wasm/js/experiments.js) against the built core: every declared
// experiment is a method of the core and of its part, its result carries exactly the declared
// fields, core.cost estimates exactly the declared ones, the defaults it declares are the ones a
// call gets, and every declared range is the one the core enforces (a value past either end is
// refused, naming the parameter). The lists derived from it (COSTED_CALLS, FIRST_PART_CALLS, the
// worker's request kinds) follow it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore, COSTED_CALLS, FIRST_PART_CALLS, SCALE_NAMES, ATTENTION_VARIANTS, TRAINING_TASKS } from '../../wasm/js/core.js';
import { EXPERIMENTS, EXPERIMENT_NAMES, RECORDS, defaultsOf } from '../../wasm/js/experiments.js';
import * as schema from '../../web/src/state/schema.js';

const full = await loadCore({ build: 'simd128' });
const first = await loadCore({ build: 'simd128', part: 'first' });

/** A call of experiment `name` with `args` (its declared call form). */
function call(core, name, args) {
  return core[name](...args);
}

test('the derived lists follow the declaration', () => {
  assert.deepEqual([...COSTED_CALLS], EXPERIMENT_NAMES.filter((n) => EXPERIMENTS[n].costed));
  assert.deepEqual([...FIRST_PART_CALLS], EXPERIMENT_NAMES.filter((n) => EXPERIMENTS[n].part === 'first'));
  // the page's lists are the core's (the URL parser reads them without loading wasm)
  assert.equal(schema.SCALES, SCALE_NAMES);
  assert.equal(schema.TRAIN_VARIANTS, ATTENTION_VARIANTS);
  assert.deepEqual(schema.SCHEMA.trtask.values, TRAINING_TASKS);
});

test('every declared experiment is a method of the core, and of the first part if declared there', () => {
  for (const name of EXPERIMENT_NAMES) {
    assert.equal(typeof full[name], 'function', `core.${name}`);
    const e = EXPERIMENTS[name];
    if (e.part === 'first') call(first, name, e.example);
    else assert.throws(() => call(first, name, e.example), (err) => err instanceof TypeError && /first part/.test(err.message), `first part: ${name}`);
  }
});

test('every result carries exactly the declared fields', () => {
  for (const name of EXPERIMENT_NAMES) {
    const e = EXPERIMENTS[name];
    const r = call(full, name, e.example);
    const fields = typeof e.result === 'string' ? RECORDS[e.result.replace('[]', '')].fields : e.result;
    const got = Object.keys(Array.isArray(r) ? r[0] : r).sort();
    const required = Object.keys(fields).filter((f) => !fields[f].when);
    const optional = Object.keys(fields).filter((f) => fields[f].when);
    for (const f of required) assert.ok(got.includes(f), `${name}: result lacks ${f}`);
    for (const f of got) assert.ok(required.includes(f) || optional.includes(f), `${name}: result has the undeclared field ${f}`);
  }
});

test('the generated files are those the declaration gives (not stale)', async () => {
  // experiment-types.d.ts is in the source tree: an edit of the declaration without
  // `node scripts/gen-experiments.mjs` (or a build, which runs it) fails here
  const { TYPES_DTS, GENERATED_CPP } = await import('../../scripts/gen-experiments.mjs');
  const { readFileSync } = await import('node:fs');
  assert.equal(readFileSync(TYPES_DTS.path, 'utf8'), TYPES_DTS.text, 'wasm/js/experiment-types.d.ts is stale: run node scripts/gen-experiments.mjs');
  // the C++ ones live in the build tree, written by CMake: the wasm build's are these
  const built = new URL('../../build/wasm/generated/', import.meta.url);
  for (const [file, text] of Object.entries(GENERATED_CPP)) {
    let old = null;
    try { old = readFileSync(new URL(file, built), 'utf8'); } catch { continue; }  // a checkout that has not built the wasm
    assert.equal(old, text, `build/wasm/generated/${file} is stale: npm run build:wasm`);
  }
});

test('core.cost estimates exactly the declared experiments', () => {
  for (const name of EXPERIMENT_NAMES) {
    const e = EXPERIMENTS[name];
    if (e.costed) {
      const est = full.cost(name, e.example[0]);
      assert.ok(est.seconds > 0 && est.bytes > 0, `cost(${name})`);
    } else {
      assert.throws(() => full.cost(name, e.example[0] ?? {}), RangeError, `cost(${name})`);
    }
  }
});

test('a parameter left out gets its declared default', () => {
  // the example with every defaulted parameter written out gives the very same numbers
  for (const name of EXPERIMENT_NAMES) {
    const e = EXPERIMENTS[name];
    if (e.call !== 'params' || name === 'simdPeak') continue;  // simdPeak's sum is a timing loop's
    const explicit = { ...defaultsOf(name), ...e.example[0] };
    for (const [key, spec] of Object.entries(e.params)) {
      if (spec.type === 'sinks' || spec.type === 'sink' || spec.type === 'float32' || spec.type === 'numberList') {
        if (explicit[key] === null && !(key in e.example[0])) delete explicit[key];  // null: the same as left out
      }
      // soft-capping is off when left out; its default 0 is the core's "off", which a caller cannot write
      if (spec.type === 'softcap' && !(key in e.example[0])) delete explicit[key];
    }
    if (name === 'precisionLab') { delete explicit.scaleAt; delete explicit.scaleRounding; }  // go only with q and k
    assert.deepEqual(full[name](explicit), full[name](e.example[0]), `${name}: defaults written out`);
  }
});

test('every declared range is the one the core enforces', () => {
  const refused = (name, params, key) => {
    const run = () => (EXPERIMENTS[name].costed ? full.cost(name, params) : full[name](params));
    assert.throws(run, (err) => (err instanceof RangeError || err instanceof TypeError) && err.message.includes(key),
      `${name}: ${key} = ${JSON.stringify(params[key])} should be refused naming ${key}`);
  };
  let checked = 0;
  for (const name of EXPERIMENT_NAMES) {
    const e = EXPERIMENTS[name];
    if (e.call !== 'params') continue;
    for (const [key, spec] of Object.entries(e.params)) {
      if (!spec.range) continue;
      const [lo, hi] = spec.range;
      if (spec.type === 'int') {
        refused(name, { ...e.example[0], [key]: lo - 1 }, key);
        refused(name, { ...e.example[0], [key]: hi + 1 }, key);
        checked += 2;
      } else if (spec.type === 'intList') {
        refused(name, { ...e.example[0], [key]: [lo - 1] }, key);
        refused(name, { ...e.example[0], [key]: [hi + 1] }, key);
        checked += 2;
      } else if (['number', 'softcap', 'correlation'].includes(spec.type)) {
        refused(name, { ...e.example[0], [key]: lo - 1 }, key);
        refused(name, { ...e.example[0], [key]: hi * 2 + 1 }, key);
        checked += 2;
      }
    }
  }
  assert.ok(checked > 60, `${checked} bounds checked`);
});

test('each declared parameter is read once in C++: by the generated read_params, or (field: null) by its binding', async () => {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const root = new URL('../../', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-gen-'));
  execFileSync(process.execPath, [join(root, 'scripts/gen-experiments.mjs'), dir]);
  const reads = readFileSync(join(dir, 'experiment_reads.hpp'), 'utf8');
  // the bindings: bindings.cpp's own, and those generated whole (experiment_results.hpp)
  const bindings = readFileSync(join(root, 'wasm/bindings/bindings.cpp'), 'utf8') + readFileSync(join(dir, 'experiment_results.hpp'), 'utf8');
  const keysIn = (text) => [...text.matchAll(/\bo\["(\w+)"\]/g)].map((m) => m[1]);
  // a packed experiment's read_params (pack: true) reads each parameter by a conversion naming it last: packed_int(a[0], "heads");
  const generatedKeysIn = (text) => [...keysIn(text), ...[...text.matchAll(/"(\w+)"\)+;$/gm)].map((m) => m[1])];
  let checked = 0;
  for (const name of EXPERIMENT_NAMES) {
    const e = EXPERIMENTS[name];
    if (e.call !== 'params') continue;
    const start = bindings.indexOf(`val js_${e.cpp}(val o)`);
    assert.ok(start >= 0, `bindings.cpp or experiment_results.hpp has js_${e.cpp}`);
    const end = bindings.slice(start + 1).search(/\n(val |class |\/\/ ----|#endif)/);
    const binding = bindings.slice(start, end < 0 ? undefined : start + 1 + end);
    const block = e.struct === null ? '' : reads.slice(reads.indexOf(`// ${name}\n`)).split('\n}\n')[0];
    if (e.struct !== null) assert.match(binding, /read_params\(o, p\)/, `js_${e.cpp} calls read_params`);
    const generated = generatedKeysIn(block), own = keysIn(binding);
    for (const [key, spec] of Object.entries(e.params)) {
      const byGenerated = generated.filter((k) => k === key).length, byBinding = own.filter((k) => k === key).length;
      const expected = e.struct === null || spec.field === null ? [0, 1] : [1, 0];
      // a nullable value is tested for null and then read, on one line of one place
      assert.deepEqual([Math.min(byGenerated, 1), Math.min(byBinding, 1)], expected, `${name}.${key}: read by read_params ${byGenerated}×, by js_${e.cpp} ${byBinding}×`);
      checked += 1;
    }
    for (const key of own) assert.ok(key in e.params, `js_${e.cpp} reads '${key}', which ${name} does not declare`);
  }
  assert.ok(checked > 100, `${checked} parameters checked`);
});
