// Holds wasm/js/core.d.ts, with the generated experiment-types.d.ts it re-exports, to what the
// module really exports and returns: names of exports, of Core's methods, of every result field
// (recursively), and of the parameters each function accepts; and the declarations type-check in
// a strict program.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as api from '../../wasm/js/core.js';

const dtsPath = fileURLToPath(new URL('../../wasm/js/core.d.ts', import.meta.url));
const source = ts.createSourceFile(dtsPath, readFileSync(dtsPath, 'utf8'), ts.ScriptTarget.ES2022, true);
// the results' types, generated from the declaration and re-exported by core.d.ts
const resultsPath = fileURLToPath(new URL('../../wasm/js/experiment-types.d.ts', import.meta.url));
const results = ts.createSourceFile(resultsPath, readFileSync(resultsPath, 'utf8'), ts.ScriptTarget.ES2022, true);

// name → { props: Map(name → type node) } for every interface; plus exported value names.
const interfaces = new Map();
const exportedValues = [];
for (const file of [results, source]) {
  for (const st of file.statements) {
    if (!ts.isInterfaceDeclaration(st)) continue;
    const props = new Map();
    for (const m of st.members) if (m.name) props.set(m.name.getText(), m);
    interfaces.set(st.name.text, props);
  }
}
for (const st of source.statements) {
  if (ts.isInterfaceDeclaration(st)) {
    continue;
  } else if (ts.isFunctionDeclaration(st)) {
    exportedValues.push(st.name.text);
  } else if (ts.isVariableStatement(st)) {
    for (const d of st.declarationList.declarations) exportedValues.push(d.name.getText());
  }
}
const propsOf = (name) => [...interfaces.get(name).keys()].sort();
// Member names of an exported const declared with an object type literal.
function interfacesOfConst(name) {
  for (const st of source.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (d.name.getText() === name && d.type && ts.isTypeLiteralNode(d.type)) {
        return d.type.members.map((m) => m.name.getText());
      }
    }
  }
  throw new Error(`no const ${name} with an object type in core.d.ts`);
}

// The keys of `value` are the members' names: every required one, and optional ones (`x?:`) only
// where the value has them (fields a result carries only for some parameters, e.g. sinkMass).
function checkKeys(value, members, path) {
  const names = members.map((m) => m.name.getText());
  const required = members.filter((m) => !m.questionToken).map((m) => m.name.getText());
  const keys = Object.keys(value);
  assert.deepEqual(keys.filter((k) => !names.includes(k)), [], `keys of ${path} not declared`);
  assert.deepEqual(required.filter((k) => !keys.includes(k)), [], `keys of ${path} missing`);
}
// Checks the keys of `value` against a type node, recursing into interfaces, arrays and literals.
function checkShape(value, typeNode, path) {
  if (!typeNode || value === undefined) return;
  if (ts.isTypeReferenceNode(typeNode) && interfaces.has(typeNode.typeName.getText())) {
    const props = interfaces.get(typeNode.typeName.getText());
    checkKeys(value, [...props.values()], path);
    for (const [k, m] of props) checkShape(value[k], m.type, `${path}.${k}`);
  } else if (ts.isTypeLiteralNode(typeNode)) {
    checkKeys(value, [...typeNode.members], path);
    for (const m of typeNode.members) checkShape(value[m.name.getText()], m.type, `${path}.${m.name.getText()}`);
  } else if (ts.isArrayTypeNode(typeNode)) {
    assert.ok(Array.isArray(value), `${path} is an array`);
    if (value.length > 0) checkShape(value[0], typeNode.elementType, `${path}[0]`);
  } else {
    const text = typeNode.getText();
    if (text === 'number') assert.equal(typeof value, 'number', `${path} is a number`);
    else if (text === 'string') assert.equal(typeof value, 'string', `${path} is a string`);
    else if (text === 'boolean') assert.equal(typeof value, 'boolean', `${path} is a boolean`);
    else if (text === 'Float64Array') assert.ok(value instanceof Float64Array, `${path} is a Float64Array`);
    else if (text === 'Float32Array') assert.ok(value instanceof Float32Array, `${path} is a Float32Array`);
    else if (text === 'Float32Array | null') assert.ok(value === null || value instanceof Float32Array, `${path}`);
  }
}
// Checks a value against an interface by name.
function shape(value, interfaceName) {
  const props = interfaces.get(interfaceName);
  assert.ok(props, `interface ${interfaceName} exists`);
  checkKeys(value, [...props.values()], interfaceName);
  for (const [k, m] of props) checkShape(value[k], m.type, `${interfaceName}.${k}`);
}

const core = await api.loadCore();

test('exports match the declarations', () => {
  assert.deepEqual(Object.keys(api).sort(), exportedValues.sort());
  assert.deepEqual(Object.keys(core).sort(), [...propsOf('Core'), ...propsOf('ExperimentMethods')].sort());  // Core extends it
});

test('every result matches its interface, field by field', () => {
  const q = new Float32Array(2 * 5 * 3).fill(0.5);
  shape(core.info(), 'CoreInfo');
  shape(core.scoreVariance({ dks: [4, 8], samples: 100 }), 'ScoreVarianceResult');
  shape(core.attentionStats({ dk: 8, heads: 2, seqLen: 16 }), 'AttentionStatsResult');
  shape(core.saturationSweep({ dks: [4], heads: 1, seqLen: 8 }), 'SaturationSweepResult');
  shape(core.softmaxJacobian([1, 2, 3]), 'SoftmaxJacobianResult');
  shape(core.attention({ q, k: q, v: q, heads: 2, seqLen: 5, dk: 3 }), 'AttentionResult');
  shape(core.attention({ q, k: q, v: q, heads: 2, seqLen: 5, dk: 3, weights: false }), 'AttentionResult');
  shape(core.tensorStats({ q, k: q, heads: 2, seqLen: 5, dk: 3 }), 'TensorStatsResult');
  shape(core.precisionLab({ rows: 2, seqLen: 8, dk: 4 }), 'PrecisionLabResult');
  shape(core.longContext({ seqLens: [8, 16], queries: 2, dk: 4 }), 'LongContextResult');
  // the fields some parameters add (issue 19): sinks, row sums, q and k; and the model catalogue
  const withSinks = core.attentionStats({ dk: 8, heads: 2, seqLen: 16, sinks: [1, -Infinity] });
  assert.ok(withSinks.summary.sinkMass && withSinks.rows.sinkMass, 'sinkMass with sinks');
  shape(withSinks, 'AttentionStatsResult');
  shape(core.saturationSweep({ dks: [4], heads: 1, seqLen: 8, sinks: [0] }), 'SaturationSweepResult');
  const att = core.attention({ q, k: q, v: q, heads: 2, seqLen: 5, dk: 3, sinks: [0, 1] });
  assert.ok(att.sinkWeights instanceof Float32Array && typeof att.sinkMass === 'number');
  shape(att, 'AttentionResult');
  const withLse = core.attention({ q, k: q, v: q, heads: 2, seqLen: 5, dk: 3, lse: true, alibi: 'press', mask: new Float32Array(2 * 5 * 5) });
  assert.ok(withLse.lse instanceof Float32Array && withLse.alibiSlopes instanceof Float32Array);
  shape(withLse, 'AttentionResult');
  shape(core.mergeAttention({ a: withLse, b: withLse, heads: 2, seqLen: 5, dv: 3 }), 'MergeAttentionResult');
  const sums = core.precisionLab({ rows: 2, seqLen: 8, dk: 4 });
  shape(core.precisionLab({ rows: 2, seqLen: 8, dk: 4, rowSums: false }), 'PrecisionLabResult');
  assert.ok(sums.cells[0].rowSum && typeof sums.cells[0].causes.sumStall === 'number');
  shape(sums, 'PrecisionLabResult');
  shape(core.precisionLab({ q: new Float32Array(8).fill(1), k: new Float32Array(12).fill(1), dk: 4, scaleAt: 'query' }), 'PrecisionLabResult');
  const both = core.precisionLab({ q: new Float32Array(8).fill(1), k: new Float32Array(12).fill(1), dk: 4, scaleAt: 'both', scaleRounding: 'cell' });
  assert.ok(both.cells.every((c) => typeof c.scaleApplied === 'number'), 'q/k cells carry scaleApplied');
  shape(both, 'PrecisionLabResult');
  shape(core.longContext({ seqLens: [8], queries: 2, dk: 4, sink: 0 }), 'LongContextResult');
  const models = core.modelScales();
  assert.ok(models.length >= 13);
  for (const m of models) shape(m, 'ModelScale');
  // modelConfig (no wasm): a config with every kind of field, and one with the fewest
  const read = api.modelConfig({ model_type: 'gpt_oss', head_dim: 64, num_attention_heads: 8, num_key_value_heads: 2, sliding_window: 128,
    rope_scaling: { rope_type: 'yarn', factor: 32 }, attn_temperature_tuning: true, floor_scale: 8192, attn_scale: 0.1, odd: 1, vocab_size: 2 });
  assert.ok(read.modifiers.length >= 4 && read.llama4 && read.unknown.length === 1);
  shape(read, 'ModelConfigResult');
  shape(api.modelConfig('{"hidden_size": 64, "num_attention_heads": 2}'), 'ModelConfigResult');
});

test('the training run, its config and every result match their interfaces', () => {
  const run = core.createTrainingRun({ steps: 4, evalSize: 8, attention: 'qk_l2', layers: 1 });
  assert.deepEqual(Object.keys(run).sort(), propsOf('TrainingRun'));
  shape(run.config, 'ResolvedTrainingConfig');
  shape(run.info(), 'TrainingRunInfo');
  shape(run.step(2), 'TrainingStepResult');
  shape(run.evaluate(), 'TrainingEvalResult');
  shape(run.analysis(), 'TrainingAnalysis');
  const diverged = core.createTrainingRun({ attention: 'none', softmax: 'naive', heads: 1, layers: 1, initStd: 1, batch: 2, evalSize: 2 });
  const r = diverged.step(2);
  shape(r, 'TrainingStepResult');
  assert.equal(typeof r.firstNonfiniteStep, 'number');
  shape(diverged.info(), 'TrainingRunInfo');
  run.dispose();
  diverged.dispose();
  // TRAINING_DEFAULTS holds every field of a resolved config but the kernel
  assert.deepEqual(Object.keys(api.TRAINING_DEFAULTS).sort(), propsOf('ResolvedTrainingConfig').filter((k) => k !== 'kernel'));
  assert.deepEqual(Object.keys(api.TRAINING_LIMITS).sort(), [...interfacesOfConst('TRAINING_LIMITS')].sort());
});

test('each function accepts exactly the parameters its interface declares', () => {
  const accepted = (fn) => {
    try {
      fn({ __not_a_parameter__: 1 });
    } catch (e) {
      const m = /expected one of (.*)\)$/.exec(e.message);
      assert.ok(m, e.message);
      return m[1].split(', ').sort();
    }
    assert.fail('unknown parameter was accepted');
  };
  assert.deepEqual(accepted(core.scoreVariance), propsOf('ScoreVarianceParams'));
  assert.deepEqual(accepted(core.attentionStats), propsOf('AttentionStatsParams'));
  assert.deepEqual(accepted(core.saturationSweep), propsOf('SaturationSweepParams'));
  assert.deepEqual(accepted(core.attention), propsOf('AttentionParams'));
  assert.deepEqual(accepted(core.tensorStats), propsOf('TensorStatsParams'));
  assert.deepEqual(accepted(core.precisionLab), propsOf('PrecisionLabParams'));
  assert.deepEqual(accepted(core.longContext), propsOf('LongContextParams'));
  assert.deepEqual(accepted(core.createTrainingRun), propsOf('TrainingConfig'));
});

test('the declarations type-check in a strict program that uses them', () => {
  const usage = fileURLToPath(new URL('./dts-usage.ts', import.meta.url));
  const program = ts.createProgram([usage], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: false, types: [],
  });
  const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diags, []);
});
