// The forward pass on given tensors (attention, with masks, soft-capping, grouped K/V heads and
// sinks) and the softmax Jacobian of explicit logits (softmaxJacobian).
#pragma once

#include <span>
#include <vector>

#include "kernels.hpp"
#include "logit_options.hpp"
#include "shapes.hpp"
#include "precision.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// ---------------------------------------------------------------------------------------------
// softmaxJacobian: for explicit logits s [n] (n in 1..4096; −∞ allowed: a masked key; NaN and +∞
// refused): p = softmax(s) in double, J = diag(p) − p pᵀ [n, n], ‖J‖_F, ‖J‖₂, entropy (nats).
// All logits −∞: p = 0, J = 0 (no key attended), documented rather than NaN.
// softcap > 0: p = softmax(cap · tanh(s / cap)) (−∞ stays −∞) and J is the Jacobian with respect to
// the raw logits s, (diag(p) − p pᵀ) · diag(1 − tanh²(s / cap)); ‖J‖₂ then comes from the Lanczos method
// (see softmax_jacobian_scaled_norms). The entropy is that of p.
struct SoftmaxJacobianResult {
  std::vector<double> probs;     // [n]
  std::vector<double> jacobian;  // [n, n] row-major
  double frobenius = 0.0;
  double spectral = 0.0;
  double entropy = 0.0;
};
SoftmaxJacobianResult softmax_jacobian(std::span<const double> logits,
                                       double softcap = defaults::softmax_jacobian::softcap);

// ---------------------------------------------------------------------------------------------
// attention: the forward pass on caller-supplied q, k [heads, seq_len, dk] and v [heads, seq_len, dv]
// (finite float32; dv = dk unless given: DeepSeek's MLA has q/k heads of 192 and v heads of 128).
// Logits S = c · Q Kᵀ, then soft-capping (if softcap > 0), then the additive mask and the causal
// mask, then the row softmax: the semantics of PyTorch's scaled_dot_product_attention (attn_mask a
// float mask added to the scores, is_causal a lower-triangular mask) and of flash_attn's softcap.
// The causal mask is exactly the additive mask with −∞ above the diagonal (same bits).
// A fully masked row (all −∞) has no softmax: masked_row Zero gives zero weights and a zero output
// (FlashAttention's and SDPA's convention; the default), Nan gives NaN weights and output.
struct AttentionParams {
  std::span<const float> q;        // [heads, seq_len, dk]
  std::span<const float> k, v;     // k [heads_kv, seq_len, dk], v [heads_kv, seq_len, dv]
  int heads = 1;
  int heads_kv = defaults::attention::heads_kv;                // 0 = heads (MHA); 1 = MQA (Shazeer 2019); else GQA (Ainslie et al. 2023)
  int seq_len = 1;
  int dk = 1;
  int dv = defaults::attention::dv;  // the head size of v and of the output, 1..kMaxDk; 0 = dk (every number
                                     // then the same as before dv existed, bit for bit)
  Scale scale = defaults::attention::scale;
  Kernel kernel = Kernel::Scalar;
  bool want_weights = defaults::attention::weights;
  bool causal = defaults::attention::causal;             // row i sees keys 0..i
  std::span<const float> mask;     // empty, [seq_len, seq_len] added to every head's scores, or
                                   // [heads, seq_len, seq_len], one per head (a bias per head: T5's relative
                                   // bias, ALiBi written out): 0, −∞ or any finite value (NaN and +∞ refused)
  std::span<const float> alibi;    // empty, or [heads] ALiBi slopes m_h (check_alibi; alibi_slopes gives Press
                                   // et al.'s): −m_h · (i − j) added where the mask is added. The term added
                                   // to logit (i, j) of head h is then float32(mask + float32(−m_h · (i − j)))
                                   // (the mask alone without ALiBi, the same bits as before), so an ALiBi call
                                   // equals one call per head with that head's mask [seq_len, seq_len] of those
                                   // terms, bit for bit. ALiBi is defined for causal attention; without
                                   // `causal` keys after the query get +m_h · (j − i), as the formula says
  double softcap = defaults::attention::softcap;            // > 0: soft-cap the scaled logits before the masks (0 = off)
  MaskedRow masked_row = defaults::attention::masked_row;
  std::span<const double> sinks;   // empty, or [heads] sink logits (check_sinks), appended to every row after
                                   // the masks; a head with a finite sink never gives a NaN row
  bool want_lse = defaults::attention::lse;  // also return each row's log-sum-exp (AttentionResult::lse)
  std::span<const float> query_scale;  // empty, or [seq_len] a multiplier t_i of query row i's logits, the same
                                       // for every head: s_ij = t_i · c · q_i·k_j, applied to the scaled float32
                                       // logit (one more rounding) before the soft-cap and the masks. Position-
                                       // dependent temperatures in a causal call: Scalable-Softmax with n = i + 1,
                                       // t_i = s · ln(i + 1) (Nakanishi 2025; allenai/OLMo-core#808), Llama 4's
                                       // 1 + attn_scale · ln(⌊(i + 1) / floor_scale⌋ + 1), log-n max(1, ln(i + 1) /
                                       // ln L_train). Each t_i in 0..1e4 (0: the row's logits all 0, as SSMax's t_0 = s · ln 1)
};
struct AttentionResult {
  double scale = 0.0;
  std::vector<float> output;        // [heads, seq_len, dv]
  std::vector<float> weights;       // [heads, seq_len, seq_len], empty unless want_weights
  std::vector<float> sink_weights;  // [heads, seq_len] p_sink per row, empty unless sinks are given
  // [heads, seq_len], empty unless want_lse: ln Σ_j e^{s_ij} in nats over the row's logits s (scaled,
  // soft-capped, masked, with ALiBi; with a sink e^{S_h} is in the sum, as the weights' normaliser),
  // computed in double from the float32 logits as m + ln Σ_j e^{s_j − m}, m the row's max, then rounded
  // to float32; the weights are e^{s_j − lse}. A fully masked row (no sink) gives −∞. What FlashAttention
  // returns as softmax_lse (in nats; kernels that work in base 2 keep lse · log₂e internally).
  std::vector<float> lse;
};
AttentionResult attention(const AttentionParams& p);
// The same pass written into caller-owned buffers (no allocation, no zero-fill: the bindings keep
// one pair of buffers from call to call): output [heads, seq_len, dv], weights
// [heads, seq_len, seq_len] (empty unless want_weights) and sink_weights [heads, seq_len] (empty
// unless sinks are given) and lse [heads, seq_len] (empty unless want_lse); returns the scale factor. Throws std::invalid_argument as attention()
// does, and when a buffer's size does not match.
double attention_into(const AttentionParams& p, std::span<float> output, std::span<float> weights,
                      std::span<float> sink_weights = {}, std::span<float> lse = {});
// The mean of attention's sink_weights [heads, seq_len] (in double): the mean sink mass of a call.
double mean_sink_mass(std::span<const float> sink_weights);
// The checks of attention() that do not read the tensors (shape, headsKv, softcap, memory and work
// budgets), so that a caller can run them before copying tensors in; attention() runs them first.
void check_attention_work(const AttentionParams& p);
// The head size of v and of the output: p.dv, or p.dk when p.dv is 0; throws naming dv outside 0..16384.
int resolve_dv(const AttentionParams& p);

// ---------------------------------------------------------------------------------------------
// mergeAttention: two partial attentions of the same queries over disjoint sets of keys (split-KV
// decoding, ring attention: FlashDecoding; flashinfer's merge_state, vLLM's merge_attn_states,
// SGLang's merge_state), each an output o [heads, seq_len, dv] and its log-sum-exp l [heads, seq_len]
// in nats (AttentionResult::lse), merged into the attention over the union: per row,
//   m = max(l_a, l_b), w_a = e^{l_a − m}, w_b = e^{l_b − m},
//   o = (w_a o_a + w_b o_b) / (w_a + w_b),  l = m + ln(w_a + w_b)   (in double, rounded to float32).
// (0, −∞), an empty chunk, is neutral: it adds nothing (w = 0), and two of them give (0, −∞), never
// NaN. l_a, l_b must be finite or −∞ (NaN and +∞ refused); the outputs finite with |x| ≤ 1e6. A log-sum-
// exp in base 2 (lse · log₂e) read as natural log sharpens the mixing weights by log₂e = 1.4427: a
// wrong result, not a crash (tests/node/numerics.test.mjs states by how much).
struct MergeAttentionParams {
  std::span<const float> output_a, lse_a, output_b, lse_b;  // [heads, seq_len, dv] and [heads, seq_len] each
  int heads = 1;
  int seq_len = 1;
  int dv = 1;
};
struct MergeAttentionResult {
  std::vector<float> output;  // [heads, seq_len, dv]
  std::vector<float> lse;     // [heads, seq_len], nats
};
MergeAttentionResult merge_attention(const MergeAttentionParams& p);

}  // namespace sqrtdk
