// longContext: entropy against sequence length beyond the training length for the temperature
// schemes (fixed, log-n, YaRN, the article's, Llama 4's, Scalable-Softmax), and those temperatures.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

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
  double floor_scale = defaults::long_context::floor_scale;  // llama4: in [1, 1e9]
  double attn_scale = defaults::long_context::attn_scale;      // llama4: in [0, 10]
  double ssmax_s = defaults::long_context::s;        // ssmax: in (0, 10]
  double mscale = defaults::long_context::mscale;          // yarn: in (0, 100]
  double mscale_all_dim = defaults::long_context::mscale_all_dim;  // yarn: 0 (absent) or in (0, 100]
};
// Throws std::invalid_argument naming the first value out of its range.
void check_long_context_options(const char* what, const LongContextOptions& o);
struct LongContextParams {
  int dk = defaults::long_context::dk;
  std::vector<int> seq_lens;        // each 1..16384, at most 16
  int train_len = defaults::long_context::train_len;              // L_train, 2..16384
  int queries = defaults::long_context::queries;                 // 1..1024
  std::vector<std::string> methods; // subset of 'fixed', 'logn', 'yarn', 'article', 'llama4', 'ssmax', each at most once
                                    // (a repeat: std::invalid_argument naming it)
  uint32_t seed = defaults::long_context::seed;
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
