// modelConfig(json): reads a Hugging Face config.json and returns the softmax scale the model applies to q·k, every modifier with the field it came from, and the fields it used, ignored or did not understand.
// Config reading, not numerics: plain JavaScript, no wasm. Each rule names the transformers file and function it follows.

/** The largest config text read (characters): a config.json is a few KB; anything this large is refused before parsing. */
export const MODEL_CONFIG_LIMITS = Object.freeze({
  chars: 1048576,
  heads: Object.freeze([1, 4096]),
  headDim: Object.freeze([1, 65536]),
  hiddenSize: Object.freeze([1, 16777216]),
});

const TF = 'huggingface/transformers: src/transformers/';
const SRC = Object.freeze({
  headDim: `${TF}models/llama/modeling_llama.py (LlamaAttention.__init__: head_dim = getattr(config, "head_dim", hidden_size // num_attention_heads); scaling = head_dim**-0.5)`,
  mla: `${TF}models/deepseek_v3/modeling_deepseek_v3.py (DeepseekV3Attention.__init__: qk_head_dim = qk_nope_head_dim + qk_rope_head_dim; scaling = qk_head_dim ** (-0.5))`,
  mlaMscale: `${TF}models/deepseek_v3/modeling_deepseek_v3.py (DeepseekV3Attention.__init__: if mscale_all_dim: mscale = yarn_get_mscale(factor, mscale_all_dim); scaling = scaling * mscale * mscale; yarn_get_mscale: 0.1 * mscale * log(scale) + 1 for scale > 1)`,
  yarn: `${TF}modeling_rope_utils.py (_compute_yarn_parameters: attention_factor = rope_scaling.attention_factor, else get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim) when both are set, else get_mscale(factor) = 0.1 ln(factor) + 1; the rotary embedding multiplies cos and sin by it)`,
  gemma: `${TF}models/gemma3/modeling_gemma3.py (Gemma3Attention.__init__: scaling = config.query_pre_attn_scalar**-0.5; q_norm, k_norm); models/gemma2/modeling_gemma2.py (Gemma2Attention: the same scaling; attn_logit_softcapping)`,
  softcap: `${TF}models/gemma2/modeling_gemma2.py (eager_attention_forward: attn_weights = tanh(attn_weights / softcap) * softcap after the scale)`,
  granite: `${TF}models/granite/modeling_granite.py (GraniteAttention.__init__: scaling = config.attention_multiplier)`,
  llama4: `${TF}models/llama4/modeling_llama4.py (Llama4TextAttention.forward: on NoPE layers with attn_temperature_tuning, query_states *= log1p(floor((positions + 1) / floor_scale)) * attn_scale + 1; qk_norm (L2) on RoPE layers with use_qk_norm)`,
  sinks: `${TF}models/gpt_oss/modeling_gpt_oss.py (GptOssAttention.__init__: self.sinks, one learned logit per head; eager_attention_forward concatenates it to every row before the softmax)`,
  qwen3: `${TF}models/qwen3/modeling_qwen3.py (Qwen3Attention.__init__: q_norm, k_norm = RMSNorm(head_dim))`,
  qwen3Next: `${TF}models/qwen3_next/modeling_qwen3_next.py (Qwen3NextAttention: q_proj gives the query and an output gate, attn_output * sigmoid(gate); q_norm, k_norm; partial_rotary_factor)`,
  olmo2: `${TF}models/olmo2/modeling_olmo2.py (Olmo2Attention.__init__: q_norm = RMSNorm(num_heads * head_dim), k_norm)`,
  dsa: `${TF}models/deepseek_v32 (DeepSeek-V3.2's indexer: each query attends its index_topk keys chosen by a lightning indexer; the scale of the kept logits is DeepSeek-V3's)`,
  gqa: `${TF}models/llama/modeling_llama.py (repeat_kv: num_key_value_groups = num_attention_heads // num_key_value_heads)`,
  sliding: `${TF}models/gemma3/modeling_gemma3.py, models/gpt_oss/modeling_gpt_oss.py (sliding_window on the layers layer_types marks "sliding_attention")`,
});

// model_type → what its code does beyond the config's own fields (read from the file cited for each).
const MLA_TYPES = new Set(['deepseek_v2', 'deepseek_v3', 'deepseek_v32', 'kimi_k2']);
// A Map, not a plain object: a model_type such as "constructor" or "__proto__" must find nothing.
const QK_NORM_TYPES = new Map([
  ['qwen3', SRC.qwen3], ['qwen3_moe', SRC.qwen3], ['qwen3_next', SRC.qwen3Next], ['olmo2', SRC.olmo2], ['gemma3', SRC.gemma], ['gemma3_text', SRC.gemma],
]);
/** The sub-configs a multimodal config keeps its language model in, in the order they are looked for (transformers'
 * get_text_config reads text_config; InternVL's llm_config and DeepSeek-VL's language_config hold the same fields). */
const TEXT_CONFIG_KEYS = Object.freeze(['text_config', 'llm_config', 'language_config']);
/** The longest model_type read (characters): a type is a short identifier; a longer string is refused, not copied into notes. */
const MODEL_TYPE_MAX = 64;
/** The model types whose attention code this reader follows; any other is read field by field, with nothing assumed. */
export const MODEL_CONFIG_TYPES = Object.freeze([
  'llama', 'mistral', 'qwen2', 'qwen2_moe', 'qwen3', 'qwen3_moe', 'qwen3_next', 'gemma', 'gemma2', 'gemma3', 'gemma3_text',
  'granite', 'granitemoe', 'llama4', 'llama4_text', 'gpt_oss', 'olmo2', 'deepseek_v2', 'deepseek_v3', 'deepseek_v32', 'kimi_k2',
]);

// Fields that do not touch the logits of one head (sizes of other parts, tokens, training and runtime settings).
const IGNORED = new Set([
  'architectures', 'auto_map', 'transformers_version', 'torch_dtype', 'dtype', 'use_cache', 'vocab_size', 'intermediate_size',
  'num_hidden_layers', 'hidden_act', 'hidden_activation', 'rms_norm_eps', 'layer_norm_eps', 'layer_norm_epsilon', 'initializer_range',
  'bos_token_id', 'eos_token_id', 'pad_token_id', 'tie_word_embeddings', 'attention_bias', 'attention_dropout', 'mlp_bias',
  'rope_theta', 'rope_local_base_freq', 'pretraining_tp', 'quantization_config', 'max_position_embeddings', 'max_window_layers',
  'moe_intermediate_size', 'n_routed_experts', 'n_shared_experts', 'num_experts', 'num_local_experts', 'num_experts_per_tok',
  'experts_per_token', 'moe_layer_freq', 'first_k_dense_replace', 'norm_topk_prob', 'scoring_func', 'topk_method', 'n_group',
  'topk_group', 'routed_scaling_factor', 'aux_loss_alpha', 'seq_aux', 'ep_size', 'num_nextn_predict_layers', 'router_aux_loss_coef',
  'router_jitter_noise', 'output_router_logits', 'shared_expert_intermediate_size', 'decoder_sparse_step', 'mlp_only_layers',
  'interleave_moe_layer_step', 'moe_layers', 'intermediate_size_mlp', 'swiglu_limit', 'initial_context_length', 'q_lora_rank',
  'kv_lora_rank', 'linear_conv_kernel_dim', 'linear_key_head_dim', 'linear_value_head_dim', 'linear_num_key_heads',
  'linear_num_value_heads', 'full_attention_interval', 'final_logit_softcapping', 'cache_implementation', 'for_llm_compressor',
  'hidden_size', 'vision_config', 'boi_token_index', 'eoi_token_index', 'image_token_index', 'mm_tokens_per_image', 'embedding_multiplier',
  'residual_multiplier', 'logits_scaling', 'attention_chunk_size', 'rope_interleave', 'use_bidirectional_attention', 'name_or_path',
  '_name_or_path', 'rope_scaling_factor', 'rope_ntk_alpha', 'rope_ntk_beta', 'tokenizer_class', 'model_type', ...TEXT_CONFIG_KEYS,
]);
// rope_scaling members that set frequencies only (the attention factor's members are read).
const ROPE_IGNORED = new Set(['beta_fast', 'beta_slow', 'truncate', 'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings']);

/** @param {unknown} v */
const describe = (v) => (typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : String(v));

/** yarn_get_mscale(scale, mscale) of DeepSeek's code and get_mscale of transformers' _compute_yarn_parameters: 1 for scale ≤ 1, else 0.1 · mscale · ln(scale) + 1. */
/** @param {number} scale @param {number} [mscale] @returns {number} */
export function yarnMscale(scale, mscale = 1) {
  return scale <= 1 ? 1 : 0.1 * mscale * Math.log(scale) + 1;
}
/** Llama 4's query temperature at a position (0-based): 1 + attn_scale · ln(⌊(pos + 1) / floor_scale⌋ + 1) (modeling_llama4.py, Llama4TextAttention.forward). */
/** @param {number} pos @param {number} floorScale @param {number} attnScale @returns {number} */
export function llama4Temperature(pos, floorScale, attnScale) {
  return 1 + attnScale * Math.log1p(Math.floor((pos + 1) / floorScale));
}

/**
 * Reads the fields of a Hugging Face config.json that touch the attention logits and returns the effective
 * softmax scale c (logits = c · q·k of one head), its ratio to 1/√d_head, every modifier with the field it
 * came from (and whether it is in c), and the fields used, ignored (known not to touch the logits) and not
 * understood. A multimodal config is read from its text_config. A model type this reader has no rule for is
 * read field by field: what its fields say, never what its code might do.
 *
 * @param {string | object} json the file's text (at most MODEL_CONFIG_LIMITS.chars characters) or its parsed object
 * @returns {object} a ModelConfigResult (core.d.ts)
 * @throws {RangeError} text over the limit, a head count, head size or scalar out of range (negative, zero, huge,
 *   non-integer where an integer is due), hidden_size not divisible by num_attention_heads, no head size at all
 * @throws {SyntaxError} text that is not JSON, naming the parser's message
 * @throws {TypeError} a field of the wrong type (naming it and its value), a top level that is not an object
 */
export function modelConfig(json) {
  let raw = json;
  if (typeof json === 'string') {
    if (json.length > MODEL_CONFIG_LIMITS.chars) {
      throw new RangeError(`modelConfig: the config is ${json.length} characters, over the limit of ${MODEL_CONFIG_LIMITS.chars} (a config.json is a few KB): not read`);
    }
    try {
      // an editor's byte-order mark before the JSON is not part of it
      raw = JSON.parse(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
    } catch (e) {
      throw new SyntaxError(`modelConfig: not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TypeError(`modelConfig: a config.json holds one JSON object, got ${describe(raw)}`);
  }
  const top = /** @type {Record<string, unknown>} */ (raw);
  const textKey = TEXT_CONFIG_KEYS.find((k) => Object.prototype.hasOwnProperty.call(top, k) && top[k] !== undefined && top[k] !== null);
  const hasText = textKey !== undefined;
  if (hasText && (typeof top[textKey] !== 'object' || Array.isArray(top[textKey]))) {
    throw new TypeError(`modelConfig: ${textKey} must be an object, got ${describe(top[textKey])}`);
  }
  const cfg = /** @type {Record<string, unknown>} */ (hasText ? top[textKey] : top);
  const prefix = hasText ? `${textKey}.` : '';
  const used = new Set();
  /** @param {string} k */
  const own = (k) => Object.prototype.hasOwnProperty.call(cfg, k) && cfg[k] !== null && cfg[k] !== undefined;

  /** A number field: absent or null → undefined; else checked (finite, integer if asked, within [min, max]). */
  /**
   * @param {string} key
   * @param {{ int?: boolean, min?: number, max?: number, exclusiveMin?: boolean, from?: Record<string, unknown>, name?: string }} [opts]
   * @returns {number | undefined}
   */
  function num(key, { int = false, min = 0, max = Infinity, exclusiveMin = true, from = cfg, name = prefix + key } = {}) {
    if (!Object.prototype.hasOwnProperty.call(from, key) || from[key] === null || from[key] === undefined) return undefined;
    const v = from[key];
    if (typeof v !== 'number') throw new TypeError(`modelConfig: ${name} must be a number, got ${describe(v)}`);
    if (!Number.isFinite(v)) throw new RangeError(`modelConfig: ${name} must be finite, got ${v}`);
    if (int && !Number.isInteger(v)) throw new RangeError(`modelConfig: ${name} must be an integer, got ${v}`);
    if ((exclusiveMin ? v <= min : v < min) || v > max) {
      throw new RangeError(`modelConfig: ${name} = ${v} is out of range (${exclusiveMin ? '>' : '≥'} ${min}${Number.isFinite(max) ? `, ≤ ${max}` : ''})`);
    }
    used.add(name);
    return v;
  }
  /** @param {string} key @returns {boolean | undefined} */
  function bool(key) {
    if (!own(key)) return undefined;
    const v = cfg[key];
    if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw new TypeError(`modelConfig: ${prefix}${key} must be a boolean (true, false, 0 or 1), got ${describe(v)}`);
    used.add(prefix + key);
    return Boolean(v);
  }
  /** @param {Record<string, unknown>} from @param {string} key @param {string} name @returns {string | undefined} */
  function str(from, key, name) {
    if (!Object.prototype.hasOwnProperty.call(from, key) || from[key] === null || from[key] === undefined) return undefined;
    if (typeof from[key] !== 'string') throw new TypeError(`modelConfig: ${name} must be a string, got ${describe(from[key])}`);
    const v = /** @type {string} */ (from[key]);
    if (v.length > MODEL_TYPE_MAX) throw new RangeError(`modelConfig: ${name} is ${v.length} characters long, over ${MODEL_TYPE_MAX}: ${describe(v)} is not a type name`);
    return v;
  }

  const modelType = str(cfg, 'model_type', `${prefix}model_type`) ?? str(top, 'model_type', 'model_type') ?? '';
  const topType = str(top, 'model_type', 'model_type') ?? '';
  const known = MODEL_CONFIG_TYPES.includes(modelType) || MODEL_CONFIG_TYPES.includes(topType);
  if (modelType) used.add(cfg.model_type === modelType ? `${prefix}model_type` : 'model_type');

  const [hMin, hMax] = MODEL_CONFIG_LIMITS.heads;
  const [dMin, dMax] = MODEL_CONFIG_LIMITS.headDim;
  const heads = num('num_attention_heads', { int: true, min: hMin, max: hMax, exclusiveMin: false });
  const headsKvRaw = num('num_key_value_heads', { int: true, min: hMin, max: hMax, exclusiveMin: false });
  const hidden = num('hidden_size', { int: true, min: 1, max: MODEL_CONFIG_LIMITS.hiddenSize[1], exclusiveMin: false });
  const headDim = num('head_dim', { int: true, min: dMin, max: dMax, exclusiveMin: false });
  const nope = num('qk_nope_head_dim', { int: true, min: 0, max: dMax, exclusiveMin: false });
  const rope = num('qk_rope_head_dim', { int: true, min: 0, max: dMax, exclusiveMin: false });
  const vHead = num('v_head_dim', { int: true, min: dMin, max: dMax, exclusiveMin: false });
  if (headsKvRaw !== undefined && heads !== undefined && (headsKvRaw > heads || heads % headsKvRaw !== 0)) {
    throw new RangeError(`modelConfig: ${prefix}num_key_value_heads = ${headsKvRaw} must divide ${prefix}num_attention_heads = ${heads}`);
  }

  /** @type {object[]} the ModelConfigModifier entries (core.d.ts) */
  const modifiers = [];
  /** @param {string} kind @param {string} field @param {number | string | boolean} value @param {number} factor @param {boolean} inScale @param {string} note @param {string} source */
  const add = (kind, field, value, factor, inScale, note, source) => modifiers.push({ kind, field, value, factor, inScale, note, source });

  // ---- d_head: MLA's q·k size, head_dim, or hidden_size / num_attention_heads ----
  let dHead;
  let dHeadFrom;
  const mla = nope !== undefined && rope !== undefined && nope + rope > 0;
  if (mla) {
    if (nope + rope > dMax) throw new RangeError(`modelConfig: ${prefix}qk_nope_head_dim + ${prefix}qk_rope_head_dim = ${nope + rope} is over ${dMax}`);
    dHead = nope + rope;
    dHeadFrom = `${prefix}qk_nope_head_dim + ${prefix}qk_rope_head_dim`;
  } else if (headDim !== undefined) {
    dHead = headDim;
    dHeadFrom = `${prefix}head_dim`;
  } else if (hidden !== undefined && heads !== undefined) {
    if (hidden % heads !== 0) throw new RangeError(`modelConfig: ${prefix}hidden_size = ${hidden} is not divisible by ${prefix}num_attention_heads = ${heads}`);
    dHead = hidden / heads;
    if (dHead > dMax) throw new RangeError(`modelConfig: ${prefix}hidden_size / ${prefix}num_attention_heads = ${dHead} is over ${dMax}`);
    dHeadFrom = `${prefix}hidden_size / ${prefix}num_attention_heads`;
  } else {
    throw new RangeError(`modelConfig: no head size: the config has none of ${prefix}head_dim, ${prefix}qk_nope_head_dim + ${prefix}qk_rope_head_dim, or ${prefix}hidden_size with ${prefix}num_attention_heads`);
  }
  if (!mla) {
    // an MLA size of 0 + 0, or one of the pair alone, is not MLA: say so rather than read half of it
    if (nope !== undefined) used.delete(`${prefix}qk_nope_head_dim`);
    if (rope !== undefined) used.delete(`${prefix}qk_rope_head_dim`);
  }
  if (!dHeadFrom.includes('hidden_size')) used.delete(`${prefix}hidden_size`);
  const dV = mla && vHead !== undefined ? vHead : headDim ?? dHead;
  const invSqrtDHead = 1 / Math.sqrt(dHead);

  // ---- the base scale ----
  // query_pre_attn_scalar stands where d_head stands (Gemma: 144, 168, 256); attention_multiplier is a scale (Granite: 2^−7)
  const qpas = num('query_pre_attn_scalar', { min: 1, max: 1e12, exclusiveMin: false });
  const attnMult = num('attention_multiplier', { min: 1e-6, max: 1e4, exclusiveMin: false });
  let scale;
  let formula;
  if (qpas !== undefined) {
    scale = 1 / Math.sqrt(qpas);
    formula = `1/√query_pre_attn_scalar = 1/√${qpas}`;
    add('query_pre_attn_scalar', `${prefix}query_pre_attn_scalar`, qpas, scale / invSqrtDHead, true,
      `c = ${qpas}^−½ in place of d_head^−½ = ${dHead}^−½`, SRC.gemma);
  } else if (attnMult !== undefined) {
    scale = attnMult;
    formula = `attention_multiplier = ${attnMult}`;
    add('attention_multiplier', `${prefix}attention_multiplier`, attnMult, scale / invSqrtDHead, true,
      `c = attention_multiplier in place of d_head^−½ (${(attnMult * dHead).toPrecision(4)}/d_head)`, SRC.granite);
  } else {
    scale = invSqrtDHead;
    formula = mla ? `1/√(qk_nope_head_dim + qk_rope_head_dim) = 1/√${dHead}` : `1/√d_head = 1/√${dHead}`;
  }
  if (qpas !== undefined && attnMult !== undefined) {
    throw new RangeError(`modelConfig: both ${prefix}query_pre_attn_scalar and ${prefix}attention_multiplier are set: no model's code reads both`);
  }

  // ---- rope_scaling: YaRN's attention factor, DeepSeek's mscale² ----
  /** fields read but not understood (a Set: a rope_scaling of 80,000 members must not cost 80,000² steps) */
  const notUnderstood = new Set();
  /** @param {string} name */
  const notUnderstand = (name) => {
    used.delete(name);
    notUnderstood.add(name);
  };
  const partial = num('partial_rotary_factor', { min: 0, max: 1 });
  let rs;
  /** rope_scaling members present that change nothing under its rope type (said as ignored) */
  const ropeQuiet = new Set();
  if (own('rope_scaling')) {
    if (typeof cfg.rope_scaling !== 'object' || Array.isArray(cfg.rope_scaling)) throw new TypeError(`modelConfig: ${prefix}rope_scaling must be an object or null, got ${describe(cfg.rope_scaling)}`);
    rs = /** @type {Record<string, unknown>} */ (cfg.rope_scaling);
  }
  if (rs) {
    const rp = `${prefix}rope_scaling.`;
    const ropeType = str(rs, 'rope_type', `${rp}rope_type`) ?? str(rs, 'type', `${rp}type`) ?? '';
    if (ropeType) used.add(rs.rope_type !== undefined ? `${rp}rope_type` : `${rp}type`);
    const factor = num('factor', { from: rs, name: `${rp}factor`, min: 0, max: 1e6 });
    if (ropeType === 'yarn' || ropeType === 'deepseek_yarn') {
      if (factor === undefined) throw new RangeError(`modelConfig: ${rp}factor is required by rope type ${ropeType}`);
      const mscale = num('mscale', { from: rs, name: `${rp}mscale`, min: 0, max: 1e3, exclusiveMin: false });
      const mscaleAll = num('mscale_all_dim', { from: rs, name: `${rp}mscale_all_dim`, min: 0, max: 1e3, exclusiveMin: false });
      const af = num('attention_factor', { from: rs, name: `${rp}attention_factor`, min: 0, max: 1e3 });
      const rotaryFactor = af ?? (mscale && mscaleAll ? yarnMscale(factor, mscale) / yarnMscale(factor, mscaleAll) : yarnMscale(factor));
      // transformers reads mscale and mscale_all_dim only together and only without attention_factor (DeepSeek's MLA code
      // reads mscale_all_dim for the scale): otherwise they are in the file but change nothing
      if (!(af === undefined && mscale && mscaleAll)) {
        for (const k of ['mscale', ...(mla && MLA_TYPES.has(modelType) ? [] : ['mscale_all_dim'])]) {
          if (used.delete(`${rp}${k}`)) ropeQuiet.add(k);
        }
      }
      const afFrom = af !== undefined ? `${rp}attention_factor` : mscale && mscaleAll ? `${rp}factor, ${rp}mscale, ${rp}mscale_all_dim` : `${rp}factor`;
      if (mla && MLA_TYPES.has(modelType)) {
        if (mscaleAll) {
          const m = yarnMscale(factor, mscaleAll);
          scale *= m * m;
          formula += ` · yarn_get_mscale(${factor}, ${mscaleAll})²`;
          add('yarn_mscale', `${rp}factor, ${rp}mscale_all_dim`, factor, m * m, true,
            `softmax_scale × (0.1 · ${mscaleAll} · ln ${factor} + 1)² = × ${(m * m).toPrecision(6)} on every logit`, SRC.mlaMscale);
        }
        if (rotaryFactor !== 1) {
          add('yarn_rotary', afFrom, rotaryFactor, 1, false,
            `cos and sin of the shared rotary part (qk_rope_head_dim ${rope}) × ${rotaryFactor.toPrecision(6)}: only the rotary part of q·k is multiplied (by its square), not every logit`, SRC.yarn);
        }
      } else if (mla) {
        if (rs.mscale_all_dim !== undefined) notUnderstand(`${rp}mscale_all_dim`);
        add('yarn_rotary', afFrom, rotaryFactor, 1, false,
          `model type ${describe(modelType)} is not one whose MLA code this reader follows: the attention factor is reported, not applied`, SRC.yarn);
      } else if (partial === undefined || partial === 1) {
        scale *= rotaryFactor * rotaryFactor;
        formula += ` · attention_factor² (${rotaryFactor.toPrecision(6)}²)`;
        add('yarn_attention_factor', afFrom, rotaryFactor, rotaryFactor * rotaryFactor, true,
          `YaRN multiplies cos and sin of every q and k component by ${rotaryFactor.toPrecision(6)}: every logit by its square`, SRC.yarn);
      } else {
        add('yarn_attention_factor', afFrom, rotaryFactor, 1, false,
          `partial_rotary_factor ${partial}: only the rotated ${Math.round(partial * dHead)} of ${dHead} components are multiplied, so the logits are not scaled uniformly`, SRC.yarn);
      }
      if (own('max_position_embeddings') && typeof rs.original_max_position_embeddings === 'number') {
        const ratio = /** @type {number} */ (cfg.max_position_embeddings) / rs.original_max_position_embeddings;
        if (Number.isFinite(ratio) && Math.abs(ratio - factor) > 1e-9 * factor) {
          add('yarn_factor_note', `${prefix}max_position_embeddings / ${rp}original_max_position_embeddings`, ratio, 1, false,
            `these give ${ratio}, not factor ${factor}: transformers versions that take the attention factor from that ratio give another number`, SRC.yarn);
        }
      }
    } else if (ropeType === 'llama3' || ropeType === 'linear' || ropeType === 'default' || ropeType === 'dynamic' || ropeType === 'longrope') {
      if (ropeType === 'longrope') notUnderstand(`${rp}${rs.rope_type !== undefined ? 'rope_type' : 'type'}`);
      else add('rope_scaling', `${rp}${rs.rope_type !== undefined ? 'rope_type' : 'type'}`, ropeType, 1, false,
        `${ropeType} rope scaling changes frequencies only; its attention factor is 1`, `${TF}modeling_rope_utils.py (_compute_${ropeType === 'llama3' ? 'llama3' : ropeType === 'linear' ? 'linear_scaling_rope' : ropeType === 'dynamic' ? 'dynamic_ntk' : 'default_rope'}_parameters: attention_factor = 1.0)`);
    } else if (ropeType) {
      notUnderstand(`${rp}${rs.rope_type !== undefined ? 'rope_type' : 'type'}`);
    }
    // validated wherever it is (a frequency setting, but a wrong one is a wrong file)
    num('original_max_position_embeddings', { from: rs, name: `${rp}original_max_position_embeddings`, int: true, min: 1, max: 1e9, exclusiveMin: false });
    used.delete(`${rp}original_max_position_embeddings`);
    // every other member: used, known to set frequencies only, or not understood (mscale under a rope type that does
    // not read it included)
    for (const k of Object.keys(rs)) {
      const name = `${rp}${k}`;
      if (!used.has(name) && !ROPE_IGNORED.has(k) && !ropeQuiet.has(k) && !notUnderstood.has(name)) notUnderstood.add(name);
    }
  }
  if (partial !== undefined && partial !== 1) {
    add('partial_rotary', `${prefix}partial_rotary_factor`, partial, 1, false,
      `RoPE rotates ${Math.round(partial * dHead)} of the ${dHead} components of q and k`, SRC.qwen3Next);
  }

  // ---- soft-cap ----
  const softcap = num('attn_logit_softcapping', { min: 0, max: 1e6 }) ?? 0;
  if (softcap > 0) {
    add('softcap', `${prefix}attn_logit_softcapping`, softcap, 1, false, `after the scale: ${softcap} · tanh(s / ${softcap}) bounds every logit by ±${softcap}`, SRC.softcap);
  }

  // ---- Llama 4's temperature ----
  let llama4 = null;
  const tuning = own('attn_temperature_tuning') ? cfg.attn_temperature_tuning : undefined;
  if (tuning !== undefined) {
    if (typeof tuning !== 'boolean' && typeof tuning !== 'number') throw new TypeError(`modelConfig: ${prefix}attn_temperature_tuning must be a boolean or a number, got ${describe(tuning)}`);
    used.add(`${prefix}attn_temperature_tuning`);
  }
  const floorScale = num('floor_scale', { min: 1, max: 1e9, exclusiveMin: false });
  const attnScale = num('attn_scale', { min: 0, max: 1e3, exclusiveMin: false });
  if (tuning && floorScale !== undefined && attnScale !== undefined) {
    llama4 = { floorScale, attnScale };
    const at = typeof cfg.max_position_embeddings === 'number' && cfg.max_position_embeddings > 0 ? cfg.max_position_embeddings : 131072;
    const t = llama4Temperature(at - 1, floorScale, attnScale);
    add('llama4_temperature', `${prefix}attn_temperature_tuning, ${prefix}floor_scale, ${prefix}attn_scale`, attnScale, 1, false,
      `NoPE layers multiply q by 1 + ${attnScale} · ln(⌊(pos + 1) / ${floorScale}⌋ + 1): 1 below ${floorScale} tokens, ${t.toPrecision(5)} at ${at} (per position, not in c)`, SRC.llama4);
  }

  // ---- QK-norm, sinks, the output gate, sparse attention ----
  let qkNorm = false;
  for (const key of ['use_qk_norm', 'qk_layernorm', 'qk_norm']) {
    const v = bool(key);
    if (v !== undefined) {
      qkNorm = qkNorm || v;
      if (v) add('qk_norm', `${prefix}${key}`, true, 1, false, 'q and k are normalised per head before q·k: |q·k| is bounded by the norm gains, not by d_head', key === 'use_qk_norm' ? SRC.llama4 : SRC.qwen3);
    }
  }
  const typeRule = QK_NORM_TYPES.get(modelType) ?? QK_NORM_TYPES.get(topType);
  if (!qkNorm && typeRule) {
    qkNorm = true;
    add('qk_norm', `${cfg.model_type === modelType ? prefix : ''}model_type`, modelType, 1, false,
      `${describe(modelType)}'s attention normalises q and k (RMSNorm) before q·k: |q·k| is bounded by the norm gains`, typeRule);
  }
  const sinks = modelType === 'gpt_oss';
  if (sinks) add('sinks', `${prefix}model_type`, modelType, 1, false, 'a learned sink logit per head joins every row: the weights on the keys sum to less than one', SRC.sinks);
  if (modelType === 'qwen3_next') add('output_gate', `${prefix}model_type`, modelType, 1, false, 'the attention output is multiplied by sigmoid(gate) per head: the logits are unchanged', SRC.qwen3Next);
  if (modelType === 'deepseek_v32') {
    const topk = num('index_topk', { int: true, min: 1, max: 1e9, exclusiveMin: false });
    num('index_head_dim', { int: true, min: 1, max: dMax, exclusiveMin: false });
    num('index_n_heads', { int: true, min: 1, max: hMax, exclusiveMin: false });
    if (topk !== undefined) add('sparse_topk', `${prefix}index_topk`, topk, 1, false, `each query attends its ${topk} top-scored keys (DeepSeek Sparse Attention): the softmax runs over at most ${topk} logits`, SRC.dsa);
  }

  // ---- GQA, the sliding window ----
  const headsKv = headsKvRaw ?? heads ?? 0;
  if (headsKvRaw !== undefined && heads !== undefined && headsKvRaw < heads) {
    add('gqa', `${prefix}num_key_value_heads`, headsKvRaw, 1, false, `${heads} query heads share ${headsKvRaw} key/value heads (${heads / headsKvRaw} per group): the logits of a head are unchanged`, SRC.gqa);
  }
  let slidingWindow = 0;
  // Gemma 3: every pattern-th layer is global, the others slide (an integer ≥ 1); layer_types: one string per layer
  const pattern = num('sliding_window_pattern', { int: true, min: 1, max: 1e6, exclusiveMin: false });
  let layerTypes;
  if (own('layer_types')) {
    const lt = cfg.layer_types;
    if (!Array.isArray(lt) || lt.length > 1e5 || lt.some((t) => typeof t !== 'string')) {
      throw new TypeError(`modelConfig: ${prefix}layer_types must be an array of layer type names (strings), got ${Array.isArray(lt) ? 'an array with a non-string member' : describe(lt)}`);
    }
    layerTypes = /** @type {string[]} */ (lt);
  }
  const win = num('sliding_window', { int: true, min: 1, max: 1e9, exclusiveMin: false });
  const useWin = bool('use_sliding_window');
  if (win !== undefined && useWin !== false) {
    slidingWindow = win;
    let layers = '';
    if (layerTypes !== undefined) {
      used.add(`${prefix}layer_types`);
      const n = layerTypes.filter((t) => t === 'sliding_attention').length;
      layers = ` on ${n} of ${layerTypes.length} layers`;
    } else if (pattern !== undefined) {
      layers = ` on ${pattern - 1} of every ${pattern} layers`;
    } else used.delete(`${prefix}sliding_window_pattern`);
    add('sliding_window', `${prefix}sliding_window`, win, 1, false, `a query sees at most ${win} keys${layers}: the entropy of those layers stops growing past L = ${win}`, SRC.sliding);
  } else used.delete(`${prefix}sliding_window_pattern`);
  if (Array.isArray(cfg.no_rope_layers)) used.add(`${prefix}no_rope_layers`);

  // ---- the fields' accounts ----
  const ignored = [];
  const unknown = [...notUnderstood];
  const quietly = new Set(['layer_types', 'use_sliding_window', 'sliding_window_pattern', 'no_rope_layers']);
  // the config read: each member used, known not to touch the logits, or not understood (rope_scaling's members above)
  for (const k of Object.keys(cfg)) {
    const name = prefix + k;
    if (used.has(name) || (k === 'rope_scaling' && rs)) continue;
    if (k === 'rope_scaling') { ignored.push(name); continue; } // null: no rope scaling
    if (IGNORED.has(k) || quietly.has(k)) ignored.push(name);
    else unknown.push(name);
  }
  // beside a text config, the top level: only its model_type (when the text config has none) is read; a field that
  // touches the logits there (rope_scaling, head_dim…) is not what the language model reads, so it is said, not dropped
  if (hasText) {
    for (const k of Object.keys(top)) {
      if (k === textKey || (k === 'model_type' && used.has('model_type'))) continue;
      if (IGNORED.has(k)) ignored.push(k);
      else unknown.push(k);
    }
  }
  if (rs) {
    for (const k of Object.keys(rs)) {
      const name = `${prefix}rope_scaling.${k}`;
      if ((ROPE_IGNORED.has(k) || ropeQuiet.has(k)) && !used.has(name) && !notUnderstood.has(name)) ignored.push(name);
    }
  }
  return {
    modelType, known, textConfig: hasText,
    dHead, dHeadFrom, dV, heads: heads ?? 0, headsKv,
    scale, invSqrtDHead, ratio: scale / invSqrtDHead, formula,
    softcap, sinks, qkNorm, slidingWindow, llama4,
    modifiers,
    used: [...used].sort(),
    ignored: ignored.sort(),
    unknown: [...new Set(unknown)].sort(),
  };
}
