// The options every attention experiment shares: the scale c (named, a number, or d_k^-p), logit
// soft-capping, the query-key correlation ρ and attention sinks, with their checks.
#pragma once

#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace sqrtdk {

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
// ALiBi (Press, Smith & Lewis 2022, "Train Short, Test Long", §3): head h adds −m_h · (i − j) to the
// logit of query i and key j, where the mask is added (no scale, after soft-capping). The slopes of H
// heads: m_h = 2^(−8(h+1)/H) for H a power of two; otherwise, with c = 2^⌊log₂ H⌋, the c slopes of c
// heads followed by the first H − c of the even-indexed slopes of 2c heads, 2^(−4(2t+1)/c) (the
// paper's reference code, ofirpress/attention_with_linear_biases fairseq/models/transformer.py
// `get_slopes`). 8 heads: 1/2, 1/4, …, 1/256; 12 heads: 1/2, …, 1/256, then 0.7071068, 0.3535534,
// 0.1767767, 0.0883883. In double; the attention paths hold them as float32.
std::vector<double> alibi_slopes(int heads);  // heads in 1..kMaxHeads; throws naming the value
// slopes: empty (no ALiBi) or one finite slope per head with |m| ≤ 1e4; throws naming the bad value.
inline constexpr double kMaxAlibiSlope = 1e4;
void check_alibi(const char* what, std::span<const float> slopes, int heads);

}  // namespace sqrtdk
