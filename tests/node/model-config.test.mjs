// modelConfig on real Hugging Face config.json files (tests/node/configs, each file's source in configs/README.md):
// the effective scale of each against the value computed by hand from the model's own code, the modifiers and the
// fields they came from, and malformed, absurd and huge inputs refused with a message naming the field and value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { modelConfig, MODEL_CONFIG_LIMITS, loadCore } from '../../wasm/js/core.js';

const read = (name) => readFileSync(new URL(`./configs/${name}`, import.meta.url), 'utf8');
const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-15 * Math.abs(b), `${what}: ${a} vs ${b}`);
const refuses = (f, Type, re) => assert.throws(f, (e) => e instanceof Type && re.test(e.message), String(re));
const kinds = (r) => r.modifiers.map((m) => m.kind);
const modifier = (r, kind) => r.modifiers.find((m) => m.kind === kind);

// Each case: the file, the scale by hand from the model's code, d_head, and what else the reader must find.
const CASES = [
  {
    // modeling_deepseek_v3.py DeepseekV3Attention: qk_head_dim 128 + 64 = 192; scaling = 192^−½ · yarn_get_mscale(40, 1.0)²
    file: 'deepseek-v3.json', dHead: 192, dV: 128, scale: 192 ** -0.5 * (0.1 * 1 * Math.log(40) + 1) ** 2,
    inScale: ['yarn_mscale'], field: 'rope_scaling.factor, rope_scaling.mscale_all_dim',
  },
  {
    // DeepSeek-V3.2-Exp: V3's MLA and YaRN (the same 192^−½ · yarn_get_mscale(40, 1.0)²), and the indexer's top-k keys per query beside it
    file: 'deepseek-v3.2-exp.json', dHead: 192, dV: 128, scale: 192 ** -0.5 * (0.1 * 1 * Math.log(40) + 1) ** 2,
    inScale: ['yarn_mscale'], field: 'rope_scaling.factor, rope_scaling.mscale_all_dim', also: ['sparse_topk'],
  },
  {
    // Kimi K2 runs DeepseekV3ForCausalLM: 192^−½ · yarn_get_mscale(32, 1.0)²
    file: 'kimi-k2-instruct.json', dHead: 192, dV: 128, scale: 192 ** -0.5 * (0.1 * Math.log(32) + 1) ** 2,
    inScale: ['yarn_mscale'], field: 'rope_scaling.factor, rope_scaling.mscale_all_dim',
  },
  {
    // modeling_qwen3_next.py Qwen3NextAttention: scaling = head_dim^−½ = 256^−½; partial rotary 0.25; QK-norm; output gate
    file: 'qwen3-next.json', dHead: 256, dV: 256, scale: 1 / 16, inScale: [], also: ['partial_rotary', 'qk_norm', 'output_gate', 'gqa'],
  },
  {
    // modeling_gemma3.py Gemma3Attention: scaling = query_pre_attn_scalar^−½ = 168^−½ (from text_config); linear rope: factor 1
    file: 'gemma-3-27b-it.json', dHead: 128, dV: 128, scale: 168 ** -0.5, inScale: ['query_pre_attn_scalar'],
    field: 'text_config.query_pre_attn_scalar', also: ['qk_norm', 'sliding_window', 'gqa'],
  },
  {
    // modeling_gpt_oss.py: scaling = head_dim^−½; YaRN (rope_utils _compute_yarn_parameters) attention_factor = 0.1 ln 32 + 1
    // on cos and sin of the whole head: every logit × its square; a sink per head
    file: 'gpt-oss-120b.json', dHead: 64, dV: 64, scale: 64 ** -0.5 * (0.1 * Math.log(32) + 1) ** 2,
    inScale: ['yarn_attention_factor'], field: 'rope_scaling.factor', also: ['sinks', 'sliding_window', 'gqa'],
  },
  {
    // modeling_llama4.py: scaling = head_dim^−½ = 128^−½; the temperature is per position on NoPE layers (not in c)
    file: 'llama-4-scout-17b-16e.json', dHead: 128, dV: 128, scale: 128 ** -0.5, inScale: [], also: ['llama4_temperature', 'qk_norm', 'gqa'],
  },
  {
    // modeling_llama.py: head_dim = hidden_size / num_attention_heads = 4096 / 32; llama3 rope: attention factor 1
    file: 'llama-3.1-8b.json', dHead: 128, dV: 128, scale: 128 ** -0.5, inScale: [], also: ['gqa'],
  },
  {
    // modeling_gemma2.py: 144^−½, soft-cap 50 after it
    file: 'gemma-2-27b.json', dHead: 128, dV: 128, scale: 144 ** -0.5, inScale: ['query_pre_attn_scalar'], also: ['softcap'],
  },
  {
    // modeling_granite.py: scaling = attention_multiplier = 2^−7
    file: 'granite-3.0-8b.json', dHead: 128, dV: 128, scale: 0.0078125, inScale: ['attention_multiplier'],
  },
];

for (const c of CASES) {
  test(`${c.file}: scale ${c.scale.toPrecision(8)} at d_head ${c.dHead}, from its model's code`, () => {
    const r = modelConfig(read(c.file));
    assert.equal(r.dHead, c.dHead);
    assert.equal(r.dV, c.dV);
    near(r.scale, c.scale, 'scale');
    near(r.invSqrtDHead, 1 / Math.sqrt(c.dHead), '1/√d_head');
    near(r.ratio, c.scale * Math.sqrt(c.dHead), 'ratio');
    assert.deepEqual(r.modifiers.filter((m) => m.inScale).map((m) => m.kind), c.inScale, 'the modifiers in the scale');
    // the product of the factors in the scale is the scale over the base 1/√d_head (or over the replaced base)
    for (const k of c.also ?? []) assert.ok(kinds(r).includes(k), `${k} found (${kinds(r)})`);
    if (c.field) assert.equal(modifier(r, c.inScale[0]).field, c.field);
    for (const m of r.modifiers) {
      assert.ok(m.source.startsWith('huggingface/transformers: src/transformers/'), `${m.kind} names its source file`);
      if (!m.inScale) assert.equal(m.factor, 1, `${m.kind} is not in the scale`);
    }
    assert.equal(r.known, true);
    // every field of the file is accounted for once: used, ignored or not understood
    const all = [...r.used, ...r.ignored, ...r.unknown];
    assert.equal(new Set(all).size, all.length, 'no field counted twice');
  });
}

test('DeepSeek-V3 by hand: 192^−½ · (0.1 · 1 · ln 40 + 1)² = 0.13523378 (1.8739 × 1/√192)', () => {
  const r = modelConfig(read('deepseek-v3.json'));
  assert.equal(r.scale.toFixed(8), '0.13523378');
  assert.equal(r.ratio.toFixed(4), '1.8739');
  assert.ok(r.used.includes('qk_nope_head_dim') && r.used.includes('rope_scaling.mscale_all_dim'));
  assert.ok(r.ignored.includes('vocab_size') && r.ignored.includes('rope_scaling.beta_fast'));
  assert.deepEqual(r.unknown, []);
});

test('Gemma 3 27B reads its text_config: 168^−½ = 0.07715167, 0.8729 of 1/√128, the vision tower ignored', () => {
  const r = modelConfig(read('gemma-3-27b-it.json'));
  assert.equal(r.textConfig, true);
  assert.equal(r.modelType, 'gemma3_text');
  assert.equal(r.scale.toFixed(8), '0.07715167');
  assert.equal(r.ratio.toFixed(4), '0.8729');
  assert.equal(r.slidingWindow, 1024);
  assert.ok(r.ignored.includes('vision_config'));
  assert.equal(modifier(r, 'qk_norm').field, 'text_config.model_type');
});

test('Llama 4 Scout: 1/√128 and the temperature 1 + 0.1 · ln(⌊262144 / 8192⌋ + 1) at its full context, not in the scale', () => {
  const r = modelConfig(read('llama-4-scout-17b-16e.json'));
  assert.deepEqual(r.llama4, { floorScale: 8192, attnScale: 0.1 });
  assert.match(modifier(r, 'llama4_temperature').note, new RegExp((1 + 0.1 * Math.log(33)).toPrecision(5)));
  assert.equal(modifier(r, 'qk_norm').field, 'text_config.use_qk_norm');
});

test('gpt-oss: sinks, the 128-token window on 18 of 36 layers, 8 KV heads', () => {
  const r = modelConfig(read('gpt-oss-120b.json'));
  assert.equal(r.sinks, true);
  assert.equal(r.slidingWindow, 128);
  assert.match(modifier(r, 'sliding_window').note, /on 18 of 36 layers/);
  assert.equal(r.headsKv, 8);
  assert.equal(r.heads, 64);
});

test('Qwen3-Next: use_sliding_window false leaves no window; partial rotary keeps YaRN out of the scale', () => {
  const base = JSON.parse(read('qwen3-next.json'));
  assert.equal(modelConfig(base).slidingWindow, 0);
  const yarn = modelConfig({ ...base, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 65536 } });
  near(yarn.scale, 1 / 16, 'scale unchanged');
  assert.equal(modifier(yarn, 'yarn_attention_factor').inScale, false);
});

test('an unknown model type: what its fields say, nothing its code might do', () => {
  const r = modelConfig({ model_type: 'newmodel', hidden_size: 1024, num_attention_heads: 16, weird_attention_knob: 3, use_qk_norm: true });
  assert.equal(r.known, false);
  assert.equal(r.dHead, 64);
  near(r.scale, 1 / 8, 'scale');
  assert.deepEqual(r.unknown, ['weird_attention_knob']);
  assert.equal(r.sinks, false);
  assert.equal(r.qkNorm, true); // the field says so
  // an MLA config of a type whose code is not followed: the attention factor reported, not applied
  const mla = modelConfig({ model_type: 'mla_x', qk_nope_head_dim: 128, qk_rope_head_dim: 64, num_attention_heads: 8,
    rope_scaling: { type: 'yarn', factor: 40, mscale: 1, mscale_all_dim: 1 } });
  near(mla.scale, 192 ** -0.5, 'no mscale² assumed');
  assert.ok(mla.unknown.includes('rope_scaling.mscale_all_dim'));
});

test('malformed JSON, a wrong top level, wrong types: clear errors naming the field and value', () => {
  refuses(() => modelConfig('{"hidden_size": 4096,'), SyntaxError, /^modelConfig: not valid JSON: /);
  refuses(() => modelConfig('{"head_dim": NaN}'), SyntaxError, /^modelConfig: not valid JSON/);
  refuses(() => modelConfig('[1, 2]'), TypeError, /holds one JSON object, got an array/);
  refuses(() => modelConfig('null'), TypeError, /got null/);
  refuses(() => modelConfig({ head_dim: '128' }), TypeError, /head_dim must be a number, got "128"/);
  refuses(() => modelConfig({ text_config: 5 }), TypeError, /text_config must be an object, got 5/);
  refuses(() => modelConfig({ head_dim: 64, rope_scaling: 'yarn' }), TypeError, /rope_scaling must be an object or null, got "yarn"/);
});

test('absurd values: zero, negative, NaN, huge head counts and sizes, a non-divisible hidden size', () => {
  refuses(() => modelConfig({ hidden_size: 4096, num_attention_heads: 0 }), RangeError, /num_attention_heads = 0 is out of range \(≥ 1, ≤ 4096\)/);
  refuses(() => modelConfig({ hidden_size: 4096, num_attention_heads: -32 }), RangeError, /num_attention_heads = -32 is out of range/);
  refuses(() => modelConfig({ hidden_size: 4096, num_attention_heads: NaN }), RangeError, /num_attention_heads must be finite, got NaN/);
  refuses(() => modelConfig({ hidden_size: 4096, num_attention_heads: 1e9 }), RangeError, /num_attention_heads = 1000000000 is out of range/);
  refuses(() => modelConfig({ hidden_size: 4096, num_attention_heads: 32.5 }), RangeError, /num_attention_heads must be an integer, got 32.5/);
  refuses(() => modelConfig({ hidden_size: 4096, num_attention_heads: 48 }), RangeError, /hidden_size = 4096 is not divisible by num_attention_heads = 48/);
  refuses(() => modelConfig({ head_dim: 0 }), RangeError, /head_dim = 0 is out of range/);
  refuses(() => modelConfig({ head_dim: 128, num_attention_heads: 32, num_key_value_heads: 5 }), RangeError, /num_key_value_heads = 5 must divide num_attention_heads = 32/);
  refuses(() => modelConfig({ head_dim: 128, query_pre_attn_scalar: -1 }), RangeError, /query_pre_attn_scalar = -1 is out of range/);
  refuses(() => modelConfig({ head_dim: 128, rope_scaling: { type: 'yarn', factor: Infinity } }), RangeError, /rope_scaling.factor must be finite/);
  refuses(() => modelConfig({ text_config: { head_dim: -4 } }), RangeError, /text_config.head_dim = -4 is out of range/);
  refuses(() => modelConfig({ vocab_size: 1000 }), RangeError, /^modelConfig: no head size/);
});

test(`a 50 MB input is refused before parsing (limit ${MODEL_CONFIG_LIMITS.chars} characters)`, () => {
  const big = `{"pad": "${'x'.repeat(50 * 1024 * 1024)}"}`;
  const t0 = Date.now();
  assert.equal(big.length, 52428811);
  refuses(() => modelConfig(big), RangeError, /^modelConfig: the config is 52428811 characters, over the limit of 1048576 /);
  assert.ok(Date.now() - t0 < 200, 'refused without parsing');
});

test('the scale it reads is one the core takes: the entropy at L = 256 on iid inputs with c and the soft-cap', async () => {
  const core = await loadCore();
  const r = modelConfig(read('gemma-2-27b.json'));
  const s = core.attentionStats({ heads: 1, seqLen: 256, dk: r.dHead, scale: r.scale, softcap: r.softcap, seed: 0, gradients: false, spectral: false, perRow: false, heatmapSize: 1 });
  assert.ok(s.summary.entropy.mean > 0 && s.summary.entropy.mean < Math.log(256));
});

// What an attacker or a careless paste sends (found by trying to break the reader): each answered with the
// right fields, a clear refusal, or a field said not understood — never a false modifier or a silent drop.
const accounted = (r) => [...r.used, ...r.ignored, ...r.unknown];
const once = (r, name) => assert.equal(accounted(r).filter((n) => n === name).length, 1, `${name} accounted once: ${JSON.stringify({ used: r.used, ignored: r.ignored, unknown: r.unknown })}`);

test('a rope_scaling of 80,000 members is read in linear time, each member said not understood', () => {
  const rs = { rope_type: 'llama3', factor: 8 };
  for (let i = 0; i < 80000; i++) rs[`k${i}`] = i;
  const t0 = Date.now();
  const r = modelConfig({ head_dim: 128, rope_scaling: rs });
  assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
  assert.equal(r.unknown.length, 80000);
});

test('model_type "constructor", "toString", "__proto__", "hasOwnProperty": no QK-norm claimed from Object.prototype', () => {
  for (const t of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    const r = modelConfig(`{"model_type": ${JSON.stringify(t)}, "head_dim": 64}`);
    assert.equal(r.qkNorm, false, t);
    assert.equal(r.known, false, t);
    assert.deepEqual(kinds(r), [], t);
  }
});

test('fields beside a text_config are said, not dropped; a literal "text_config.head_dim" key is not the real one', () => {
  const r = modelConfig({ model_type: 'gemma3', rope_scaling: { rope_type: 'yarn', factor: 4 }, 'text_config.head_dim': 7,
    text_config: { model_type: 'gemma3_text', head_dim: 128, query_pre_attn_scalar: 168 } });
  near(r.scale, 168 ** -0.5, 'the text config’s scale');
  assert.ok(r.unknown.includes('rope_scaling'), JSON.stringify(r.unknown));
  assert.ok(r.unknown.includes('text_config.head_dim'), JSON.stringify(r.unknown));
  // the real text_config.head_dim is used, the top-level key spelled the same is not understood: one of each
  assert.equal(r.used.filter((n) => n === 'text_config.head_dim').length, 1);
  assert.equal(r.unknown.filter((n) => n === 'text_config.head_dim').length, 1);
});

test('llm_config and language_config are read like text_config and named in every field', () => {
  for (const key of ['llm_config', 'language_config']) {
    const r = modelConfig({ model_type: 'vlm', vision_config: {}, [key]: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4 } });
    assert.equal(r.dHead, 128, key);
    assert.equal(r.textConfig, true, key);
    assert.equal(r.dHeadFrom, `${key}.hidden_size / ${key}.num_attention_heads`);
    assert.ok(r.used.includes(`${key}.num_key_value_heads`), JSON.stringify(r.used));
  }
  refuses(() => modelConfig({ llm_config: [1] }), TypeError, /llm_config must be an object, got an array/);
});

test('sliding_window_pattern, layer_types and original_max_position_embeddings are checked', () => {
  refuses(() => modelConfig({ head_dim: 128, sliding_window: 1024, sliding_window_pattern: -5 }), RangeError, /sliding_window_pattern = -5 is out of range/);
  refuses(() => modelConfig({ head_dim: 128, sliding_window: 1024, sliding_window_pattern: 2.5 }), RangeError, /sliding_window_pattern must be an integer/);
  refuses(() => modelConfig({ head_dim: 128, sliding_window: 1024, layer_types: 'sliding' }), TypeError, /layer_types must be an array of layer type names/);
  refuses(() => modelConfig({ head_dim: 128, sliding_window: 1024, layer_types: [1, 2] }), TypeError, /layer_types must be an array/);
  refuses(() => modelConfig({ head_dim: 128, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: -1 } }), RangeError, /original_max_position_embeddings = -1 is out of range/);
  const g = modelConfig({ head_dim: 128, sliding_window: 1024, sliding_window_pattern: 6 });
  assert.match(modifier(g, 'sliding_window').note, /on 5 of every 6 layers/);
  once(g, 'sliding_window_pattern');
});

test('every field accounted exactly once: mscale under a rope type that does not read it, MLA of an unknown type', () => {
  const a = modelConfig({ head_dim: 128, rope_scaling: { rope_type: 'linear', factor: 2, mscale: 0.7, mscale_all_dim: 0.7 } });
  once(a, 'rope_scaling.mscale');
  once(a, 'rope_scaling.mscale_all_dim');
  const b = modelConfig({ model_type: 'mla_x', qk_nope_head_dim: 128, qk_rope_head_dim: 64, num_attention_heads: 8,
    rope_scaling: { type: 'yarn', factor: 40, mscale: 1, mscale_all_dim: 1 } });
  once(b, 'rope_scaling.mscale_all_dim');
  assert.ok(b.unknown.includes('rope_scaling.mscale_all_dim'));
  const c = modelConfig({ head_dim: 64, rope_scaling: { rope_type: 'yarn', factor: 32, mscale: 1 } });
  near(c.scale, 64 ** -0.5 * (0.1 * Math.log(32) + 1) ** 2, 'mscale alone changes nothing in transformers');
  assert.ok(c.ignored.includes('rope_scaling.mscale'), JSON.stringify(c));
  for (const r of [a, b, c]) for (const n of accounted(r)) once(r, n);
});

test('a head size from hidden_size / heads keeps the cap; absurdly small scalars are refused', () => {
  refuses(() => modelConfig({ hidden_size: 16777216, num_attention_heads: 1 }), RangeError, /hidden_size \/ num_attention_heads = 16777216 is over 65536/);
  refuses(() => modelConfig({ head_dim: 128, query_pre_attn_scalar: 1e-300 }), RangeError, /query_pre_attn_scalar = 1e-300 is out of range \(≥ 1/);
  refuses(() => modelConfig({ head_dim: 128, attention_multiplier: 1e-300 }), RangeError, /attention_multiplier = 1e-300 is out of range/);
  refuses(() => modelConfig({ head_dim: 128, attn_temperature_tuning: true, floor_scale: 1e-300, attn_scale: 0.1 }), RangeError, /floor_scale = 1e-300 is out of range/);
});

test('boolean fields take true, false, 0 or 1 only', () => {
  refuses(() => modelConfig({ head_dim: 128, use_qk_norm: -7 }), TypeError, /use_qk_norm must be a boolean \(true, false, 0 or 1\), got -7/);
  refuses(() => modelConfig({ head_dim: 128, use_sliding_window: 'yes', sliding_window: 4 }), TypeError, /use_sliding_window must be a boolean/);
  assert.equal(modelConfig({ head_dim: 128, qk_layernorm: 1 }).qkNorm, true);
  assert.equal(modelConfig({ head_dim: 128, qk_layernorm: 0 }).qkNorm, false);
});

test('a byte-order mark before the JSON is read; a 1 MB model_type is refused, not copied into a note', () => {
  near(modelConfig('\uFEFF{"head_dim": 64}').scale, 1 / 8, 'BOM');
  refuses(() => modelConfig({ model_type: 'q'.repeat(1e6), head_dim: 64 }), RangeError, /model_type is 1000000 characters long, over 64: "q{40}…" is not a type name/);
});
