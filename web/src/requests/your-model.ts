// The requests of "Your model" (in Scales in the wild): the saved configs it offers (the logit fields of the files in
// tests/node/configs), reading a pasted one with modelConfig, the state a result puts in the URL (its fields, never
// the file), the entropy request at L = wlen, and the links opening saturation, long context and precision. No DOM.
import { modelConfig } from '../../../wasm/js/model-config.js';
import type { AttentionStatsParams, ModelConfigResult, ModelScale } from '../../../wasm/js/core.js';
import type { SavedModel, State } from '../state/state.ts';
import { SCHEMA } from '../state/schema.js';
import { wildStatsParams, explicitScaleValue } from './wild.ts';

/** A saved config: its label, where its fields come from, and the fields of its config.json that touch the logits. */
export interface SavedConfig { id: Exclude<SavedModel, 'none'>; label: string; source: string; config: Record<string, unknown> }

const alternate = (a: string, b: string, period: number, layers: number): string[] =>
  Array.from({ length: layers }, (_, i) => ((i + 1) % period === 0 ? b : a));

/**
 * The saved configs, in the order of the state's `ym` values: the fields of each file in tests/node/configs that
 * modelConfig reads (tests/web/your-model.test.ts holds each to the whole file's reading, scale and modifiers).
 */
export const SAVED_CONFIGS: readonly SavedConfig[] = [
  {
    id: 'deepseek-v3', label: 'DeepSeek-V3', source: 'deepseek-ai/DeepSeek-V3 config.json',
    config: {
      model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, num_key_value_heads: 128, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' }, max_position_embeddings: 163840,
    },
  },
  {
    id: 'deepseek-v3.2', label: 'DeepSeek-V3.2-Exp', source: 'deepseek-ai/DeepSeek-V3.2-Exp config.json',
    config: {
      model_type: 'deepseek_v32', hidden_size: 7168, num_attention_heads: 128, num_key_value_heads: 128, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' }, max_position_embeddings: 163840,
      index_head_dim: 128, index_n_heads: 64, index_topk: 2048,
    },
  },
  {
    id: 'kimi-k2', label: 'Kimi K2', source: 'moonshotai/Kimi-K2-Instruct config.json',
    config: {
      model_type: 'kimi_k2', hidden_size: 7168, num_attention_heads: 64, num_key_value_heads: 64, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128,
      rope_scaling: { beta_fast: 1.0, beta_slow: 1.0, factor: 32.0, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' }, max_position_embeddings: 131072,
    },
  },
  {
    id: 'qwen3-next', label: 'Qwen3-Next 80B-A3B', source: 'Qwen3-Next config.json (model_type qwen3_next)',
    config: {
      model_type: 'qwen3_next', hidden_size: 2048, num_attention_heads: 16, num_key_value_heads: 2, head_dim: 256, rope_scaling: null, partial_rotary_factor: 0.25,
      use_sliding_window: false, layer_types: alternate('linear_attention', 'full_attention', 4, 48), max_position_embeddings: 262144,
    },
  },
  {
    id: 'gemma-3-27b', label: 'Gemma 3 27B', source: 'google/gemma-3-27b-it config.json',
    config: {
      model_type: 'gemma3',
      text_config: {
        model_type: 'gemma3_text', hidden_size: 5376, num_attention_heads: 32, num_key_value_heads: 16, head_dim: 128, rope_scaling: { factor: 8.0, rope_type: 'linear' },
        query_pre_attn_scalar: 168, sliding_window: 1024,
      },
    },
  },
  {
    id: 'gpt-oss-120b', label: 'gpt-oss-120b', source: 'openai/gpt-oss-120b config.json',
    config: {
      model_type: 'gpt_oss', hidden_size: 2880, num_attention_heads: 64, num_key_value_heads: 8, head_dim: 64,
      rope_scaling: { beta_fast: 32.0, beta_slow: 1.0, factor: 32.0, original_max_position_embeddings: 4096, rope_type: 'yarn', truncate: false },
      sliding_window: 128, layer_types: alternate('sliding_attention', 'full_attention', 2, 36), max_position_embeddings: 131072,
    },
  },
  {
    id: 'llama-4-scout', label: 'Llama 4 Scout 17B-16E', source: 'meta-llama/Llama-4-Scout-17B-16E config.json',
    config: {
      model_type: 'llama4',
      text_config: {
        model_type: 'llama4_text', hidden_size: 5120, num_attention_heads: 40, num_key_value_heads: 8, head_dim: 128,
        rope_scaling: { factor: 8.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
        attn_temperature_tuning: 4, floor_scale: 8192, attn_scale: 0.1, use_qk_norm: true, max_position_embeddings: 262144,
        no_rope_layers: alternate('1', '0', 4, 48).map(Number),
      },
    },
  },
  {
    id: 'llama-3.1-8b', label: 'Llama 3.1 8B', source: 'meta-llama/Llama-3.1-8B config.json',
    config: {
      model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8,
      rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' }, max_position_embeddings: 131072,
    },
  },
];

/** A saved config by its id, or undefined for 'none'. */
export function savedConfig(id: SavedModel): SavedConfig | undefined {
  return SAVED_CONFIGS.find((c) => c.id === id);
}

/** What the section shows: a config read (saved or pasted), or only the fields a link carried. */
export type YourModel =
  | { from: 'saved' | 'pasted'; label: string; result: ModelConfigResult }
  | { from: 'link'; dHead: number; scale: number; softcap: number };

/** Reads a config's text with modelConfig: the result, or the Error it threw (SyntaxError, TypeError, RangeError naming the field). */
export function readConfig(text: string): { ok: true; result: ModelConfigResult } | { ok: false; error: Error } {
  try {
    return { ok: true, result: modelConfig(text) as ModelConfigResult };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e : new Error(String(e)) };
  }
}

/** The state's fields of a pasted config's result (the link carries these, never the file), or why they cannot be carried. */
export function pastedPatch(r: ModelConfigResult): { ok: true; patch: Partial<State> } | { ok: false; key: 'ymdh' | 'ymsc' | 'ymcap'; value: number } {
  const sc = explicitScaleValue(r.scale);
  if (r.dHead > SCHEMA.ymdh.max) return { ok: false, key: 'ymdh', value: r.dHead };
  if (!(sc > 0) || sc > SCHEMA.ymsc.max) return { ok: false, key: 'ymsc', value: r.scale };
  if (r.softcap > SCHEMA.ymcap.max) return { ok: false, key: 'ymcap', value: r.softcap };
  return { ok: true, patch: { ym: 'none', ymdh: r.dHead, ymsc: sc, ymcap: r.softcap } };
}

/** The model a state names: a saved config read, the link's fields, or null (nothing chosen). */
export function modelOfState(s: State): YourModel | null {
  const saved = savedConfig(s.ym);
  if (saved) return { from: 'saved', label: saved.label, result: modelConfig(saved.config) as ModelConfigResult };
  if (s.ymdh > 0 && s.ymsc > 0) return { from: 'link', dHead: s.ymdh, scale: s.ymsc, softcap: s.ymcap };
  return null;
}

/** d_head, c and the soft-cap of what the section shows. */
export function numbersOf(m: YourModel): { dHead: number; scale: number; softcap: number } {
  return m.from === 'link' ? { dHead: m.dHead, scale: m.scale, softcap: m.softcap } : { dHead: m.result.dHead, scale: m.result.scale, softcap: m.result.softcap };
}

/** The entropy at L = wlen on iid N(0, 1) inputs under the model's c (and soft-cap), and the reference 1/√d_head: forward only. */
export function yourModelParams(s: State, m: YourModel): { own: AttentionStatsParams; ref: AttentionStatsParams } {
  const n = numbersOf(m);
  return { own: wildStatsParams(s, n.dHead, n.scale, n.softcap), ref: wildStatsParams(s, n.dHead, 'inv_sqrt_dk') };
}

/** Where a model's settings open another view: a state patch, or null when the view cannot take them (the range it takes is said). */
export interface ViewLink { view: 'saturation' | 'longctx' | 'precision'; patch: Partial<State> | null }
export function yourModelLinks(m: YourModel): ViewLink[] {
  const { dHead, scale, softcap } = numbersOf(m);
  const sc = explicitScaleValue(scale);
  const sat = dHead <= SCHEMA.dk.max && sc > 0 && sc <= SCHEMA.sscale.max && softcap <= SCHEMA.softcap.max
    ? { exp: 'saturation' as const, dk: dHead, heads: 4, seqLen: 128, sscale: sc, softcap, causal: false, sink: [-Infinity] }
    : null;
  const long = dHead <= SCHEMA.ldk.max ? { exp: 'longctx' as const, ldk: dHead } : null;
  const prec = dHead <= SCHEMA.pdk.max ? { exp: 'precision' as const, pmode: 'random' as const, pdk: dHead, pscale: 'inv_sqrt_dk' as const } : null;
  return [{ view: 'saturation', patch: sat }, { view: 'longctx', patch: long }, { view: 'precision', patch: prec }];
}

/**
 * The saved configs whose model the core's catalogue (modelScales) does not list, in the order of the rows they add to
 * the catalogue of Scales in the wild: their numbers are modelConfig's reading of the fields saved above, so each row
 * holds what the fields the new readers understand (MLA with DeepSeek Sparse Attention, Kimi K2's YaRN, Qwen3-Next's
 * output gate and partial rotary) give.
 */
export const CATALOGUE_CONFIGS: readonly Exclude<SavedModel, 'none'>[] = ['deepseek-v3.2', 'kimi-k2', 'qwen3-next'];

/** A saved config as a catalogue row (ModelScale's fields), read by modelConfig; `params` are the fields it used with a number. */
export function configScale(c: SavedConfig): ModelScale {
  const r = modelConfig(c.config) as ModelConfigResult;
  const flat = (o: Record<string, unknown>, prefix = ''): [string, unknown][] =>
    Object.entries(o).flatMap(([k, v]) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? flat(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
  const values = new Map(flat(c.config));
  const params = r.used.flatMap((name) => { const v = values.get(name); return typeof v === 'number' ? [{ name, value: v }] : []; });
  const beside = r.modifiers.filter((m) => !m.inScale).map((m) => m.note);
  return {
    model: c.label, dHead: r.dHead, formula: r.formula, scale: r.scale, invSqrtDHead: r.invSqrtDHead,
    softcap: r.softcap > 0 ? r.softcap : null, sinks: r.sinks, qkNorm: r.qkNorm, params,
    note: ['Read by modelConfig from the saved config.json (tests/node/configs).', ...beside].join(' '),
    source: `${c.source}; ${[...new Set(r.modifiers.map((m) => m.source))].join('; ')}`,
  };
}

/** The catalogue rows of CATALOGUE_CONFIGS. */
export function configCatalogue(): ModelScale[] {
  return CATALOGUE_CONFIGS.map((id) => configScale(savedConfig(id)!));
}
/** The rows of Scales in the wild's table: the core's catalogue (modelScales), then the saved configs it does not list. */
export function wildCatalogue(core: readonly ModelScale[]): ModelScale[] {
  return [...core, ...configCatalogue()];
}
