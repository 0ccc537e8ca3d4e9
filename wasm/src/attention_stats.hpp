// The attention statistics on random or given Q, K: attentionStats, saturationSweep (against d_k,
// per scale) and tensorStats (on the caller's q, k), with the per-row summary they share.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernels.hpp"
#include "logit_options.hpp"
#include "shapes.hpp"
#include "stats.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// ---------------------------------------------------------------------------------------------
// attentionStats: iid N(0, σ²) Q, K, V, dO [heads, seq_len, dk] (streams 1, 2, 3, 4 of the seed);
// every row its own query, the keys of a head shared by its rows, as in self-attention.
// Per head, with the chosen float32 kernel family:
//   S = c · Q Kᵀ (logits), P = softmax(S) (attention weights), and the backward pass of a loss
//   ℓ = Σ dO ⊙ (P V): dP = dO Vᵀ, dS_i = J_i dP_i (J_i = diag(p_i) − p_i p_iᵀ), dQ = c · dS K.
// Per row (in double): entropy, max weight, exp(entropy), ‖J‖_F, ‖J‖₂, ‖dS_i‖₂ (the gradient
// reaching the logits) and ‖dQ_i‖₂ (the gradient reaching the query, scale factor included).
// Masks and soft-capping as in PyTorch's scaled_dot_product_attention(is_causal=True) and
// flash_attn's softcap: S ← cap · tanh(S / cap), then row i sees keys 0..i. Under soft-capping J is
// the Jacobian with respect to the raw logits c · q·k, J · diag(1 − tanh²(s / cap)), and dS, dQ
// include that factor. Under the causal mask a row's entropy ceiling is ln(i + 1), not ln L: the
// summary's entropy_ratio is H_i / ln(keys seen by row i) over the rows that see ≥ 2 keys.
struct AttentionStatsParams {
  int heads = defaults::attention_stats::heads;
  int heads_kv = defaults::attention_stats::heads_kv;          // K/V heads (grouped-query attention, Ainslie et al. 2023): 0 = heads;
                             // must divide heads; query head h reads K/V head h / (heads / heads_kv)
  int seq_len = defaults::attention_stats::seq_len;
  int dk = 64;
  Scale scale = defaults::attention_stats::scale;
  uint32_t seed = defaults::attention_stats::seed;
  double variance = defaults::attention_stats::variance;     // σ² of every component of Q, K, V and dO
  double threshold = defaults::attention_stats::threshold;   // for share_above: rows whose max weight exceeds it, in (0, 1)
  Kernel kernel = Kernel::Scalar;
  int heatmap_size = defaults::attention_stats::heatmap_size;    // the heatmap holds the first min(seq_len, heatmap_size) rows × keys of head 0, 1..512
  bool per_row = defaults::attention_stats::per_row;       // also return every row's quantities
  bool gradients = defaults::attention_stats::gradients;     // run the backward pass (V, dO, dP, dS, dQ); without it the gradient
                             // summaries are NaN and the gradient rows empty, at a third of the work
  bool causal = defaults::attention_stats::causal;       // row i sees keys 0..i
  bool spectral = defaults::attention_stats::spectral;      // compute ‖J‖₂ (the secular or Lanczos solve, most of the per-row work); without
                             // it the jac_spec summary is NaN and its rows empty; every other number is bit
                             // for bit the same
  double softcap = defaults::attention_stats::softcap;      // > 0: soft-cap the logits (0 = off)
  double correlation = defaults::attention_stats::correlation;  // ρ in [−1, 1]: key j is drawn correlated with query j (its match), see above;
                             // under grouped K/V heads with the query head that opens its group (h = kv · group)
  std::vector<double> sinks; // empty, or [heads] sink logits (see check_sinks). With a (finite) sink the per-row
                             // quantities are those of the full row of L + 1 outcomes (the keys and the sink):
                             // entropy and exp(entropy) of it, ‖J‖_F and ‖J‖₂ of its (L + 1)² softmax Jacobian
                             // (the sink logit is a trained parameter), the entropy ceiling ln(keys seen + 1);
                             // max weight and share_above over the keys only; dS and dQ through the key
                             // weights, dS_j = w_j (g_j − Σ_k w_k g_k) (the sink's output column is dropped)
};
struct AttentionSummary {
  double scale = 0.0;         // the resolved c
  Summary entropy;            // nats
  Summary entropy_ratio;      // H_i / ln(keys seen by row i): ln L without a mask, ln(i + 1) under the
                              // causal mask; rows that see one key are left out (NaN if none is left)
  Summary max_weight;
  Summary eff_support;        // keys
  Summary jac_fro;
  Summary jac_spec;
  Summary grad_logits;        // ‖dS_i‖₂
  Summary grad_query;         // ‖dQ_i‖₂
  double share_above = 0.0;   // fraction of rows with max weight > threshold
  double max_abs_logit = 0.0; // max |S| over all heads and unmasked pairs, after soft-capping
  Summary sink_mass;          // p_sink of every row (0 for a −∞ sink); NaN when no sinks were given
};
struct AttentionStatsResult {
  AttentionSummary summary;
  double log_seq_len = 0.0;   // ln L, the entropy ceiling of a row that sees every key
  // Per-row quantities [heads, seq_len] (empty when per_row is false).
  std::vector<double> entropy, max_weight, eff_support, jac_fro, jac_spec, grad_logits, grad_query;
  std::vector<double> sink_mass;  // [heads, seq_len] p_sink per row (empty unless sinks and per_row)
  int heatmap_size = 0;       // n: the heatmap is [n, n] float32, weights of head 0, rows and keys 0..n−1
  std::vector<float> heatmap;
};
AttentionStatsResult attention_stats(const AttentionStatsParams& p);

// ---------------------------------------------------------------------------------------------
// saturationSweep: AttentionSummary against d_k for each scale option (C2, C3, C6). For each d_k
// the same Q, K, V, dO (those of attentionStats with that d_k and seed) serve every scale, and the
// scales share each head's products Q Kᵀ (formed with factor 1, each scale's logits c · (q·k) from
// them: the bits of the product formed with factor c) and dO Vᵀ; every point is bit for bit that of
// a sweep with its scale alone (and of attentionStats). Where the shared products would not fit the
// memory limit the scales go one at a time (the same numbers, more products).
struct SaturationSweepParams {
  std::vector<int> dks;       // 1..16384 each, at most 64
  std::vector<Scale> scales;  // at most 8
  int heads = defaults::saturation_sweep::heads;
  int seq_len = defaults::saturation_sweep::seq_len;
  uint32_t seed = defaults::saturation_sweep::seed;
  double variance = defaults::saturation_sweep::variance;
  double threshold = defaults::saturation_sweep::threshold;
  Kernel kernel = Kernel::Scalar;
  bool gradients = defaults::saturation_sweep::gradients;      // as in AttentionStatsParams
  bool causal = defaults::saturation_sweep::causal;        // as in AttentionStatsParams
  bool spectral = defaults::saturation_sweep::spectral;       // as in AttentionStatsParams
  double softcap = defaults::saturation_sweep::softcap;       // as in AttentionStatsParams
  double correlation = defaults::saturation_sweep::correlation;   // as in AttentionStatsParams
  std::vector<double> sinks;  // as in AttentionStatsParams: [heads], the same for every d_k and scale
};
struct SaturationSweepResult {
  double log_seq_len = 0.0;
  // points[s][d]: scale s (params order) at d_k = dks[d]
  std::vector<std::vector<AttentionSummary>> points;
};
SaturationSweepResult saturation_sweep(const SaturationSweepParams& p);

// ---------------------------------------------------------------------------------------------
// tensorStats: the diagnostics of attentionStats on caller-supplied q, k (and optionally v)
// [heads, seq_len, dk] (finite float32): Var(q·k) over all query–key pairs, and the per-row
// summaries under the given scale. Without v, V is drawn iid N(0, 1) from the seed; the upstream
// gradient dO is always drawn iid N(0, 1) (streams 3 and 4, as in attentionStats).
struct TensorStatsParams {
  std::span<const float> q, k, v;  // v may be empty
  int heads = 1;
  int seq_len = 1;
  int dk = 1;
  Scale scale = defaults::tensor_stats::scale;
  uint32_t seed = defaults::tensor_stats::seed;
  double threshold = defaults::tensor_stats::threshold;
  Kernel kernel = Kernel::Scalar;
  bool causal = defaults::tensor_stats::causal;             // row i sees keys 0..i (as in AttentionStatsParams)
};
struct TensorStatsResult {
  Moments qk;          // of the raw dot products q_i·k_j over every head, query and key
  Moments q_component; // of the entries of q
  Moments k_component; // of the entries of k
  AttentionSummary summary;
  double log_seq_len = 0.0;
  std::vector<double> entropy, max_weight, jac_fro;  // per row [heads, seq_len]
};
TensorStatsResult tensor_stats(const TensorStatsParams& p);
// The checks of tensor_stats() that do not read the tensors (as check_attention_work).
void check_tensor_stats_work(const TensorStatsParams& p);

}  // namespace sqrtdk
