// normalisers: "does attention have to sum to one?" — softmax, off-by-one softmax, a sink logit, sigmoid attention, gated attention and differential attention on the same draws.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "logit_options.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// The normalisers, in the order of NormalisersResult::rows. For a row of scaled logits s_j over the
// n keys the row sees (n = L, or i + 1 under a causal mask):
//   softmax       w_j = e^{s_j} / Σ e^{s_k}                                  (sums to 1)
//   offByOne      w_j = e^{s_j} / (1 + Σ e^{s_k}): a sink logit of 0 (Miller 2023, "Attention Is Off By
//                 One"); all-zero logits give n / (n + 1)
//   sink          w_j = e^{s_j} / (e^S + Σ e^{s_k}), S the `sink` parameter (gpt-oss's learned sink,
//                 openai/gpt-oss gpt_oss/torch/model.py `sdpa`)
//   sigmoid       w_j = σ(s_j + b), b = `sigmoidBias` or, by default, −ln n (Ramapuram et al. 2024, Apple,
//                 "Theory, Analysis, and Best Practices for Sigmoid Self-Attention", arXiv 2409.04431, §3:
//                 b = −ln n); all-zero logits give n · 1/(1 + n) = n / (n + 1); [2, 1, 0], n = 3: 1.4366
//   gated         softmax's weights, and the output o_i multiplied channel by channel by σ(g_ic)
//                 (Qwen3-Next's output gate: Qwen3NextAttention in HF transformers modeling_qwen3_next.py,
//                 `attn_output * torch.sigmoid(gate)`, the gate a projection of the hidden state, one value
//                 per head and channel; Qiu et al. 2025, "Gated Attention for Large Language Models", G1).
//                 Here g [heads, L, dk] is drawn N(gateMean, 1) from the seed (stream 5): the coefficients
//                 on the values are σ(g_ic)·p_ij, whose sum over j is σ(g_ic); the row's figures average
//                 them over the channels c
//   differential  heads (2h, 2h + 1) paired: w = p_{2h} − λ p_{2h+1}, both softmax rows, the output
//                 w · V_{2h} (Ye et al. 2024, "Differential Transformer", arXiv 2410.05258, eq. 1; the
//                 reference code microsoft/unilm Diff-Transformer multihead_diffattn.py; the GroupNorm and
//                 the (1 − λ_init) factor after it are left out: the weights are the question here).
//                 Sums to 1 − λ. ⌊heads / 2⌋ pairs; with one head there is no pair (every figure NaN)
// Row figures (each a mean over the rows; the differential's rows are its pairs' rows):
//   row_sum       Σ_j w_j (min and max over the rows beside the mean)
//   first_mass    w_0, the weight on the first key
//   entropy       −Σ w̃_j ln w̃_j of the renormalised row w̃ = w / Σ w, in nats, over the rows whose weights
//                 are all ≥ 0 with a positive sum (entropy_rows counts them); NaN ("not applicable") when
//                 no row qualifies — a differential row with a negative weight is no distribution. For
//                 offByOne and sink the renormalised row is softmax's (the sink's mass is what changes)
//   negative_share  the share of weights < 0 (only the differential's can be)
//   output_norm   ‖o_i‖₂, the output row's Euclidean norm (o_i = Σ_j w_j v_j; gated: σ(g_i) ⊙ that)
inline constexpr int kNormaliserCount = 6;
const char* normaliser_name(int index);  // "softmax", "offByOne", "sink", "sigmoid", "gated", "differential"

// Limits of the call (it is not costed: these bound its work to heads · L² · dk ≤ 16 · 512² · 256 mul-adds).
inline constexpr int kNormalisersMaxHeads = ranges::normalisers::heads.hi;  // 16 (experiments.js)
inline constexpr int kNormalisersMaxSeqLen = ranges::normalisers::seq_len.hi;  // 512
inline constexpr int kNormalisersMaxDk = ranges::normalisers::dk.hi;  // 256
inline constexpr int kNormalisersMaxLogits = ranges::normalisers::logits.hi;  // 4096

struct NormalisersParams {
  int heads = defaults::normalisers::heads;      // 1..16
  int seq_len = defaults::normalisers::seq_len;  // L, 1..512 (queries = keys)
  int dk = defaults::normalisers::dk;            // 1..256
  Scale scale = defaults::normalisers::scale;
  uint32_t seed = defaults::normalisers::seed;   // q stream 1, k stream 2, v stream 3 (attentionStats' draws), g stream 5
  Kernel kernel = Kernel::Scalar;                // the family of the products Q Kᵀ and W V (and of the softmax rows)
  bool causal = defaults::normalisers::causal;
  double sink = defaults::normalisers::sink;            // the sink logit S, |S| ≤ 100
  double sigmoid_bias = std::numeric_limits<double>::quiet_NaN();  // NaN: −ln n per row; else |b| ≤ 100
  double gate_mean = defaults::normalisers::gate_mean;  // mean of g, |·| ≤ 20
  double lambda = defaults::normalisers::lambda;        // λ of the differential, in [0, 2]
  // Explicit logits (1..4096 of them, finite, |s| ≤ 1e6), or empty: drawn q, k. Given, they are the one row
  // of every head (seq_len and causal are then not used: n = logits.size(); the differential pairs two equal
  // rows, w = (1 − λ) p), and v [n, dk], g [1, dk] come from the seed.
  std::vector<double> logits;
};

struct NormaliserRow {
  std::string name;
  double row_sum = 0.0, row_sum_min = 0.0, row_sum_max = 0.0;
  double first_mass = 0.0;
  double entropy = 0.0;  // NaN: not applicable (no row with non-negative weights)
  int entropy_rows = 0;  // rows whose entropy is defined
  int rows = 0;          // rows measured
  double negative_share = 0.0;
  double output_norm = 0.0;
  std::vector<double> weights;  // the first row of head 0 (of pair 0 for the differential) [n]
};

struct NormalisersResult {
  double scale = 0.0;        // c
  int keys = 0;              // n of the first row shown (L, or logits.size())
  double sigmoid_bias = 0.0; // b of that row
  std::vector<NormaliserRow> rows;  // kNormaliserCount, in normaliser_name order
};

// The float32 path: products by the kernel family, weights in float32, figures summed in double.
// Throws std::invalid_argument naming the first bad value.
NormalisersResult normalisers(const NormalisersParams& p);
// The double reference: the same draws (float32), every product, weight and sum in double. For tests.
NormalisersResult normalisers_reference(const NormalisersParams& p);

}  // namespace sqrtdk
