// The scales real models compute (model_scales.hpp): each from its config values, with its source.
#include "model_scales.hpp"

#include <cmath>

#include "experiments.hpp"

namespace sqrtdk {

namespace {

double inv_sqrt(double d) { return 1.0 / std::sqrt(d); }

ModelScale entry(std::string model, int d_head, std::string formula, double scale, std::vector<ModelParam> params,
                 std::string source) {
  ModelScale m;
  m.model = std::move(model);
  m.d_head = d_head;
  m.formula = std::move(formula);
  m.scale = scale;
  m.inv_sqrt_d_head = inv_sqrt(d_head);
  m.params = std::move(params);
  m.source = std::move(source);
  return m;
}

// A model that divides by √head_dim, head_dim = hidden / heads.
ModelScale per_head(std::string model, int hidden, int heads, std::string source) {
  const int d = hidden / heads;
  return entry(std::move(model), d, "1/√d_head, d_head = hidden / heads", inv_sqrt(d),
               {{"hidden_size", double(hidden)}, {"num_attention_heads", double(heads)}}, std::move(source));
}

// Gemma's 1/√query_pre_attn_scalar.
ModelScale gemma(std::string model, int head_dim, int query_pre_attn_scalar, double softcap, bool qk_norm,
                 std::string note, std::string source) {
  ModelScale m = entry(std::move(model), head_dim, "1/√query_pre_attn_scalar", inv_sqrt(query_pre_attn_scalar),
                       {{"head_dim", double(head_dim)}, {"query_pre_attn_scalar", double(query_pre_attn_scalar)}},
                       std::move(source));
  if (softcap > 0.0) m.params.push_back({"attn_logit_softcapping", softcap});
  m.softcap = softcap;
  m.qk_norm = qk_norm;
  m.note = std::move(note);
  return m;
}

}  // namespace

std::vector<ModelScale> model_scales() {
  std::vector<ModelScale> out;
  out.push_back(per_head("GPT-2 (124M)", 768, 12,
                         "openai/gpt-2: src/model.py (multihead_attn: w = w * tf.rsqrt(d_head)); n_embd 768, n_head 12"));
  out.push_back(per_head("Llama 3 8B", 4096, 32,
                         "meta-llama/llama3: llama/model.py (Attention.forward: / math.sqrt(self.head_dim)); "
                         "params.json dim 4096, n_heads 32"));
  out.push_back(per_head("Qwen2.5 7B", 3584, 28,
                         "huggingface/transformers: src/transformers/models/qwen2/modeling_qwen2.py "
                         "(Qwen2Attention: scaling = head_dim**-0.5); Qwen/Qwen2.5-7B config.json"));
  {
    ModelScale m = entry("Qwen3 8B", 128, "1/√head_dim, after RMSNorm of q and k over head_dim", inv_sqrt(128),
                         {{"head_dim", 128}}, "huggingface/transformers: src/transformers/models/qwen3/modeling_qwen3.py "
                                              "(Qwen3Attention: q_norm, k_norm; scaling = head_dim**-0.5); Qwen/Qwen3-8B config.json");
    m.qk_norm = true;
    m.note = "QK-norm bounds |q·k| by the RMSNorm gains, so the iid variance argument no longer sets the logit scale";
    out.push_back(std::move(m));
  }
  const std::string gemma2 = "huggingface/transformers: src/transformers/models/gemma2/modeling_gemma2.py "
                             "(Gemma2Attention: scaling = query_pre_attn_scalar**-0.5; attn_logit_softcapping); ";
  out.push_back(gemma("Gemma 2 9B", 256, 256, 50.0, false, "query_pre_attn_scalar = head_dim: the usual 1/√d_head",
                      gemma2 + "google/gemma-2-9b config.json"));
  out.push_back(gemma("Gemma 2 27B", 128, 144, 50.0, false,
                      "144 = hidden_size 4608 / 32 heads, not head_dim 128: c is 0.87 of 1/√d_head",
                      gemma2 + "google/gemma-2-27b config.json"));
  out.push_back(gemma("Gemma 3 27B", 128, 168, 0.0, true,
                      "168 = hidden_size 5376 / 32 heads, not head_dim 128 (0.077152, not 0.088388); QK-norm replaces "
                      "Gemma 2's soft-cap",
                      "huggingface/transformers: src/transformers/models/gemma3/modeling_gemma3.py (Gemma3Attention: "
                      "q_norm, k_norm; scaling = query_pre_attn_scalar**-0.5); google/gemma-3-27b-pt config.json"));
  {
    // MLA: q·k over the content part and the rotary part, scaled by 1/√(128 + 64) and by YaRN's mscale².
    const int nope = 128, rope = 64;
    const double factor = 40.0, mscale = 1.0, mscale_all_dim = 1.0;
    const double ms = yarn_get_mscale(factor, mscale_all_dim);
    ModelScale m = entry("DeepSeek-V3", nope + rope,
                         "1/√(qk_nope_head_dim + qk_rope_head_dim) · yarn_get_mscale(factor, mscale_all_dim)²",
                         inv_sqrt(nope + rope) * ms * ms,
                         {{"qk_nope_head_dim", double(nope)}, {"qk_rope_head_dim", double(rope)},
                          {"rope_scaling.factor", factor}, {"rope_scaling.mscale", mscale},
                          {"rope_scaling.mscale_all_dim", mscale_all_dim}},
                         "deepseek-ai/DeepSeek-V3: inference/model.py (MLA.__init__: softmax_scale = qk_head_dim ** -0.5, "
                         "times mscale² beyond original_seq_len) and config.json rope_scaling; HF modeling_deepseek.py "
                         "yarn_get_mscale");
    m.note = "mscale² = " + format_number(ms * ms) +
             "; the rotary part's own factor (yarn_get_mscale(40, mscale) / yarn_get_mscale(40, mscale_all_dim))² is 1";
    out.push_back(std::move(m));
  }
  {
    // gpt-oss: YaRN's concentration multiplies the cos and sin of q and k: every logit by its square.
    const int head_dim = 64;
    const double factor = 32.0;
    const double concentration = yarn_get_mscale(factor, 1.0);  // 0.1 ln 32 + 1
    ModelScale m = entry("gpt-oss-120b / 20b", head_dim, "1/√head_dim · concentration², concentration = 0.1 ln(rope_scaling_factor) + 1",
                         inv_sqrt(head_dim) * concentration * concentration,
                         {{"head_dim", double(head_dim)}, {"rope_scaling_factor", factor}},
                         "openai/gpt-oss: gpt_oss/torch/model.py (AttentionBlock: sm_scale = 1 / math.sqrt(head_dim); "
                         "RotaryEmbedding._compute_concentration_and_inv_freq; sdpa appends the sinks)");
    m.sinks = true;
    m.note = "concentration² = " + format_number(concentration * concentration) +
             "; a learned sink logit per head; every other layer attends a 128-token sliding window";
    out.push_back(std::move(m));
  }
  {
    const int key_size = 128;
    const double cap = 30.0;
    ModelScale m = entry("Grok-1", key_size, "attn_output_multiplier = 1/√key_size, then 30 · tanh(s / 30)",
                         inv_sqrt(key_size), {{"key_size", double(key_size)}, {"max_attn_val", cap}},
                         "xai-org/grok-1: model.py (MultiHeadAttention: attn_logits *= attn_output_multiplier; "
                         "max_attn_val * jnp.tanh(attn_logits / max_attn_val)) and run.py (attn_output_multiplier)");
    m.softcap = cap;
    out.push_back(std::move(m));
  }
  {
    const int hidden = 4096, heads = 32;
    const double attention_multiplier = 0.0078125;  // the config's value, 2⁻⁷
    ModelScale m = entry("Granite 3.0 8B", hidden / heads, "attention_multiplier (= 1/d_head: μP's 1/d)",
                         attention_multiplier,
                         {{"hidden_size", double(hidden)}, {"num_attention_heads", double(heads)},
                          {"attention_multiplier", attention_multiplier}},
                         "huggingface/transformers: src/transformers/models/granite/modeling_granite.py (GraniteAttention: "
                         "scaling = config.attention_multiplier); ibm-granite/granite-3.0-8b-base config.json");
    m.note = "1/d_head rather than 1/√d_head, the μP convention: right when training correlates q and k";
    out.push_back(std::move(m));
  }
  {
    const int d_model = 768, d_kv = 64;
    ModelScale m = entry("T5-base", d_kv, "none (1): the 1/√d_kv sits in W_q's initialisation, std (d_model · d_kv)^−½", 1.0,
                         {{"d_model", double(d_model)}, {"d_kv", double(d_kv)},
                          {"q_init_std", 1.0 / std::sqrt(double(d_model) * d_kv)}},
                         "huggingface/transformers: src/transformers/models/t5/modeling_t5.py (T5Attention.forward: "
                         "scores = q kᵀ with no scale; _init_weights: q std factor * (d_model * key_value_proj_dim) ** -0.5, "
                         "'Mesh TensorFlow attention initialization to avoid scaling before softmax')");
    m.note = "W_q drawn with std (d_model · d_kv)^−½ = (d_model)^−½ · d_kv^−½ makes q·k ~ N(0, 1) at step 0 without a scale";
    out.push_back(std::move(m));
  }
  {
    const int head_dim = 128;
    const double floor_scale = 8192.0, attn_scale = 0.1;
    ModelScale m = entry("Llama 4 Scout", head_dim, "1/√head_dim; NoPE layers also multiply q by "
                                                    "t = 1 + attn_scale · ln(⌊(pos + 1) / floor_scale⌋ + 1)",
                         inv_sqrt(head_dim),
                         {{"head_dim", double(head_dim)}, {"floor_scale", floor_scale}, {"attn_scale", attn_scale},
                          {"t at pos + 1 = 131072", llama4_temperature(131072.0, floor_scale, attn_scale)}},
                         "meta-llama/llama-models: models/llama4/model.py (Attention.forward: attn_temperature_tuning); "
                         "huggingface/transformers: src/transformers/models/llama4/modeling_llama4.py");
    m.qk_norm = true;
    m.note = "t is 1 below 8192 tokens and grows in steps (longContext method 'llama4'); QK-norm (L2) on the RoPE layers";
    out.push_back(std::move(m));
  }
  {
    const int d = 64;
    ModelScale m = entry("μP attention (microsoft/mup)", d, "8 / d_head (attention_scores = q kᵀ · 8 / d)", 8.0 / d,
                         {{"d_head", double(d)}, {"numerator", 8.0}},
                         "microsoft/mup: README.md (Basic Usage: attention_scores = query @ key.T * 8 / d)");
    m.note = "equal to 1/√d_head at d_head 64 and falling as 1/d beyond it (Yang et al. 2021, Tensor Programs V §4); when "
             "width grows by adding heads at a fixed d_head, 1/√d_head stays right (microsoft/mup#17)";
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace sqrtdk
