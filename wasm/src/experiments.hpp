// The experiments of √dk Lab: one pure function each, Params in, Result out. No globals, no I/O;
// the bindings (wasm/bindings) expose each one-to-one to JavaScript, and the tests call exactly
// these functions. Notation (shapes, units): shapes.hpp. Every function throws
// std::invalid_argument naming the parameter and its value when the input is out of range.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "precision.hpp"
#include "shapes.hpp"
#include "stats.hpp"

namespace sqrtdk {

inline constexpr const char* kVersion = "0.3.0";

// ---------------------------------------------------------------------------------------------
// The scale factor c in scores = c · q·k.
struct Scale {
  enum class Kind {
    None,           // c = 1
    InvSqrtDk,      // c = 1/√d_k (Vaswani et al. 2017, "Attention Is All You Need", §3.2.1)
    InvDk,          // c = 1/d_k
    InvSqrtDModel,  // c = 1/√d_model, d_model = heads · d_k: a common bug (the model width, not the head's)
    Value,          // c = value, an explicit number in (0, 1e4]
    Power,          // c = d_k^−value, value = p in [0, 2]: p = ½ is 1/√d_k, p = 1 is 1/d_k (μP's 1/d, Yang et
                    // al. 2021, Tensor Programs V §4 / microsoft/mup README); p = 0, ½ and 1 resolve to exactly
                    // the numbers of 'none', 'inv_sqrt_dk' and 'inv_dk'
  };
  Kind kind = Kind::InvSqrtDk;
  double value = 0.0;  // Kind::Value: the number; Kind::Power: the exponent p
};
// "none" | "inv_sqrt_dk" | "inv_dk" | "inv_sqrt_d_model"; throws naming the value otherwise.
Scale parse_scale(const std::string& name);
// An explicit scale; throws unless 0 < value ≤ 1e4 (kMaxScale).
Scale scale_value(double value);
// The exponent form d_k^−p; throws unless 0 ≤ p ≤ 2 (kMaxScalePower), naming the value.
inline constexpr double kMaxScalePower = 2.0;
Scale scale_power(double p);
// The name ("inv_sqrt_dk", …), the number as text, or "d_k^-p".
std::string scale_name(const Scale& s);
// c for a head dimension and head count.
double resolve_scale(const Scale& s, int dk, int heads);

// ---------------------------------------------------------------------------------------------
// Logit soft-capping (Gemma 2, Gemma Team 2024 §2; Grok-1): s ↦ cap · tanh(s / cap), applied to the
// scaled logits before the mask, the order FlashAttention uses (flash_attn's `softcap`). Its
// derivative is 1 − tanh²(s / cap). cap = 0 means off; otherwise 0 < cap ≤ 1e6.
inline constexpr double kMaxSoftcap = 1e6;
void check_softcap(const char* what, double cap);  // throws naming the value
// cap · tanh(s / cap); −∞ (a masked key) stays −∞.
inline double softcap_logit(double s, double cap) {
  return s == -std::numeric_limits<double>::infinity() ? s : cap * std::tanh(s / cap);
}
// d/ds of the above (1 for a masked key, which gets no gradient anyway).
// Computed as 1 / cosh²(s / cap), which keeps its tiny values where 1 − tanh² would cancel to 0.
inline double softcap_derivative(double s, double cap) {
  if (!std::isfinite(s)) return 1.0;
  const double ch = std::cosh(s / cap);
  return 1.0 / (ch * ch);
}

// ---------------------------------------------------------------------------------------------
// Correlated queries and keys (issue 19; μP's case, Yang et al. 2021, Tensor Programs V §4 and the
// microsoft/mup README: once training aligns q and k, q·k grows like d_k, not √d_k). A key paired
// with its query is drawn coordinate by coordinate as k_i = ρ q_i + √(1 − ρ²) z_i, z_i iid N(0, σ²)
// independent of q: each k_i is still N(0, σ²), corr(q_i, k_i) = ρ, and for the pair
//   E[q·k] = ρ d_k σ²,   Var(q·k) = d_k σ⁴ (1 + ρ²)
// (q_i k_i = ρ q_i² + √(1 − ρ²) q_i z_i: mean ρσ², variance 2ρ²σ⁴ + (1 − ρ²)σ⁴). At d_k 128, ρ 0.1:
// mean 12.8, variance 129.28. z is the draw the uncorrelated key would have had, so no normal is
// drawn beyond today's and ρ = 0 gives today's numbers bit for bit.
inline constexpr double kMaxCorrelation = 1.0;
void check_correlation(const char* what, double rho);  // throws unless −1 ≤ ρ ≤ 1, naming the value

// ---------------------------------------------------------------------------------------------
// Attention sinks (gpt-oss: openai/gpt-oss gpt_oss/torch/model.py `sdpa`, a learned logit S_h per
// head concatenated to every row of scaled, masked logits and dropped after the softmax;
// StreamingLLM, Xiao et al. 2023, §3: heads park mass on a token that carries nothing). Row i of
// head h: w_j = e^{s_j} / (e^{S_h} + Σ_k e^{s_k}), so the weights sum to 1 − p_sink,
// p_sink = e^{S_h} / (…). The sink is not scaled, soft-capped or masked; it is rounded to float32
// with the logits in the float32 paths. Logits [2, 1, 0] with S = 1: [0.5344, 0.1966, 0.0723], sink
// 0.1966. A row whose keys are all masked gives zeros (the sink takes all) under either masked-row
// rule. S_h = −∞ is no sink for head h: every number is the sink-free one, bit for bit.
// sinks: empty (none) or one value per head, each finite with |S| ≤ 1e6, or −∞.
inline constexpr double kMaxSink = 1e6;
void check_sinks(const char* what, std::span<const double> sinks, int heads);  // throws naming sinks[i]

// ---------------------------------------------------------------------------------------------
// scoreVariance: the law Var(q·k) = d_k σ⁴ for q, k with iid N(0, σ²) components (C1, C3); with a
// correlation ρ every drawn pair is correlated as above, and the theory rows are N(ρ d_k σ², d_k σ⁴ (1 + ρ²))
// (raw), N(ρ √d_k σ², σ⁴ (1 + ρ²)) (1/√d_k) and N(ρ σ², σ⁴ (1 + ρ²)/d_k) (1/d_k); the histograms are
// then centred on the theoretical mean, ±5 theoretical std.
struct ScoreVarianceParams {
  std::vector<int> dks;    // head dimensions, each 1..16384, at most 64 of them
  int samples = 20000;     // pairs (q, k) per d_k, 2..1000000
  uint32_t seed = 0;       // stream: Rng::stream(seed, d_k), so a d_k's numbers do not depend on the list
  double variance = 1.0;   // σ², the variance of each component (positive, finite, ≤ 1e6)
  int hist_dk = 64;        // the d_k whose scores are histogrammed, 1..16384
  int bins = 60;           // histogram bins, 4..400
  double correlation = 0;  // ρ in [−1, 1]: each pair's key is drawn as k_i = ρ q_i + √(1 − ρ²) z_i (see below)
};
struct ScoreVarianceRow {
  int dk = 0;
  Moments raw;          // of s = q·k
  Moments inv_sqrt_dk;  // of s/√d_k (exactly raw rescaled: mean/√d_k, variance/d_k)
  Moments inv_dk;       // of s/d_k
  Moments theory_raw;   // mean 0, variance d_k σ⁴
  Moments theory_inv_sqrt_dk;  // mean 0, variance σ⁴
  Moments theory_inv_dk;       // mean 0, variance σ⁴ / d_k
};
struct ScoreVarianceResult {
  std::vector<ScoreVarianceRow> rows;  // one per entry of dks, same order
  int hist_dk = 0;
  Histogram hist_raw;          // of q·k at hist_dk, edges ±5 theoretical std
  Histogram hist_inv_sqrt_dk;  // of q·k/√d_k at hist_dk, edges ±5 theoretical std
};
ScoreVarianceResult score_variance(const ScoreVarianceParams& p);

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
  int heads = 8;
  int heads_kv = 0;          // K/V heads (grouped-query attention, Ainslie et al. 2023): 0 = heads;
                             // must divide heads; query head h reads K/V head h / (heads / heads_kv)
  int seq_len = 128;
  int dk = 64;
  Scale scale;
  uint32_t seed = 0;
  double variance = 1.0;     // σ² of every component of Q, K, V and dO
  double threshold = 0.99;   // for share_above: rows whose max weight exceeds it, in (0, 1)
  Kernel kernel = Kernel::Scalar;
  int heatmap_size = 128;    // the heatmap holds the first min(seq_len, heatmap_size) rows × keys of head 0, 1..512
  bool per_row = true;       // also return every row's quantities
  bool gradients = true;     // run the backward pass (V, dO, dP, dS, dQ); without it the gradient
                             // summaries are NaN and the gradient rows empty, at a third of the work
  bool causal = false;       // row i sees keys 0..i
  bool spectral = true;      // compute ‖J‖₂ (the secular or Lanczos solve, most of the per-row work); without
                             // it the jac_spec summary is NaN and its rows empty; every other number is bit
                             // for bit the same
  double softcap = 0.0;      // > 0: soft-cap the logits (0 = off)
  double correlation = 0.0;  // ρ in [−1, 1]: key j is drawn correlated with query j (its match), see above;
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
  int heads = 4;
  int seq_len = 128;
  uint32_t seed = 0;
  double variance = 1.0;
  double threshold = 0.99;
  Kernel kernel = Kernel::Scalar;
  bool gradients = true;      // as in AttentionStatsParams
  bool causal = false;        // as in AttentionStatsParams
  bool spectral = true;       // as in AttentionStatsParams
  double softcap = 0.0;       // as in AttentionStatsParams
  double correlation = 0.0;   // as in AttentionStatsParams
  std::vector<double> sinks;  // as in AttentionStatsParams: [heads], the same for every d_k and scale
};
struct SaturationSweepResult {
  double log_seq_len = 0.0;
  // points[s][d]: scale s (params order) at d_k = dks[d]
  std::vector<std::vector<AttentionSummary>> points;
};
SaturationSweepResult saturation_sweep(const SaturationSweepParams& p);

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
SoftmaxJacobianResult softmax_jacobian(std::span<const double> logits, double softcap = 0.0);

// ---------------------------------------------------------------------------------------------
// attention: the forward pass on caller-supplied q, k, v [heads, seq_len, dk] (finite float32).
// Logits S = c · Q Kᵀ, then soft-capping (if softcap > 0), then the additive mask and the causal
// mask, then the row softmax: the semantics of PyTorch's scaled_dot_product_attention (attn_mask a
// float mask added to the scores, is_causal a lower-triangular mask) and of flash_attn's softcap.
// The causal mask is exactly the additive mask with −∞ above the diagonal (same bits).
// A fully masked row (all −∞) has no softmax: masked_row Zero gives zero weights and a zero output
// (FlashAttention's and SDPA's convention; the default), Nan gives NaN weights and output.
struct AttentionParams {
  std::span<const float> q;        // [heads, seq_len, dk]
  std::span<const float> k, v;     // [heads_kv, seq_len, dk]
  int heads = 1;
  int heads_kv = 0;                // 0 = heads (MHA); 1 = MQA (Shazeer 2019); else GQA (Ainslie et al. 2023)
  int seq_len = 1;
  int dk = 1;
  Scale scale;
  Kernel kernel = Kernel::Scalar;
  bool want_weights = true;
  bool causal = false;             // row i sees keys 0..i
  std::span<const float> mask;     // empty, or [seq_len, seq_len] added to every head's scores: 0, −∞ or
                                   // any finite value (NaN and +∞ refused)
  double softcap = 0.0;            // > 0: soft-cap the scaled logits before the masks (0 = off)
  MaskedRow masked_row = MaskedRow::Zero;
  std::span<const double> sinks;   // empty, or [heads] sink logits (check_sinks), appended to every row after
                                   // the masks; a head with a finite sink never gives a NaN row
};
struct AttentionResult {
  double scale = 0.0;
  std::vector<float> output;        // [heads, seq_len, dk]
  std::vector<float> weights;       // [heads, seq_len, seq_len], empty unless want_weights
  std::vector<float> sink_weights;  // [heads, seq_len] p_sink per row, empty unless sinks are given
};
AttentionResult attention(const AttentionParams& p);
// The same pass written into caller-owned buffers (no allocation, no zero-fill: the bindings keep
// one pair of buffers from call to call): output [heads, seq_len, dk], weights
// [heads, seq_len, seq_len] (empty unless want_weights) and sink_weights [heads, seq_len] (empty
// unless sinks are given); returns the scale factor. Throws std::invalid_argument as attention()
// does, and when a buffer's size does not match.
double attention_into(const AttentionParams& p, std::span<float> output, std::span<float> weights,
                      std::span<float> sink_weights = {});
// The mean of attention's sink_weights [heads, seq_len] (in double): the mean sink mass of a call.
double mean_sink_mass(std::span<const float> sink_weights);
// The checks of attention() that do not read the tensors (shape, headsKv, softcap, memory and work
// budgets), so that a caller can run them before copying tensors in; attention() runs them first.
void check_attention_work(const AttentionParams& p);

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
  Scale scale;
  uint32_t seed = 0;
  double threshold = 0.99;
  Kernel kernel = Kernel::Scalar;
  bool causal = false;             // row i sees keys 0..i (as in AttentionStatsParams)
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

// ---------------------------------------------------------------------------------------------
// precisionLab: softmax of the same rows in float64/float32/bfloat16/float16 (emulated, see
// precision.hpp) with the naive, safe and online algorithms, against the float64 safe softmax
// (computed with the same masked-row rule, so a fully masked row's reference is NaN under 'nan').
// Rows: the explicit `logits` if given (one row); or the caller's q [queries, dk] and k [keys, dk]
// (float32): one row per query, one key per column, the products formed in each format (below);
// else `rows` random rows of scores c · q·k_j with q, k_j iid N(0, 1) of dimension dk (in double;
// each format rounds them on entry).
//
// q and k in a format (issue 19: the fp16 failure in which q·kᵀ overflows before the scale): q and k
// are rounded to the format, each product q_d k_d and each partial sum is rounded to the
// accumulation format (the format itself, or float32 for float16/bfloat16 under accumulate =
// 'float32', as tensor cores accumulate), the dot product is stored in the format, then
//   scale_at Scores  s = c · (q·k), c rounded to the format, the product rounded (what
//                    softmax(q kᵀ · c) computes);
//   scale_at Query   q is scaled first, q' = c · q rounded to the format, then s = q'·k (what kernels
//                    that fold c into q do: FlashAttention's softmax_scale applied to Q's tile, or
//                    scaling the query projection).
// A product or logit that overflows counts as an input overflow of its row. The float64 reference
// and the float64 cells use the products in double. d_k 128, q = 24·𝟏, keys 24·𝟏, 12·𝟏, 0, float16,
// c = 1/√128: at the scores the products are [∞, 36864, 0] and the row is NaN; at the query the
// logits are [6516.6, 3258.3, 0] and the weights [1, 0, 0].
enum class ScaleAt { Scores, Query };
ScaleAt parse_scale_at(const std::string& name);  // "scores" | "query"; throws naming the value
struct PrecisionLabParams {
  std::vector<double> logits;  // one explicit row (1..8192 values, −∞ allowed), or empty
  int rows = 64;               // random rows, 1..1024
  int seq_len = 128;
  int dk = 64;
  Scale scale;
  int heads = 1;               // only to resolve 'inv_sqrt_d_model'
  uint32_t seed = 0;
  int block_size = 32;         // online softmax key block, 1..8192
  Accumulate accumulate = Accumulate::Same;  // see precision.hpp
  MaskedRow masked_row = MaskedRow::Nan;     // a row with a zero normaliser: NaN (its formula) or zeros
  double softcap = 0.0;        // > 0: logits s ↦ cap · tanh(s / cap) in double before each format rounds
                               // them (Gemma 2); −∞ (a masked key) stays −∞; 0 = off
  std::vector<float> q, k;     // both empty, or q [queries, dk] (queries 1..1024) and k [keys, dk] (keys
                               // 1..8192), finite with |x| ≤ 1e6; with them rows, seq_len and seed are unused
  ScaleAt scale_at = ScaleAt::Scores;  // q/k only: where c is applied (above)
  bool row_sums = true;        // check every row's sum Σ_j p_j: each cell's row_sum and the cause sum_stall
                               // (always on with q and k). On by default (a row whose weights sum to 2 is
                               // broken even with every weight finite); false leaves out those two fields
                               // and nothing else: every other number is the same, bit for bit
};
// The cause of each broken row, as shares of the rows. A row counts under the first of these that
// happened in it (so the shares add up to the share of broken rows):
struct PrecisionCauses {
  double input_overflow = 0;  // a finite logit rounded to ±∞ in the format, whatever follows
  double exp_overflow = 0;    // a term exp(·) overflowed to +∞ (the naive softmax above ln(max finite))
  double sum_overflow = 0;    // every term fit, their sum overflowed (weights e/∞ = 0)
  double nan = 0;             // NaN with no overflow: 0/0 of a fully masked or fully underflowed row
  double underflow = 0;       // a weight came out 0 where float64 has it positive, no overflow or NaN
  double sum_stall = 0;       // (row_sums) every weight finite, but Σ_j p_j is off that of the float64 row by
                              // more than the format's rounding allows, u (2 + 2√n) + n · (smallest
                              // subnormal), u = 2^−(m+1): 2u for the outputs' own rounding and twice the √n·u
                              // that independent roundings of n terms typically leave (Higham 2002, §4.2).
                              // 4096 zero logits summed in float16 stall at 2048: p_j = 1/2048, Σ = 2.0
};
// The range of Σ_j p_j over the rows of a cell whose sum is not NaN (NaN if none).
struct RowSumRange {
  double min = 0.0;
  double max = 0.0;
};
struct PrecisionCell {
  std::string format;          // "float64" | "float32" | "bfloat16" | "float16"
  std::string algorithm;       // "naive" | "safe" | "online"
  double share_nonfinite = 0;  // rows whose result holds ±∞ or NaN
  double share_nan = 0;        // rows whose result holds NaN
  PrecisionCauses causes;
  double max_abs_error = 0;    // max |p − p_f64| over the rows where both are finite (NaN if none)
  double mean_abs_error = 0;   // mean over those rows of max_j |p − p_f64|
  double jac_fro_median = 0;   // median ‖J‖_F of the finite rows' p (computed in double)
  std::vector<double> probs;   // the first row's result [seq_len]
  RowSumRange row_sum;         // (row_sums) min and max of Σ_j p_j over the rows
};
// The logits precisionLab forms from p.q and p.k in format f (rows [queries][keys]), before the
// soft-cap; float64 gives the products in double, scaled.
std::vector<std::vector<double>> precision_qk_logits(const PrecisionLabParams& p, Format f);
struct PrecisionLabResult {
  int rows = 0;
  int seq_len = 0;
  double scale = 0.0;              // resolved c (random rows), 1 for explicit logits
  double max_abs_logit = 0.0;
  double jac_fro_median_f64 = 0.0; // of the float64 safe softmax
  std::vector<double> reference;   // first row, float64 safe [seq_len]
  std::vector<PrecisionCell> cells;  // format-major: float64, float32, bfloat16, float16 × naive, safe, online
  // max |online − safe| per format (float64, float32, bfloat16, float16): equal up to rounding
  std::vector<double> online_vs_safe;
};
PrecisionLabResult precision_lab(const PrecisionLabParams& p);

// ---------------------------------------------------------------------------------------------
// Long-context temperatures, as functions of their parameters (each used by longContext and by
// modelScales).
//
// YaRN's m-scale, DeepSeek's yarn_get_mscale (HF modeling_deepseek.py; DeepSeek-V3 inference/model.py):
// 0.1 · mscale · ln s + 1 for a scale factor s > 1, else 1.
double yarn_get_mscale(double s, double mscale);
// The logit multiplier of YaRN at scale factor s with DeepSeek's two m-scales: the attention factor
// a = yarn_get_mscale(s, mscale) / yarn_get_mscale(s, mscale_all_dim) multiplies the cos and sin of
// both q and k (HF transformers _compute_yarn_parameters; DeepseekV3YarnRotaryEmbedding's _mscale),
// so the logits by a², and DeepSeek multiplies its softmax scale by yarn_get_mscale(s, mscale_all_dim)²
// (MLA.__init__ of DeepSeek-V3 inference/model.py: softmax_scale *= mscale * mscale):
//   multiplier = a² · yarn_get_mscale(s, mscale_all_dim)²  (= yarn_get_mscale(s, mscale)² when both apply).
// mscale_all_dim = 0 means absent: a = yarn_get_mscale(s, mscale), no softmax factor — with mscale = 1
// the multiplier of Peng et al. 2023 (YaRN §3.4), (0.1 ln s + 1)², bit for bit. DeepSeek-V3
// (s = 40, mscale = mscale_all_dim = 1): a = 1, multiplier 1.873854.
double yarn_multiplier(double s, double mscale, double mscale_all_dim);
// Llama 4's attention temperature tuning (meta-llama/llama-models models/llama4/model.py; HF
// transformers modeling_llama4.py, on its NoPE layers): the query at 0-based position pos is
// multiplied by t = 1 + attn_scale · ln(⌊(pos + 1) / floor_scale⌋ + 1); floor_scale 8192 and
// attn_scale 0.1 in Meta's config: t = 1.28332 at pos + 1 = 131072.
double llama4_temperature(double pos_plus_one, double floor_scale, double attn_scale);
// Scalable-Softmax (Nakanishi 2025, arXiv 2501.19399, eq. 2): the logits z of a row over n keys
// become s · ln n · z; s = 0.43 in the paper's check (all logits −2 but one +3, n = 1000: the max
// weight is 0.12935 with softmax and 0.99965 with SSMax).
double ssmax_multiplier(int n, double s);

// ---------------------------------------------------------------------------------------------
// longContext: entropy against sequence length for temperature schemes beyond the training length.
// Keys K [L_max, dk] and `queries` queries, iid N(0, 1); at length L the first L keys are used, and
// each query is the newest token of the sequence (position L − 1, seeing all L keys). The products
// q·k [queries, L_max] are formed once (factor 1) for every method and length, each logit c · (q·k)
// rounded once in float32 (the bits of the product formed with factor c), and kept for the next call
// with the same seed, d_k and kernel (at most 4 Mi floats): the page asks one method per call.
// Logit multipliers on q·k/√d_k (s = L / L_train):
//   'fixed'   1
//   'logn'    max(1, ln L / ln L_train)  (Chiang & Cholak 2022 §5; Su 2021; Qwen's logn attention)
//   'yarn'    yarn_multiplier(s, mscale, mscale_all_dim) for s > 1, else 1 (Peng et al. 2023, YaRN §3.4:
//             √(1/t) = 0.1 ln s + 1 multiplies both q and k, hence the square on the logits; DeepSeek's
//             two m-scales as above)
//   'article' √(L / L_train): the article's T = √d_k · (L_train / L)^0.5 (C8), not a published method
//   'llama4'  llama4_temperature(L, floor_scale, attn_scale): Llama 4's query temperature at the query's
//             position, pos + 1 = L (it does not depend on L_train)
//   'ssmax'   ssmax_multiplier(L, s): s · ln(keys the row sees) (Scalable-Softmax; not relative to L_train)
struct LongContextOptions {
  double floor_scale = 8192.0;  // llama4: in [1, 1e9]
  double attn_scale = 0.1;      // llama4: in [0, 10]
  double ssmax_s = 0.43;        // ssmax: in (0, 10]
  double mscale = 1.0;          // yarn: in (0, 100]
  double mscale_all_dim = 0.0;  // yarn: 0 (absent) or in (0, 100]
};
// Throws std::invalid_argument naming the first value out of its range.
void check_long_context_options(const char* what, const LongContextOptions& o);
struct LongContextParams {
  int dk = 64;
  std::vector<int> seq_lens;        // each 1..16384, at most 16
  int train_len = 512;              // L_train, 2..16384
  int queries = 64;                 // 1..1024
  std::vector<std::string> methods; // subset of 'fixed', 'logn', 'yarn', 'article', 'llama4', 'ssmax', each at most once
                                    // (a repeat: std::invalid_argument naming it)
  uint32_t seed = 0;
  Kernel kernel = Kernel::Scalar;
  LongContextOptions options;
  // One sink logit appended to every row (see check_sinks; NaN = none, the default; −∞ = none, bit
  // for bit): the entropy is then that of the L + 1 outcomes and its ratio divides by ln(L + 1), the
  // max weight is over the keys, and each point reports the mean sink mass.
  double sink = std::numeric_limits<double>::quiet_NaN();
};
struct LongContextPoint {
  int seq_len = 0;
  double multiplier = 1.0;      // on q·k/√d_k
  double entropy = 0.0;         // mean over queries, nats
  double entropy_ratio = 0.0;   // entropy / ln L (ln(L + 1) with a finite sink)
  double max_weight = 0.0;      // mean
  double sink_mass = 0.0;       // mean p_sink over the queries (0 without a sink)
};
struct LongContextResult {
  std::vector<std::vector<LongContextPoint>> points;  // [method][seq_len]
};
double long_context_multiplier(const std::string& method, int seq_len, int train_len,
                               const LongContextOptions& options = {});
LongContextResult long_context(const LongContextParams& p);

}  // namespace sqrtdk
