#include "experiments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "cost.hpp"
#include "precision.hpp"
#include "rng.hpp"

namespace sqrtdk {

void check_softcap(const char* what, double cap) {
  if (cap == 0.0) return;  // off
  if (!(cap > 0.0) || !std::isfinite(cap) || cap > kMaxSoftcap)
    throw std::invalid_argument(std::string(what) + ": softcap = " + format_number(cap) +
                                " must be a positive number ≤ 1e6 (leave it out to turn soft-capping off)");
}

void check_correlation(const char* what, double rho) {
  if (!(rho >= -kMaxCorrelation && rho <= kMaxCorrelation))
    throw std::invalid_argument(std::string(what) + ": correlation = " + format_number(rho) +
                                " must be a number in -1..1");
}

void check_sinks(const char* what, std::span<const double> sinks, int heads) {
  if (sinks.empty()) return;
  if (static_cast<long long>(sinks.size()) != heads)
    throw std::invalid_argument(std::string(what) + ": sinks.length = " + std::to_string(sinks.size()) +
                                " does not match heads = " + std::to_string(heads) + " (one sink logit per head)");
  for (size_t i = 0; i < sinks.size(); ++i) {
    const double x = sinks[i];
    if (x == -std::numeric_limits<double>::infinity()) continue;  // no sink for this head
    if (!std::isfinite(x) || std::fabs(x) > kMaxSink)
      throw std::invalid_argument(std::string(what) + ": sinks[" + std::to_string(i) + "] = " + format_number(x) +
                                  " must be a finite number of magnitude ≤ 1e6, or -inf (no sink)");
  }
}

namespace {

void check_variance(const char* what, double variance) {
  if (!(variance > 0.0) || !std::isfinite(variance) || variance > 1e6)
    throw std::invalid_argument(std::string(what) + ": variance = " + format_number(variance) +
                                " must be a positive finite number ≤ 1e6");
}

void check_dks(const char* what, const std::vector<int>& dks) {
  if (dks.empty()) throw std::invalid_argument(std::string(what) + ": dks is empty; give at least one d_k");
  check_int_range(what, "dks.length", static_cast<long long>(dks.size()), 1, 64);
  for (int dk : dks) check_int_range(what, "dk", dk, 1, kMaxDk);
}

// heads 1..64, seqLen 1..8192, dk 1..16384.
void check_shape(const char* what, int heads, int seq_len, int dk) {
  check_int_range(what, "heads", heads, 1, kMaxHeads);
  check_int_range(what, "seqLen", seq_len, 1, kMaxSeqLen);
  check_int_range(what, "dk", dk, 1, kMaxDk);
}

void check_threshold(const char* what, double t) {
  if (!(t > 0.0 && t < 1.0))
    throw std::invalid_argument(std::string(what) + ": threshold = " + format_number(t) + " must lie in (0, 1)");
}

// Draws `samples` scores q·k (components N(0, σ²), in double) for one d_k from stream (seed, dk);
// with ρ ≠ 0 each key is k_i = ρ q_i + √(1 − ρ²) z_i from the same draws z_i (see check_correlation).
std::vector<double> draw_scores(uint32_t seed, int dk, int samples, double sigma, double rho) {
  Rng rng = Rng::stream(seed, static_cast<uint64_t>(dk));
  std::vector<double> q(static_cast<size_t>(dk));
  std::vector<double> scores(static_cast<size_t>(samples));
  const double rest = std::sqrt(1.0 - rho * rho);
  for (int s = 0; s < samples; ++s) {
    for (int i = 0; i < dk; ++i) q[i] = sigma * rng.normal();
    double dot = 0.0;
    if (rho == 0.0)
      for (int i = 0; i < dk; ++i) dot += q[i] * (sigma * rng.normal());
    else
      for (int i = 0; i < dk; ++i) dot += q[i] * (rho * q[i] + rest * (sigma * rng.normal()));
    scores[s] = dot;
  }
  return scores;
}

Moments scaled(const Moments& m, double c) { return Moments{m.mean * c, m.variance * c * c, m.std * c}; }
Moments normal_moments(double variance) { return Moments{0.0, variance, std::sqrt(variance)}; }
// Of q·k for a pair correlated by ρ (see check_correlation): mean ρ d_k σ², variance d_k σ⁴ (1 + ρ²).
Moments correlated_moments(int dk, double variance, double rho) {
  const double var = dk * variance * variance * (1.0 + rho * rho);
  return Moments{rho * dk * variance, var, std::sqrt(var)};
}

std::vector<float> draw_tensor(uint32_t seed, uint64_t stream, size_t n, double sigma) {
  Rng rng = Rng::stream(seed, stream);
  std::vector<float> t(n);
  for (auto& x : t) x = static_cast<float>(sigma * rng.normal());
  return t;
}

struct Inputs {
  std::vector<float> q, dout;  // [heads, seq_len, dk]
  std::vector<float> k, v;     // [heads_kv, seq_len, dk]
  int heads_kv = 0;
};
// Q (stream 1), K (2), and for the backward pass V (3) and dO (4): skipping V and dO leaves Q, K as they are.
Inputs draw_inputs(uint32_t seed, int heads, int heads_kv, int seq_len, int dk, double variance, bool gradients) {
  const size_t n = static_cast<size_t>(heads) * seq_len * dk;
  const size_t nkv = static_cast<size_t>(heads_kv) * seq_len * dk;
  const double sigma = std::sqrt(variance);
  Inputs in;
  in.q = draw_tensor(seed, 1, n, sigma);
  in.k = draw_tensor(seed, 2, nkv, sigma);
  if (gradients) {
    in.v = draw_tensor(seed, 3, nkv, sigma);
    in.dout = draw_tensor(seed, 4, n, sigma);
  }
  in.heads_kv = heads_kv;
  return in;
}

// Correlates each key with its match (key j of K/V head kv with query j of head kv · group, the
// first query head of its group): k ← ρ q + √(1 − ρ²) k in double, rounded once to float32. K holds
// the draws z; ρ = 0 leaves it untouched.
void correlate_keys(Inputs& in, int heads, double rho) {
  if (rho == 0.0) return;
  const double rest = std::sqrt(1.0 - rho * rho);
  const size_t per_head = in.k.size() / static_cast<size_t>(in.heads_kv);
  const int group = heads / in.heads_kv;
  for (int kv = 0; kv < in.heads_kv; ++kv) {
    const float* q = in.q.data() + static_cast<size_t>(kv) * group * per_head;
    float* k = in.k.data() + static_cast<size_t>(kv) * per_head;
    for (size_t i = 0; i < per_head; ++i) k[i] = static_cast<float>(rho * q[i] + rest * k[i]);
  }
}

// heads_kv = 0 means heads; otherwise it must divide heads.
int resolve_heads_kv(const char* what, int heads, int heads_kv) {
  if (heads_kv == 0) return heads;
  check_int_range(what, "headsKv", heads_kv, 1, heads);
  if (heads % heads_kv != 0)
    throw std::invalid_argument(std::string(what) + ": headsKv = " + std::to_string(heads_kv) +
                                " does not divide heads = " + std::to_string(heads));
  return heads_kv;
}

// Bytes and multiply-adds of one analyse() pass, for the work limits.
double analyse_bytes(int heads, int seq_len, int dk, bool gradients = true) {
  const double L = seq_len;
  return (gradients ? 4.0 : 2.0) * 4.0 * heads * L * dk  // Q, K (and V, dO)
         + (gradients ? 3.0 : 1.0) * 4.0 * L * L       // S/P (and dP, dS) of one head
         + 2.0 * 4.0 * L * dk                          // dQ, packing scratch
         + 7.0 * 8.0 * heads * L * 2.0;                // per-row quantities and their summaries
}

// The cost-model terms of one analyse() pass (see cost.hpp); `prefix` names a sweep's lists.
// lanczos_row_ns: the soft-capped ‖J D‖₂ of one row (softcap_row_ns), 0 when not computed.
void analyse_terms(std::vector<CostTerm>& terms, double times, const std::string& times_drivers, int heads, int seq_len,
                   int dk, bool gradients, double lanczos_row_ns, bool draw, Kernel kernel) {
  const std::string hl = "heads = " + std::to_string(heads) + ", seqLen = " + std::to_string(seq_len);
  const std::string pre = times_drivers.empty() ? "" : times_drivers + ", ";
  const double weights = times * heads * double(seq_len) * seq_len;
  terms.push_back({times * analyse_products_ns(heads, seq_len, dk, gradients, kernel),
                   pre + hl + ", dk = " + std::to_string(dk), "the products heads · seqLen² · dk"});
  terms.push_back({times * analyse_rows_ns(heads, seq_len, gradients),
                   pre + hl, "the per-row statistics of " + format_number(weights) + " attention weights"});
  if (lanczos_row_ns > 0.0)
    terms.push_back({times * heads * double(seq_len) * lanczos_row_ns, pre + hl + ", dk = " + std::to_string(dk),
                     "the soft-capped Jacobian norms of " + format_number(times * heads * seq_len) +
                         " rows (Lanczos, up to min(seqLen, 160) steps each)"});
  if (draw)
    terms.push_back({draws_ns((gradients ? 4.0 : 2.0) * heads * double(seq_len) * dk),
                     hl + ", dk = " + std::to_string(dk), "drawing the inputs"});
}

struct PerRow {
  std::vector<double> entropy, max_weight, eff_support, jac_fro, jac_spec, grad_logits, grad_query, sink_mass;
  void reserve(size_t n) {
    for (auto* v : {&entropy, &max_weight, &eff_support, &jac_fro, &jac_spec, &grad_logits, &grad_query}) v->reserve(n);
  }
};

// How the logits of a row are formed after S = c · Q Kᵀ: soft-capping, then the causal mask, then
// the head's sink appended (see check_sinks).
struct LogitRule {
  bool causal = false;   // row i sees keys 0..i (the rest −∞)
  double softcap = 0.0;  // > 0: s ↦ cap · tanh(s / cap) (see softcap_logit)
  std::span<const double> sinks;  // empty, or [heads]
};

// Applies the rule to one head's logits S [L, L] in place; raw (if not null) receives the logits
// before soft-capping (for the derivative 1 − tanh²). Returns max |logit| over the unmasked pairs
// after soft-capping.
double apply_logit_rule(float* S, int seq_len, const LogitRule& rule, std::vector<float>* raw) {
  const size_t L = static_cast<size_t>(seq_len);
  if (raw != nullptr) raw->assign(S, S + L * L);
  double mx = 0.0;
  for (size_t i = 0; i < L; ++i)
    for (size_t j = 0; j < L; ++j) {
      float& s = S[i * L + j];
      if (rule.causal && j > i) {
        s = -std::numeric_limits<float>::infinity();
        continue;
      }
      if (rule.softcap > 0.0) s = static_cast<float>(softcap_logit(s, rule.softcap));
      mx = std::max(mx, static_cast<double>(std::fabs(s)));
    }
  return mx;
}

// The scratch of one head's analysis (see Analysis), shared by the analyses of several scales of
// the same inputs: P holds the head's logits, then its weights; dP = dO Vᵀ (gradients).
struct AnalysisScratch {
  std::vector<float> P, dP, dS, dQ, raw, sinkw, frow;
  std::vector<double> p, g, js, dcap;
  AnalysisScratch(int seq_len, int dk, bool gradients, bool capped, bool has_sinks) {
    const size_t L = static_cast<size_t>(seq_len);
    P.resize(L * L);
    if (gradients) {
      dP.resize(L * L);
      dS.resize(L * L);
      dQ.resize(L * dk);
    }
    sinkw.resize(has_sinks ? L : 0);
    frow.resize(has_sinks ? L + 1 : 0);  // a row and its sink weight
    // p and dcap hold one more entry for the sink's weight (and its soft-cap factor 1)
    p.resize(L + 1);
    g.resize(L);
    js.resize(L);
    dcap.resize(capped ? L + 1 : 0);
  }
};

// The forward (and, when `in` holds V and dO, backward) pass of every head under one scale factor
// c, and the per-row quantities (see attention_stats). Without the backward pass the gradient rows
// stay empty and their summaries are NaN. The caller forms each head's products in the scratch
// (head()): the logits P = c · Q Kᵀ and dP = dO Vᵀ, neither of which depends on anything else of
// the analysis, so several scales of the same inputs share Q Kᵀ (computed once with factor 1, then
// multiplied by each c in float32: the same bits as the product computed with factor c, since both
// kernel families round c · acc once, kernels.hpp) and dO Vᵀ.
class Analysis {
 public:
  Analysis(const Inputs& in, int heads, int seq_len, int dk, double c, double threshold, Kernel kernel,
           const LogitRule& rule, PerRow& rows, int heatmap_n, std::vector<float>* heatmap, bool spectral)
      : in_(in), heads_(heads), seq_len_(seq_len), dk_(dk), c_(c), threshold_(threshold), kt_(kernel_table(kernel)),
        rule_(rule), rows_(rows), heatmap_n_(heatmap_n), heatmap_(heatmap), spectral_(spectral) {
    if (!rule.sinks.empty()) rows.sink_mass.reserve(static_cast<size_t>(heads) * seq_len);
    rows.reserve(static_cast<size_t>(heads) * seq_len);
    sum_.scale = c;
  }
  // Head h, whose logits c · Q_h K_hᵀ [L, L] (before the logit rule) are in s.P and, with gradients,
  // dO_h V_hᵀ in s.dP. Leaves the head's attention weights in s.P.
  void head(int h, AnalysisScratch& s) {
    const bool gradients = !in_.dout.empty();
    const bool capped = rule_.softcap > 0.0;
    const size_t L = static_cast<size_t>(seq_len_);
    const size_t headsz = L * dk_;
    const int kvh = h / (heads_ / in_.heads_kv);  // grouped-query attention: shared K/V heads
    const float* K = in_.k.data() + kvh * headsz;
    float* P = s.P.data();
    sum_.max_abs_logit = std::max(sum_.max_abs_logit, apply_logit_rule(P, seq_len_, rule_, capped ? &s.raw : nullptr));
    const bool has_sinks = !rule_.sinks.empty();
    const double sink = has_sinks ? rule_.sinks[h] : -std::numeric_limits<double>::infinity();
    const bool sink_on = sink != -std::numeric_limits<double>::infinity();
    if (has_sinks)
      kt_.softmax_rows_sink(P, seq_len_, seq_len_, static_cast<float>(sink), s.sinkw.data());  // weights, sink
    else
      kt_.softmax_rows(P, seq_len_, seq_len_);                                    // attention weights
    if (h == 0 && heatmap_ != nullptr) {
      heatmap_->resize(static_cast<size_t>(heatmap_n_) * heatmap_n_);
      for (int i = 0; i < heatmap_n_; ++i)
        std::copy_n(P + i * L, heatmap_n_, heatmap_->data() + static_cast<size_t>(i) * heatmap_n_);
    }
    for (size_t i = 0; i < L; ++i) {
      const size_t seen = rule_.causal ? i + 1 : L;  // keys this row sees
      // With a sink the row is the L + 1 outcomes, keys and sink (the sink is not capped: factor 1).
      const int n = sink_on ? seq_len_ + 1 : seq_len_;
      const float* prow = P + i * L;
      if (sink_on) {
        std::copy_n(prow, L, s.frow.data());
        s.frow[L] = s.sinkw[i];
        prow = s.frow.data();
      }
      if (capped || gradients) {  // the double row of the Lanczos norms and of J·dP
        for (int j = 0; j < n; ++j) s.p[j] = prow[j];
        if (capped)
          for (size_t j = 0; j < L; ++j) s.dcap[j] = j < seen ? softcap_derivative(s.raw[i * L + j], rule_.softcap) : 0.0;
        if (capped && sink_on) s.dcap[L] = 1.0;
      }
      if (has_sinks) rows_.sink_mass.push_back(s.sinkw[i]);
      // capped: J's norms come next; ‖J‖₂ only when asked for
      RowStats rs = f32_row_stats(prow, n, capped ? kRowEntropy : spectral_ ? kRowAll : kRowEntropy | kRowJacFro);
      if (capped) {  // the Jacobian with respect to the raw logits: J · diag(1 − tanh²(s / cap))
        const JacobianNorms jn = softmax_jacobian_scaled_norms(s.p.data(), s.dcap.data(), n, spectral_);  // Lanczos at its default 1e-13: stopped at 1e-7 it was 2.4e-4 off on near-uniform rows (a clustered spectrum)
        rs.jac_fro = jn.frobenius;
        rs.jac_spec = jn.spectral;
      }
      if (sink_on) rs.max_weight = *std::max_element(prow, prow + seq_len_);  // over the keys
      rows_.entropy.push_back(rs.entropy);
      rows_.max_weight.push_back(rs.max_weight);
      rows_.eff_support.push_back(rs.eff_support);
      rows_.jac_fro.push_back(rs.jac_fro);
      if (spectral_) rows_.jac_spec.push_back(rs.jac_spec);
      const size_t outcomes = sink_on ? seen + 1 : seen;  // the sink is one more place for the mass
      if (outcomes > 1) ratio_.push_back(rs.entropy / std::log(static_cast<double>(outcomes)));
      above_ += rs.max_weight > threshold_ ? 1.0 : 0.0;
      if (!gradients) continue;
      for (size_t j = 0; j < L; ++j) s.g[j] = s.dP[i * L + j];
      softmax_jacobian_vector(s.p.data(), s.g.data(), s.js.data(), seq_len_);  // dS_i = J_i dP_i
      if (capped)
        for (size_t j = 0; j < L; ++j) s.js[j] *= s.dcap[j];  // through the soft-cap: ⊙ (1 − tanh²)
      double n2 = 0.0;
      for (size_t j = 0; j < L; ++j) {
        s.dS[i * L + j] = static_cast<float>(s.js[j]);
        n2 += s.js[j] * s.js[j];
      }
      rows_.grad_logits.push_back(std::sqrt(n2));
    }
    if (!gradients) return;
    kt_.matmul_ab(s.dS.data(), K, s.dQ.data(), seq_len_, dk_, seq_len_, static_cast<float>(c_));  // dQ = c · dS K
    for (size_t i = 0; i < L; ++i) {
      double n2 = 0.0;
      for (int d = 0; d < dk_; ++d) n2 += double(s.dQ[i * dk_ + d]) * s.dQ[i * dk_ + d];
      rows_.grad_query.push_back(std::sqrt(n2));
    }
  }
  AttentionSummary finish() {
    sum_.entropy = summarize(rows_.entropy);
    sum_.entropy_ratio = summarize(ratio_);
    sum_.max_weight = summarize(rows_.max_weight);
    sum_.eff_support = summarize(rows_.eff_support);
    sum_.jac_fro = summarize(rows_.jac_fro);
    sum_.jac_spec = summarize(rows_.jac_spec);
    sum_.grad_logits = summarize(rows_.grad_logits);
    sum_.grad_query = summarize(rows_.grad_query);
    sum_.share_above = above_ / static_cast<double>(rows_.entropy.size());
    sum_.sink_mass = summarize(rows_.sink_mass);  // NaN without sinks
    return sum_;
  }

 private:
  const Inputs& in_;
  int heads_, seq_len_, dk_;
  double c_, threshold_;
  const KernelTable& kt_;
  LogitRule rule_;
  PerRow& rows_;
  int heatmap_n_;
  std::vector<float>* heatmap_;
  bool spectral_;
  AttentionSummary sum_;
  std::vector<double> ratio_;
  double above_ = 0.0;
};

// dO_h V_hᵀ [L, L] of head h into s.dP (gradients only).
void head_dp(const Inputs& in, int h, int heads, int seq_len, int dk, const KernelTable& kt, AnalysisScratch& s) {
  if (in.dout.empty()) return;
  const size_t headsz = static_cast<size_t>(seq_len) * dk;
  const int kvh = h / (heads / in.heads_kv);
  kt.matmul_abt(in.dout.data() + h * headsz, in.v.data() + kvh * headsz, s.dP.data(), seq_len, seq_len, dk, 1.0f);
}

// One scale over every head (attention_stats, tensor_stats): P = c · Q Kᵀ straight from the kernel.
AttentionSummary analyse(const Inputs& in, int heads, int seq_len, int dk, double c, double threshold,
                         Kernel kernel, const LogitRule& rule, PerRow& rows, int heatmap_n,
                         std::vector<float>* heatmap, bool spectral = true) {
  const KernelTable& kt = kernel_table(kernel);
  AnalysisScratch s(seq_len, dk, !in.dout.empty(), rule.softcap > 0.0, !rule.sinks.empty());
  Analysis a(in, heads, seq_len, dk, c, threshold, kernel, rule, rows, heatmap_n, heatmap, spectral);
  const size_t headsz = static_cast<size_t>(seq_len) * dk;
  for (int h = 0; h < heads; ++h) {
    const int kvh = h / (heads / in.heads_kv);
    kt.matmul_abt(in.q.data() + h * headsz, in.k.data() + kvh * headsz, s.P.data(), seq_len, seq_len, dk,
                  static_cast<float>(c));  // logits
    head_dp(in, h, heads, seq_len, dk, kt, s);
    a.head(h, s);
  }
  return a.finish();
}

// out[i] = c · qk[i] in float32 (n values): the logits of a scale from the shared products Q Kᵀ.
void scale_products(const float* qk, float c, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = c * qk[i];
}

}  // namespace

// ---------------------------------------------------------------------------------------------

Scale parse_scale(const std::string& name) {
  if (name == "none") return Scale{Scale::Kind::None, 0.0};
  if (name == "inv_sqrt_dk") return Scale{Scale::Kind::InvSqrtDk, 0.0};
  if (name == "inv_dk") return Scale{Scale::Kind::InvDk, 0.0};
  if (name == "inv_sqrt_d_model") return Scale{Scale::Kind::InvSqrtDModel, 0.0};
  throw std::invalid_argument("scale = '" + name +
                              "' is not one of 'none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model' or a positive number");
}

Scale scale_value(double value) {
  // Above 1e4 float32 logits and gradients can overflow; no attention scale is anywhere near it.
  if (!(value > 0.0) || !std::isfinite(value) || value > kMaxScale)
    throw std::invalid_argument("scale = " + format_number(value) + " must be a positive number ≤ 10000");
  return Scale{Scale::Kind::Value, value};
}

Scale scale_power(double p) {
  if (!(p >= 0.0 && p <= kMaxScalePower))
    throw std::invalid_argument("scale.power = " + format_number(p) + " must be a number in 0..2 (c = d_k^-power)");
  return Scale{Scale::Kind::Power, p};
}

std::string scale_name(const Scale& s) {
  switch (s.kind) {
    case Scale::Kind::None: return "none";
    case Scale::Kind::InvSqrtDk: return "inv_sqrt_dk";
    case Scale::Kind::InvDk: return "inv_dk";
    case Scale::Kind::InvSqrtDModel: return "inv_sqrt_d_model";
    case Scale::Kind::Value: return format_number(s.value);
    case Scale::Kind::Power: return "d_k^-" + format_number(s.value);
  }
  return "?";
}

double resolve_scale(const Scale& s, int dk, int heads) {
  switch (s.kind) {
    case Scale::Kind::None: return 1.0;
    case Scale::Kind::InvSqrtDk: return 1.0 / std::sqrt(static_cast<double>(dk));
    case Scale::Kind::InvDk: return 1.0 / static_cast<double>(dk);
    case Scale::Kind::InvSqrtDModel: return 1.0 / std::sqrt(static_cast<double>(dk) * heads);
    case Scale::Kind::Value: return scale_value(s.value).value;
    case Scale::Kind::Power: {
      const double pw = scale_power(s.value).value;
      const double d = static_cast<double>(dk);
      // The named exponents give the named scales' very numbers (pow may differ in the last bit).
      if (pw == 0.0) return 1.0;
      if (pw == 0.5) return 1.0 / std::sqrt(d);
      if (pw == 1.0) return 1.0 / d;
      return std::pow(d, -pw);
    }
  }
  return 1.0;
}

ScoreVarianceResult score_variance(const ScoreVarianceParams& p) {
  constexpr const char* what = "scoreVariance";
  check_dks(what, p.dks);
  check_int_range(what, "samples", p.samples, 2, 1000000);
  check_int_range(what, "histDk", p.hist_dk, 1, kMaxDk);
  check_int_range(what, "bins", p.bins, 4, 400);
  check_variance(what, p.variance);
  check_correlation(what, p.correlation);
  {
    double sum_dk = 0.0;
    for (int dk : p.dks) sum_dk += dk;
    std::vector<CostTerm> terms{{draws_ns(2.0 * p.samples * sum_dk),
                                 "samples = " + std::to_string(p.samples) + ", dks = " + format_number(sum_dk) + " in sum",
                                 "drawing samples · Σ dks pairs of normals"}};
    if (std::find(p.dks.begin(), p.dks.end(), p.hist_dk) == p.dks.end())  // drawn apart only if not in dks
      terms.push_back({draws_ns(2.0 * p.samples * p.hist_dk),
                       "histDk = " + std::to_string(p.hist_dk) + ", samples = " + std::to_string(p.samples),
                       "drawing the histogram's samples · histDk pairs of normals"});
    check_work_bytes(what, 3.0 * 8.0 * p.samples, "samples = " + std::to_string(p.samples));
    check_cost(what, terms);
  }

  const double sigma = std::sqrt(p.variance);
  const double s4 = p.variance * p.variance;
  ScoreVarianceResult r;
  std::vector<double> hist_scores;
  for (int dk : p.dks) {
    std::vector<double> scores = draw_scores(p.seed, dk, p.samples, sigma, p.correlation);
    MomentAccumulator acc;
    for (double s : scores) acc.add(s);
    ScoreVarianceRow row;
    row.dk = dk;
    row.raw = acc.moments();
    row.inv_sqrt_dk = scaled(row.raw, 1.0 / std::sqrt(double(dk)));
    row.inv_dk = scaled(row.raw, 1.0 / double(dk));
    if (p.correlation == 0.0) {
      row.theory_raw = normal_moments(dk * s4);
      row.theory_inv_sqrt_dk = normal_moments(s4);
      row.theory_inv_dk = normal_moments(s4 / dk);
    } else {
      const Moments m = correlated_moments(dk, p.variance, p.correlation);
      row.theory_raw = m;
      row.theory_inv_sqrt_dk = scaled(m, 1.0 / std::sqrt(double(dk)));
      row.theory_inv_dk = scaled(m, 1.0 / double(dk));
    }
    r.rows.push_back(row);
    if (dk == p.hist_dk && hist_scores.empty()) hist_scores = std::move(scores);
  }
  if (hist_scores.empty()) hist_scores = draw_scores(p.seed, p.hist_dk, p.samples, sigma, p.correlation);
  r.hist_dk = p.hist_dk;
  const Moments th = correlated_moments(p.hist_dk, p.variance, p.correlation);
  const double sd = p.correlation == 0.0 ? std::sqrt(p.hist_dk * s4) : th.std;
  const double mu = th.mean;  // 0 when ρ = 0: the edges are today's
  r.hist_raw = histogram(hist_scores, uniform_edges(mu - 5.0 * sd, mu + 5.0 * sd, p.bins));
  const double c = 1.0 / std::sqrt(double(p.hist_dk));
  for (double& s : hist_scores) s *= c;
  r.hist_inv_sqrt_dk = histogram(hist_scores, uniform_edges((mu - 5.0 * sd) * c, (mu + 5.0 * sd) * c, p.bins));
  return r;
}

AttentionStatsResult attention_stats(const AttentionStatsParams& p) {
  constexpr const char* what = "attentionStats";
  check_shape(what, p.heads, p.seq_len, p.dk);
  check_int_range(what, "heatmapSize", p.heatmap_size, 1, 512);
  check_variance(what, p.variance);
  check_threshold(what, p.threshold);
  const int heads_kv = resolve_heads_kv(what, p.heads, p.heads_kv);
  const double c = resolve_scale(p.scale, p.dk, p.heads);
  check_softcap(what, p.softcap);
  check_correlation(what, p.correlation);
  check_sinks(what, p.sinks, p.heads);
  kernel_table(p.kernel);  // throws if the family is not in this build
  check_work_bytes(what, analyse_bytes(p.heads, p.seq_len, p.dk, p.gradients), "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) + ", dk = " + std::to_string(p.dk));
  {
    std::vector<CostTerm> terms;
    // the soft-capped Lanczos solve is ‖J D‖₂: costed only when the call asks for it (spectral)
    const double logit_std = c * p.variance * std::sqrt(double(p.dk));  // of c · q·k, iid N(0, σ²) inputs
    analyse_terms(terms, 1.0, "", p.heads, p.seq_len, p.dk, p.gradients,
                  p.softcap > 0.0 && p.spectral ? softcap_row_ns(p.seq_len, logit_std, p.softcap) : 0.0, true, p.kernel);
    check_cost(what, terms);
  }

  Inputs in = draw_inputs(p.seed, p.heads, heads_kv, p.seq_len, p.dk, p.variance, p.gradients);
  correlate_keys(in, p.heads, p.correlation);
  AttentionStatsResult r;
  r.log_seq_len = std::log(static_cast<double>(p.seq_len));
  r.heatmap_size = std::min(p.seq_len, p.heatmap_size);
  PerRow rows;
  r.summary = analyse(in, p.heads, p.seq_len, p.dk, c, p.threshold, p.kernel, LogitRule{p.causal, p.softcap, p.sinks},
                      rows, r.heatmap_size, &r.heatmap, p.spectral);
  if (p.per_row) {
    r.entropy = std::move(rows.entropy);
    r.max_weight = std::move(rows.max_weight);
    r.eff_support = std::move(rows.eff_support);
    r.jac_fro = std::move(rows.jac_fro);
    r.jac_spec = std::move(rows.jac_spec);
    r.grad_logits = std::move(rows.grad_logits);
    r.grad_query = std::move(rows.grad_query);
    r.sink_mass = std::move(rows.sink_mass);
  }
  return r;
}

SaturationSweepResult saturation_sweep(const SaturationSweepParams& p) {
  constexpr const char* what = "saturationSweep";
  check_dks(what, p.dks);
  if (p.scales.empty()) throw std::invalid_argument("saturationSweep: scales is empty; give at least one scale");
  check_int_range(what, "scales.length", static_cast<long long>(p.scales.size()), 1, 8);
  check_int_range(what, "heads", p.heads, 1, kMaxHeads);
  check_int_range(what, "seqLen", p.seq_len, 1, kMaxSeqLen);
  check_variance(what, p.variance);
  check_threshold(what, p.threshold);
  for (const Scale& s : p.scales) resolve_scale(s, 1, 1);  // validates explicit values
  check_softcap(what, p.softcap);
  check_correlation(what, p.correlation);
  check_sinks(what, p.sinks, p.heads);
  kernel_table(p.kernel);
  double bytes = 0.0, sum_dk = 0.0, max_dk = 0.0;
  const double n_scales = static_cast<double>(p.scales.size());
  double shared_bytes = 0.0;
  for (int dk : p.dks) {
    bytes = std::max(bytes, analyse_bytes(p.heads, p.seq_len, dk, p.gradients));
    sum_dk += dk;
    max_dk = std::max(max_dk, double(dk));
  }
  // Several scales share a head's products Q Kᵀ (one more [L, L] buffer) and keep every scale's
  // per-row quantities at once; where that would not fit the memory limit the scales go one at a
  // time as a single scale does (the same bits either way, more products).
  if (n_scales > 1)
    shared_bytes = 4.0 * double(p.seq_len) * p.seq_len + (n_scales - 1) * 7.0 * 8.0 * p.heads * double(p.seq_len) * 2.0;
  const bool share = n_scales > 1 && bytes + shared_bytes <= work_limits().bytes;
  if (share) bytes += shared_bytes;
  check_work_bytes(what, bytes, "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) + ", dks = " + format_number(max_dk) + " at most");
  {
    // Every (d_k, scale) point is one analyse() pass; the inputs are drawn once per d_k, and
    // (share) the scales of a d_k share its products Q Kᵀ and dO Vᵀ: per d_k, 1 + (gradients: 1 +
    // scales) products of heads · seqLen² · d_k (dQ = c · dS K is the only one per scale); one scale
    // at a time, scales · (gradients: 3, else 1).
    const double passes = double(p.dks.size()) * p.scales.size();
    const std::string lists = "dks.length = " + std::to_string(p.dks.size()) + ", scales.length = " +
                              std::to_string(p.scales.size());
    const double S = static_cast<double>(p.scales.size());
    const double L = p.seq_len;
    std::vector<CostTerm> terms{
        {(share ? 1.0 + (p.gradients ? 1.0 + S : 0.0) : S * (p.gradients ? 3.0 : 1.0)) * p.heads * L * L * sum_dk *
             ns_per_mac(p.kernel),
         (p.gradients || !share ? "scales.length = " + std::to_string(p.scales.size()) + ", " : std::string()) + "dks = " +
             format_number(sum_dk) + " in sum, heads = " + std::to_string(p.heads) + ", seqLen = " +
             std::to_string(p.seq_len),
         !share                 ? "the products scales · heads · seqLen² · Σ dks"
         : p.gradients ? "the products (2 + scales) · heads · seqLen² · Σ dks"
                       : "the products heads · seqLen² · Σ dks"},
        {passes * analyse_rows_ns(p.heads, p.seq_len, p.gradients),
         lists + ", heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len),
         "the per-row statistics of " + format_number(passes * p.heads * L * L) + " attention weights"},
        {draws_ns((p.gradients ? 4.0 : 2.0) * p.heads * L * sum_dk),
         "dks = " + format_number(sum_dk) + " in sum, heads = " + std::to_string(p.heads) + ", seqLen = " +
             std::to_string(p.seq_len),
         "drawing the inputs"}};
    if (p.softcap > 0.0 && p.spectral) {  // the Lanczos solve of ‖J D‖₂, only when asked for
      double rows_ns = 0.0;  // per (d_k, scale): its rows' steps follow its logits' spread under the cap
      for (int dk : p.dks)
        for (const Scale& sc : p.scales) {
          const double logit_std = resolve_scale(sc, dk, p.heads) * p.variance * std::sqrt(double(dk));
          rows_ns += p.heads * L * softcap_row_ns(p.seq_len, logit_std, p.softcap);
        }
      terms.push_back({rows_ns, lists + ", heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len),
                       "the soft-capped Jacobian norms of " + format_number(passes * p.heads * p.seq_len) +
                           " rows (Lanczos, up to min(seqLen, 160) steps each)"});
    }
    check_cost(what, terms);
  }

  SaturationSweepResult r;
  r.log_seq_len = std::log(static_cast<double>(p.seq_len));
  r.points.assign(p.scales.size(), std::vector<AttentionSummary>(p.dks.size()));
  const LogitRule rule{p.causal, p.softcap, p.sinks};
  for (size_t d = 0; d < p.dks.size(); ++d) {
    const int dk = p.dks[d];
    Inputs in = draw_inputs(p.seed, p.heads, p.heads, p.seq_len, dk, p.variance, p.gradients);
    correlate_keys(in, p.heads, p.correlation);
    if (!share) {
      for (size_t k = 0; k < p.scales.size(); ++k) {
        PerRow rows;
        r.points[k][d] = analyse(in, p.heads, p.seq_len, dk, resolve_scale(p.scales[k], dk, p.heads), p.threshold,
                                 p.kernel, rule, rows, 0, nullptr, p.spectral);
      }
      continue;
    }
    // Several scales see the same products: Q Kᵀ of a head once (factor 1), each scale's logits
    // c · (Q Kᵀ) from it (the bits of the product formed with factor c), and dO Vᵀ once.
    const KernelTable& kt = kernel_table(p.kernel);
    const size_t L = static_cast<size_t>(p.seq_len);
    const size_t headsz = L * dk;
    AnalysisScratch s(p.seq_len, dk, p.gradients, p.softcap > 0.0, !p.sinks.empty());
    std::vector<float> qk(L * L);
    std::vector<PerRow> rows(p.scales.size());
    std::vector<Analysis> an;
    an.reserve(p.scales.size());
    for (size_t k = 0; k < p.scales.size(); ++k)
      an.emplace_back(in, p.heads, p.seq_len, dk, resolve_scale(p.scales[k], dk, p.heads), p.threshold, p.kernel,
                      rule, rows[k], 0, nullptr, p.spectral);
    for (int h = 0; h < p.heads; ++h) {
      kt.matmul_abt(in.q.data() + h * headsz, in.k.data() + h * headsz, qk.data(), p.seq_len, p.seq_len, dk, 1.0f);
      head_dp(in, h, p.heads, p.seq_len, dk, kt, s);
      for (size_t k = 0; k < p.scales.size(); ++k) {
        scale_products(qk.data(), static_cast<float>(resolve_scale(p.scales[k], dk, p.heads)), s.P.data(), L * L);
        an[k].head(h, s);
      }
    }
    for (size_t k = 0; k < p.scales.size(); ++k) r.points[k][d] = an[k].finish();
  }
  return r;
}

SoftmaxJacobianResult softmax_jacobian(std::span<const double> logits, double softcap) {
  const long long n = static_cast<long long>(logits.size());
  check_int_range("softmaxJacobian", "logits.length", n, 1, 4096);
  check_softcap("softmaxJacobian", softcap);
  for (long long i = 0; i < n; ++i) {
    const double x = logits[i];
    if (std::isnan(x) || x == std::numeric_limits<double>::infinity())
      throw std::invalid_argument("softmaxJacobian: logits[" + std::to_string(i) + "] = " + format_number(x) +
                                  " is not allowed (finite numbers, or -inf for a masked key)");
  }
  SoftmaxJacobianResult r;
  r.probs.resize(n);
  std::vector<double> z(logits.begin(), logits.end()), dcap(n, 1.0);
  if (softcap > 0.0)
    for (long long i = 0; i < n; ++i) {
      dcap[i] = softcap_derivative(z[i], softcap);
      z[i] = softcap_logit(z[i], softcap);
    }
  f64_softmax__reference(z.data(), r.probs.data(), static_cast<int>(n));
  Eigen::MatrixXd J = softmax_jacobian_matrix(r.probs.data(), static_cast<int>(n));
  if (softcap > 0.0) J = J * Eigen::Map<const Eigen::VectorXd>(dcap.data(), n).asDiagonal();
  r.jacobian.resize(static_cast<size_t>(n * n));
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(r.jacobian.data(), n, n) = J;
  const RowStats rs = row_stats(r.probs.data(), static_cast<int>(n));
  r.frobenius = rs.jac_fro;
  r.spectral = rs.jac_spec;
  r.entropy = rs.entropy;
  if (softcap > 0.0) {
    const JacobianNorms jn = softmax_jacobian_scaled_norms(r.probs.data(), dcap.data(), static_cast<int>(n));
    r.frobenius = jn.frobenius;
    r.spectral = jn.spectral;
  }
  return r;
}

namespace {
// Throws unless t holds n finite values, naming the tensor and the first bad index.
void check_tensor(const char* what, const char* name, std::span<const float> t, size_t n, const char* shape) {
  if (t.size() != n)
    throw std::invalid_argument(std::string(what) + ": " + name + ".length = " + std::to_string(t.size()) +
                                " does not match " + shape + " = " + std::to_string(n));
  // Fast pass: one branch-free test per entry (NaN and ±∞ fail |x| ≤ 1e6 too; 1e6 is exact in
  // float32), which the compiler vectorises; only a tensor that fails it is walked again below
  // for the first bad index and the message.
  const float* x = t.data();
  const float lim = static_cast<float>(kMaxTensorEntry);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok &= std::fabs(x[i]) <= lim;
  if (ok) return;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(t[i]))
      throw std::invalid_argument(std::string(what) + ": " + name + "[" + std::to_string(i) + "] = " +
                                  format_number(t[i]) + " is not a finite number");
    // Larger entries could overflow the float32 products (q·k, dP, dQ) for the largest shapes.
    if (std::fabs(t[i]) > kMaxTensorEntry)
      throw std::invalid_argument(std::string(what) + ": " + name + "[" + std::to_string(i) + "] = " +
                                  format_number(t[i]) + " exceeds 1e6 in magnitude; rescale the tensor");
  }
}
}  // namespace

void check_attention_work(const AttentionParams& p) {
  constexpr const char* what = "attention";
  check_shape(what, p.heads, p.seq_len, p.dk);
  const int heads_kv = resolve_heads_kv(what, p.heads, p.heads_kv);
  const size_t n = static_cast<size_t>(p.heads) * p.seq_len * p.dk;
  const size_t nkv = static_cast<size_t>(heads_kv) * p.seq_len * p.dk;
  const double L = p.seq_len;
  check_softcap(what, p.softcap);
  check_sinks(what, p.sinks, p.heads);
  check_work_bytes(what, 4.0 * (2.0 * n + 2.0 * nkv) + 4.0 * L * L * (p.want_weights ? p.heads + 2.0 : 2.0), "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) + ", dk = " + std::to_string(p.dk));
  check_cost(what, {{2.0 * p.heads * L * L * p.dk * ns_per_mac(p.kernel),
                     "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) +
                         ", dk = " + std::to_string(p.dk),
                     "the products heads · seqLen² · dk"},
                    {p.heads * L * L * cost::kNsPerSoftmaxWeight,
                     "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len),
                     "the softmax of " + format_number(p.heads * L * L) + " attention weights"}});
}

namespace {
// Checks attention's parameters (throws std::invalid_argument naming the bad value): the shape and
// budgets first (check_attention_work), then the tensors; returns the output size heads · seq_len · dk.
size_t check_attention(const AttentionParams& p) {
  constexpr const char* what = "attention";
  check_attention_work(p);
  const int heads_kv = resolve_heads_kv(what, p.heads, p.heads_kv);
  const size_t n = static_cast<size_t>(p.heads) * p.seq_len * p.dk;
  const size_t nkv = static_cast<size_t>(heads_kv) * p.seq_len * p.dk;
  check_tensor(what, "q", p.q, n, "heads · seqLen · dk");
  check_tensor(what, "k", p.k, nkv, "headsKv · seqLen · dk");
  check_tensor(what, "v", p.v, nkv, "headsKv · seqLen · dk");
  const size_t LL = static_cast<size_t>(p.seq_len) * p.seq_len;
  if (!p.mask.empty()) {
    if (p.mask.size() != LL)
      throw std::invalid_argument("attention: mask.length = " + std::to_string(p.mask.size()) +
                                  " does not match seqLen · seqLen = " + std::to_string(LL));
    for (size_t i = 0; i < LL; ++i)
      if (std::isnan(p.mask[i]) || p.mask[i] == std::numeric_limits<float>::infinity())
        throw std::invalid_argument("attention: mask[" + std::to_string(i) + "] = " + format_number(p.mask[i]) +
                                    " is not allowed (0, -inf or a finite number)");
  }
  kernel_table(p.kernel);  // throws for a family this build lacks
  return n;
}

// The forward pass of checked parameters into output [heads, seq_len, dk] and, when
// p.want_weights, weights [heads, seq_len, seq_len], and with sinks sink_weights [heads, seq_len];
// returns the scale factor.
double run_attention(const AttentionParams& p, float* output, float* weights, float* sink_weights) {
  const int heads_kv = p.heads_kv == 0 ? p.heads : p.heads_kv;
  const size_t LL = static_cast<size_t>(p.seq_len) * p.seq_len;
  const KernelTable& kt = kernel_table(p.kernel);
  const double scale = resolve_scale(p.scale, p.dk, p.heads);
  // Without soft-capping or masks every logit is finite (entries ≤ 1e6, scale ≤ 1e4) and no row
  // can be fully masked: the per-logit pass below would change nothing, so it is skipped.
  const bool logit_pass = p.softcap > 0.0 || !p.mask.empty() || p.causal;
  // The weights of one head when the caller does not want them all: kept between calls and not
  // zero-filled (every entry is written by the product before it is read).
  static std::unique_ptr<float[]> scratch;
  static size_t scratch_cap = 0;
  if (!p.want_weights && (logit_pass || !kt.attention_head || !p.sinks.empty()) && scratch_cap < LL) {
    scratch.reset(new float[LL]);
    scratch_cap = LL;
  }
  std::vector<char> dead(static_cast<size_t>(p.seq_len));  // rows with every key masked
  const size_t head = static_cast<size_t>(p.seq_len) * p.dk;
  const int group = p.heads / heads_kv;
  const size_t Lz = static_cast<size_t>(p.seq_len);
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  for (int h = 0; h < p.heads; ++h) {
    const size_t kv = static_cast<size_t>(h / group) * head;  // K/V head shared by `group` query heads
    if (!logit_pass && !p.want_weights && kt.attention_head && p.sinks.empty()) {  // the same numbers, scores kept in cache
      kt.attention_head(p.q.data() + h * head, p.k.data() + kv, p.v.data() + kv, output + h * head, p.seq_len, p.dk,
                        static_cast<float>(scale));
      continue;
    }
    float* P = p.want_weights ? weights + static_cast<size_t>(h) * LL : scratch.get();
    kt.matmul_abt(p.q.data() + h * head, p.k.data() + kv, P, p.seq_len, p.seq_len, p.dk, static_cast<float>(scale));
    for (size_t i = 0; logit_pass && i < Lz; ++i) {
      bool all_masked = true;
      for (size_t j = 0; j < Lz; ++j) {
        float& s = P[i * Lz + j];
        if (p.softcap > 0.0) s = static_cast<float>(softcap_logit(s, p.softcap));
        if (!p.mask.empty()) s += p.mask[i * Lz + j];
        if (p.causal && j > i) s = kNegInf;
        all_masked = all_masked && s == kNegInf;
      }
      dead[i] = all_masked;
    }
    const bool sink_on = !p.sinks.empty() && p.sinks[h] != -std::numeric_limits<double>::infinity();
    if (!p.sinks.empty())  // a fully masked row comes out all zeros, the sink taking its mass
      kt.softmax_rows_sink(P, p.seq_len, p.seq_len, static_cast<float>(p.sinks[h]), sink_weights + h * Lz);
    else
      kt.softmax_rows(P, p.seq_len, p.seq_len);  // a fully masked row comes out all zeros
    if (p.masked_row == MaskedRow::Nan && !sink_on)
      for (size_t i = 0; i < Lz; ++i)
        if (dead[i]) std::fill_n(P + i * Lz, Lz, std::numeric_limits<float>::quiet_NaN());
    kt.matmul_ab(P, p.v.data() + kv, output + h * head, p.seq_len, p.dk, p.seq_len, 1.0f);
  }
  return scale;
}
}  // namespace

AttentionResult attention(const AttentionParams& p) {
  const size_t n = check_attention(p);
  AttentionResult r;
  r.output.resize(n);
  if (p.want_weights) r.weights.resize(static_cast<size_t>(p.heads) * p.seq_len * p.seq_len);
  if (!p.sinks.empty()) r.sink_weights.resize(static_cast<size_t>(p.heads) * p.seq_len);
  r.scale = run_attention(p, r.output.data(), r.weights.data(), r.sink_weights.data());
  return r;
}

double attention_into(const AttentionParams& p, std::span<float> output, std::span<float> weights,
                      std::span<float> sink_weights) {
  const size_t n = check_attention(p);
  const size_t nw = p.want_weights ? static_cast<size_t>(p.heads) * p.seq_len * p.seq_len : 0;
  const size_t ns = p.sinks.empty() ? 0 : static_cast<size_t>(p.heads) * p.seq_len;
  if (output.size() != n || weights.size() != nw || sink_weights.size() != ns)
    throw std::invalid_argument("attention: output buffers of " + std::to_string(output.size()) + ", " +
                                std::to_string(weights.size()) + " and " + std::to_string(sink_weights.size()) +
                                " floats do not match " + std::to_string(n) + ", " + std::to_string(nw) + " and " +
                                std::to_string(ns));
  return run_attention(p, output.data(), weights.data(), sink_weights.data());
}

double mean_sink_mass(std::span<const float> sink_weights) {
  double sum = 0.0;
  for (float w : sink_weights) sum += w;
  return sink_weights.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(sink_weights.size());
}

void check_tensor_stats_work(const TensorStatsParams& p) {
  constexpr const char* what = "tensorStats";
  check_shape(what, p.heads, p.seq_len, p.dk);
  check_threshold(what, p.threshold);
  // + the raw products of a head (its moments and, scaled, its logits)
  check_work_bytes(what, analyse_bytes(p.heads, p.seq_len, p.dk) + 4.0 * double(p.seq_len) * p.seq_len,
                   "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) + ", dk = " + std::to_string(p.dk));
  {
    std::vector<CostTerm> terms;  // the raw q·k products serve the moments and the logits: one pass's products
    analyse_terms(terms, 1.0, "", p.heads, p.seq_len, p.dk, true, 0.0, false, p.kernel);
    const double L = p.seq_len;
    terms.push_back({p.heads * L * L * cost::kNsPerPairMoment,
                     "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len),
                     "the moments of every q·k pair"});
    check_cost(what, terms);
  }
}

TensorStatsResult tensor_stats(const TensorStatsParams& p) {
  constexpr const char* what = "tensorStats";
  check_tensor_stats_work(p);
  const size_t n = static_cast<size_t>(p.heads) * p.seq_len * p.dk;
  check_tensor(what, "q", p.q, n, "heads · seqLen · dk");
  check_tensor(what, "k", p.k, n, "heads · seqLen · dk");
  if (!p.v.empty()) check_tensor(what, "v", p.v, n, "heads · seqLen · dk");
  const double c = resolve_scale(p.scale, p.dk, p.heads);
  const KernelTable& kt = kernel_table(p.kernel);

  Inputs in;
  in.q.assign(p.q.begin(), p.q.end());
  in.k.assign(p.k.begin(), p.k.end());
  in.v = p.v.empty() ? draw_tensor(p.seed, 3, n, 1.0) : std::vector<float>(p.v.begin(), p.v.end());
  in.dout = draw_tensor(p.seed, 4, n, 1.0);
  in.heads_kv = p.heads;

  TensorStatsResult r;
  r.log_seq_len = std::log(static_cast<double>(p.seq_len));
  MomentAccumulator qa, ka, qk;
  for (float x : in.q) qa.add(x);
  for (float x : in.k) ka.add(x);
  r.q_component = qa.moments();
  r.k_component = ka.moments();
  // Raw dot products of every pair, per head (float32 products, accumulated in double), shared with
  // the logits c · q·k of the analysis (the bits of the product formed with factor c, kernels.hpp).
  const size_t L = static_cast<size_t>(p.seq_len);
  std::vector<float> S(L * L);
  const size_t head = L * p.dk;
  AnalysisScratch scratch(p.seq_len, p.dk, true, false, false);
  PerRow rows;
  Analysis a(in, p.heads, p.seq_len, p.dk, c, p.threshold, p.kernel, LogitRule{p.causal, 0.0, {}}, rows, 0, nullptr,
             true);
  for (int h = 0; h < p.heads; ++h) {
    kt.matmul_abt(in.q.data() + h * head, in.k.data() + h * head, S.data(), p.seq_len, p.seq_len, p.dk, 1.0f);
    for (float s : S) qk.add(s);
    scale_products(S.data(), static_cast<float>(c), scratch.P.data(), L * L);
    head_dp(in, h, p.heads, p.seq_len, p.dk, kt, scratch);
    a.head(h, scratch);
  }
  r.qk = qk.moments();
  r.summary = a.finish();
  r.entropy = std::move(rows.entropy);
  r.max_weight = std::move(rows.max_weight);
  r.jac_fro = std::move(rows.jac_fro);
  return r;
}

ScaleAt parse_scale_at(const std::string& name) {
  if (name == "scores") return ScaleAt::Scores;
  if (name == "query") return ScaleAt::Query;
  throw std::invalid_argument("scaleAt = '" + name + "' is not one of 'scores', 'query'");
}

namespace {
// The logits of q [queries, dk] against k [keys, dk] formed in format f (see PrecisionLabParams):
// products and sums rounded to the accumulation format, the dot product stored in f, c applied at
// the scores or to q first. overflow[i] is set when a product, a sum or a logit of row i overflowed.
std::vector<std::vector<double>> logits_in_format(const PrecisionLabParams& p, int queries, int keys, double c,
                                                  Format f, std::vector<char>& overflow) {
  const Format acc = (p.accumulate == Accumulate::Float32 && (f == Format::Float16 || f == Format::BFloat16))
                         ? Format::Float32
                         : f;
  auto S = [f](double v) { return round_to(f, v); };
  auto A = [acc](double v) { return round_to(acc, v); };
  const double cf = S(c);
  const size_t dk = static_cast<size_t>(p.dk);
  std::vector<double> kf(p.k.size()), qi(dk);
  for (size_t i = 0; i < kf.size(); ++i) kf[i] = S(p.k[i]);
  std::vector<std::vector<double>> rows(queries, std::vector<double>(keys));
  overflow.assign(queries, 0);
  for (int i = 0; i < queries; ++i) {
    bool over = false;
    for (size_t d = 0; d < dk; ++d) {
      qi[d] = S(p.q[i * dk + d]);
      if (p.scale_at == ScaleAt::Query) qi[d] = S(A(cf * qi[d]));
      over = over || std::isinf(qi[d]);
    }
    for (int j = 0; j < keys; ++j) {
      double dot = 0.0;
      for (size_t d = 0; d < dk; ++d) dot = A(dot + A(qi[d] * kf[j * dk + d]));
      double s = S(dot);
      if (p.scale_at == ScaleAt::Scores) {
        over = over || std::isinf(s);
        s = S(A(cf * s));
      }
      over = over || std::isinf(s);
      rows[i][j] = s;
    }
    overflow[i] = over;
  }
  return rows;
}
}  // namespace

std::vector<std::vector<double>> precision_qk_logits(const PrecisionLabParams& p, Format f) {
  check_int_range("precisionLab", "dk", p.dk, 1, kMaxDk);
  const size_t dk = static_cast<size_t>(p.dk);
  const int queries = static_cast<int>(p.q.size() / dk), keys = static_cast<int>(p.k.size() / dk);
  std::vector<char> overflow;
  PrecisionLabParams q = p;
  if (f == Format::Float64) q.accumulate = Accumulate::Same;
  return logits_in_format(q, queries, keys, resolve_scale(p.scale, p.dk, p.heads), f, overflow);
}

PrecisionLabResult precision_lab(const PrecisionLabParams& p) {
  constexpr const char* what = "precisionLab";
  check_int_range(what, "blockSize", p.block_size, 1, kMaxSeqLen);
  check_softcap(what, p.softcap);
  std::vector<std::vector<double>> rows;
  PrecisionLabResult r;
  const bool qk = !p.q.empty() || !p.k.empty();
  int queries = 0, keys = 0;
  if (qk) {
    if (!p.logits.empty()) throw std::invalid_argument("precisionLab: logits cannot go with q and k; give one of them");
    check_int_range(what, "dk", p.dk, 1, kMaxDk);
    check_int_range(what, "heads", p.heads, 1, kMaxHeads);
    const size_t dk = static_cast<size_t>(p.dk);
    if (p.q.size() % dk != 0 || p.q.empty())
      throw std::invalid_argument("precisionLab: q.length = " + std::to_string(p.q.size()) +
                                  " is not queries · dk for dk = " + std::to_string(p.dk));
    if (p.k.size() % dk != 0 || p.k.empty())
      throw std::invalid_argument("precisionLab: k.length = " + std::to_string(p.k.size()) +
                                  " is not keys · dk for dk = " + std::to_string(p.dk));
    check_int_range(what, "queries", static_cast<long long>(p.q.size() / dk), 1, 1024);
    check_int_range(what, "keys", static_cast<long long>(p.k.size() / dk), 1, kMaxSeqLen);
    queries = static_cast<int>(p.q.size() / dk);
    keys = static_cast<int>(p.k.size() / dk);
    const std::string drivers = "queries = " + std::to_string(queries) + ", keys = " + std::to_string(keys) +
                                ", dk = " + std::to_string(p.dk);
    check_work_bytes(what, 8.0 * queries * double(keys) * 5.0 + 8.0 * double(p.k.size()), drivers);  // before check_cost: core.cost records both
    check_cost(what, {{3.0 * queries * double(keys) * p.dk * cost::kNsPerEmulatedMac, drivers,
                       "the products queries · keys · dk emulated in float32, bfloat16 and float16"},
                      {double(queries) * keys * cost::kNsPerPrecisionLogit,
                       "queries = " + std::to_string(queries) + ", keys = " + std::to_string(keys),
                       "12 emulated softmaxes of queries · keys logits"}});
    check_tensor(what, "q", p.q, p.q.size(), "queries · dk");
    check_tensor(what, "k", p.k, p.k.size(), "keys · dk");
    r.scale = resolve_scale(p.scale, p.dk, p.heads);
    // The float64 reference: the products in double.
    for (int i = 0; i < queries; ++i) {
      std::vector<double> row(keys);
      for (int j = 0; j < keys; ++j) {
        double dot = 0.0;
        for (int d = 0; d < p.dk; ++d) dot += double(p.q[size_t(i) * p.dk + d]) * p.k[size_t(j) * p.dk + d];
        row[j] = r.scale * dot;
      }
      rows.push_back(std::move(row));
    }
  } else if (!p.logits.empty()) {
    check_int_range(what, "logits.length", static_cast<long long>(p.logits.size()), 1, kMaxSeqLen);
    for (size_t i = 0; i < p.logits.size(); ++i) {
      const double x = p.logits[i];
      if (std::isnan(x) || x == std::numeric_limits<double>::infinity())
        throw std::invalid_argument("precisionLab: logits[" + std::to_string(i) + "] = " + format_number(x) +
                                    " is not allowed (finite numbers, or -inf for a masked key)");
    }
    check_cost(what, {{double(p.logits.size()) * cost::kNsPerPrecisionLogit,
                       "logits.length = " + std::to_string(p.logits.size()),
                       "12 emulated softmaxes of the logits"}});
    rows.push_back(p.logits);
    r.scale = 1.0;
  } else {
    check_int_range(what, "rows", p.rows, 1, 1024);
    check_int_range(what, "seqLen", p.seq_len, 1, kMaxSeqLen);
    check_int_range(what, "dk", p.dk, 1, kMaxDk);
    check_int_range(what, "heads", p.heads, 1, kMaxHeads);
    check_work_bytes(what, 8.0 * p.rows * p.seq_len * 3.0 + 8.0 * p.seq_len * p.dk,
                     "rows = " + std::to_string(p.rows) + ", seqLen = " + std::to_string(p.seq_len) + ", dk = " + std::to_string(p.dk));
    check_cost(what, {{double(p.rows) * p.seq_len * p.dk * cost::kNsPerMac,
                       "rows = " + std::to_string(p.rows) + ", seqLen = " + std::to_string(p.seq_len) +
                           ", dk = " + std::to_string(p.dk),
                       "the scores rows · seqLen · dk"},
                      {double(p.rows) * p.seq_len * cost::kNsPerPrecisionLogit,
                       "rows = " + std::to_string(p.rows) + ", seqLen = " + std::to_string(p.seq_len),
                       "12 emulated softmaxes of rows · seqLen logits"}});
    r.scale = resolve_scale(p.scale, p.dk, p.heads);
    Rng rng = Rng::stream(p.seed, 5);
    std::vector<double> keys(static_cast<size_t>(p.seq_len) * p.dk), q(p.dk);
    for (double& x : keys) x = rng.normal();
    for (int i = 0; i < p.rows; ++i) {
      for (double& x : q) x = rng.normal();
      std::vector<double> row(p.seq_len);
      for (int j = 0; j < p.seq_len; ++j) {
        double dot = 0.0;
        for (int d = 0; d < p.dk; ++d) dot += q[d] * keys[static_cast<size_t>(j) * p.dk + d];
        row[j] = r.scale * dot;
      }
      rows.push_back(std::move(row));
    }
  }
  auto cap = [&p](std::vector<std::vector<double>>& rs) {
    if (p.softcap > 0.0)
      for (auto& row : rs)
        for (double& x : row) x = softcap_logit(x, p.softcap);  // −∞ stays −∞
  };
  cap(rows);
  r.rows = static_cast<int>(rows.size());
  r.seq_len = static_cast<int>(rows[0].size());
  for (const auto& row : rows)
    for (double x : row)
      if (std::isfinite(x)) r.max_abs_logit = std::max(r.max_abs_logit, std::fabs(x));

  SoftmaxOptions opt;
  opt.block_size = p.block_size;
  opt.accumulate = p.accumulate;
  opt.masked_row = p.masked_row;
  // The float64 safe softmax is the reference.
  std::vector<std::vector<double>> ref;
  std::vector<double> jf;
  for (const auto& row : rows) {
    ref.push_back(softmax_in_format(row, Format::Float64, SoftmaxAlgorithm::Safe, opt));
    bool finite = true;
    for (double v : ref.back()) finite = finite && std::isfinite(v);
    if (finite) jf.push_back(row_stats(ref.back().data(), r.seq_len, kRowJacFro).jac_fro);
  }
  r.reference = ref[0];
  r.jac_fro_median_f64 = quantile(jf, 0.5);

  const bool row_sums = p.row_sums || qk;
  std::vector<double> ref_sum(rows.size(), 0.0);
  for (size_t i = 0; i < rows.size(); ++i)
    for (double v : ref[i]) ref_sum[i] += v;
  const Format formats[] = {Format::Float64, Format::Float32, Format::BFloat16, Format::Float16};
  const SoftmaxAlgorithm algos[] = {SoftmaxAlgorithm::Naive, SoftmaxAlgorithm::Safe, SoftmaxAlgorithm::Online};
  const char* algo_names[] = {"naive", "safe", "online"};
  for (Format f : formats) {
    // With q and k each format forms its own logits (float64: the reference's).
    std::vector<std::vector<double>> own;
    std::vector<char> overflow(rows.size(), 0);
    if (qk && f != Format::Float64) {
      own = logits_in_format(p, queries, keys, r.scale, f, overflow);
      cap(own);
    }
    const std::vector<std::vector<double>>& frows = own.empty() ? rows : own;
    const FormatInfo& fi = format_info(f);
    const double u = std::ldexp(1.0, -(fi.mantissa_bits + 1));
    const double stall_tol = u * (2.0 + 2.0 * std::sqrt(double(r.seq_len))) + r.seq_len * fi.min_subnormal;
    std::vector<std::vector<double>> safe_out;
    double online_vs_safe = 0.0;
    for (int a = 0; a < 3; ++a) {
      PrecisionCell cell;
      cell.format = format_info(f).name;
      cell.algorithm = algo_names[a];
      double nonfinite = 0, nan = 0, err_sum = 0;
      PrecisionCauses causes;
      int finite_rows = 0;
      std::vector<double> jfro;
      double sum_min = std::numeric_limits<double>::infinity(), sum_max = -sum_min;
      for (size_t i = 0; i < rows.size(); ++i) {
        SoftmaxTrace trace;
        const std::vector<double> out = softmax_in_format(frows[i], f, algos[a], opt, &trace);
        if (overflow[i]) trace.input_overflow = true;  // q·k (or c · q·k, or c · q) overflowed in the format
        if (i == 0) cell.probs = out;
        double row_sum = 0.0;
        for (double v : out) row_sum += v;
        if (!std::isnan(row_sum)) {
          sum_min = std::min(sum_min, row_sum);
          sum_max = std::max(sum_max, row_sum);
        }
        bool bad = false, has_nan = false, flushed = false, ref_finite = true;
        double err = 0.0;
        for (int j = 0; j < r.seq_len; ++j) {
          if (!std::isfinite(out[j])) bad = true;
          if (std::isnan(out[j])) has_nan = true;
          if (!std::isfinite(ref[i][j])) ref_finite = false;
          if (out[j] == 0.0 && ref[i][j] > 0.0) flushed = true;
          err = std::max(err, std::fabs(out[j] - ref[i][j]));
        }
        nonfinite += bad;
        nan += has_nan;
        // The first cause in the order of PrecisionCauses.
        if (trace.input_overflow) causes.input_overflow += 1;
        else if (trace.exp_overflow) causes.exp_overflow += 1;
        else if (trace.sum_overflow) causes.sum_overflow += 1;
        else if (has_nan) causes.nan += 1;
        else if (flushed) causes.underflow += 1;
        else if (row_sums && !bad && std::fabs(row_sum - ref_sum[i]) > stall_tol) causes.sum_stall += 1;
        if (!bad && ref_finite) {
          ++finite_rows;
          err_sum += err;
          cell.max_abs_error = std::max(cell.max_abs_error, err);
        }
        if (!bad) jfro.push_back(row_stats(out.data(), r.seq_len, kRowJacFro).jac_fro);
        if (algos[a] == SoftmaxAlgorithm::Safe) safe_out.push_back(out);
        if (algos[a] == SoftmaxAlgorithm::Online)
          for (int j = 0; j < r.seq_len; ++j) {
            const double d = std::fabs(out[j] - safe_out[i][j]);
            if (!std::isnan(d)) online_vs_safe = std::max(online_vs_safe, d);
          }
      }
      const double n = static_cast<double>(rows.size());
      cell.share_nonfinite = nonfinite / n;
      cell.share_nan = nan / n;
      cell.causes.input_overflow = causes.input_overflow / n;
      cell.causes.exp_overflow = causes.exp_overflow / n;
      cell.causes.sum_overflow = causes.sum_overflow / n;
      cell.causes.nan = causes.nan / n;
      cell.causes.underflow = causes.underflow / n;
      cell.causes.sum_stall = causes.sum_stall / n;
      const double none = std::numeric_limits<double>::quiet_NaN();
      cell.row_sum = sum_min <= sum_max ? RowSumRange{sum_min, sum_max} : RowSumRange{none, none};
      if (finite_rows == 0) {
        cell.max_abs_error = cell.mean_abs_error = std::numeric_limits<double>::quiet_NaN();
      } else {
        cell.mean_abs_error = err_sum / finite_rows;
      }
      cell.jac_fro_median = quantile(jfro, 0.5);
      r.cells.push_back(std::move(cell));
    }
    r.online_vs_safe.push_back(online_vs_safe);
  }
  return r;
}

double yarn_get_mscale(double s, double mscale) { return s <= 1.0 ? 1.0 : 0.1 * mscale * std::log(s) + 1.0; }

double yarn_multiplier(double s, double mscale, double mscale_all_dim) {
  if (mscale_all_dim == 0.0) return std::pow(yarn_get_mscale(s, mscale), 2.0);
  const double all = yarn_get_mscale(s, mscale_all_dim);
  return std::pow(yarn_get_mscale(s, mscale) / all, 2.0) * (all * all);
}

double llama4_temperature(double pos_plus_one, double floor_scale, double attn_scale) {
  return 1.0 + attn_scale * std::log(std::floor(pos_plus_one / floor_scale) + 1.0);
}

double ssmax_multiplier(int n, double s) { return s * std::log(static_cast<double>(n)); }

void check_long_context_options(const char* what, const LongContextOptions& o) {
  auto range = [what](const char* name, double v, double lo, double hi, bool open_lo) {
    if (!(open_lo ? v > lo : v >= lo) || !(v <= hi))
      throw std::invalid_argument(std::string(what) + ": " + name + " = " + format_number(v) + " must be a number in " +
                                  (open_lo ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + "]");
  };
  range("floorScale", o.floor_scale, 1.0, 1e9, false);
  range("attnScale", o.attn_scale, 0.0, 10.0, false);
  range("s", o.ssmax_s, 0.0, 10.0, true);
  range("mscale", o.mscale, 0.0, 100.0, true);
  if (o.mscale_all_dim != 0.0) range("mscaleAllDim", o.mscale_all_dim, 0.0, 100.0, true);
}

double long_context_multiplier(const std::string& method, int seq_len, int train_len, const LongContextOptions& o) {
  const double s = static_cast<double>(seq_len) / train_len;
  if (method == "fixed") return 1.0;
  if (method == "logn") return std::max(1.0, std::log(double(seq_len)) / std::log(double(train_len)));
  if (method == "yarn") return s > 1.0 ? yarn_multiplier(s, o.mscale, o.mscale_all_dim) : 1.0;
  if (method == "article") return std::sqrt(s);
  if (method == "llama4") return llama4_temperature(seq_len, o.floor_scale, o.attn_scale);
  if (method == "ssmax") return ssmax_multiplier(seq_len, o.ssmax_s);
  throw std::invalid_argument("method = '" + method +
                              "' is not one of 'fixed', 'logn', 'yarn', 'article', 'llama4', 'ssmax'");
}

namespace {
// long_context's keys, K [lmax, d_k] of stream 2: the page asks the same (seed, lmax, d_k) for each
// L_train (and the interview once per method), so the last draw is kept (at most kMaxKeptKeys
// floats) and reused. A stream's first n draws do not depend on how many follow, so the kept
// draw's first n values are exactly draw_tensor(seed, 2, n): the result is bit for bit the same,
// the normals are drawn once. Returns at least n values (the caller reads the first n).
constexpr size_t kMaxKeptKeys = size_t{16} << 20;  // 64 MiB of floats
const std::vector<float>& long_context_keys(uint32_t seed, size_t n) {
  static uint32_t kept_seed = 0;
  static std::vector<float> kept;
  static std::vector<float> fresh;
  if (n > kMaxKeptKeys) {
    fresh = draw_tensor(seed, 2, n, 1.0);
    return fresh;
  }
  if (kept_seed != seed || kept.size() < n) {
    kept = draw_tensor(seed, 2, std::max(n, kept_seed == seed ? kept.size() : size_t{0}), 1.0);
    kept_seed = seed;
  }
  return kept;  // at least n values; the caller reads the first n
}

// long_context's products q_i·k_j [queries, keys] with factor 1, for the first `queries` queries of
// Q [queries, d_k] (stream 1) and the first `keys` keys of K: every method and length of a call reads
// them (the logits of a method at length L are c · (q_i·k_j), j < L, c = multiplier / √d_k: the bits
// of the product formed with factor c, since both kernel families round c · acc once, kernels.hpp),
// and the page asks again with the same seed and d_k (another L_train, another method), so the last
// matrix is kept (at most kMaxKeptProducts floats) for the calls that follow with the same seed, d_k
// and kernel: a kept matrix with at least `keys` columns serves its first `queries` rows (a stream's
// first draws do not depend on how many follow, and a product's bits do not depend on the matrix
// around it); missing rows are added. Returns the matrix and its row stride (≥ keys) through *ld.
constexpr size_t kMaxKeptProducts = size_t{4} << 20;  // 16 MiB of floats
const float* long_context_products(uint32_t seed, int dk, Kernel kernel, const std::vector<float>& Q, int queries,
                                   const float* K, int keys, size_t* ld) {
  struct Kept {
    bool valid = false;
    uint32_t seed = 0;
    int dk = 0;
    Kernel kernel = Kernel::Scalar;
    int rows = 0, cols = 0;
    std::vector<float> s;
  };
  static Kept kept;
  static std::vector<float> fresh;
  const KernelTable& kt = kernel_table(kernel);
  const bool same = kept.valid && kept.seed == seed && kept.dk == dk && kept.kernel == kernel;
  if (same && kept.cols >= keys && kept.rows >= queries) {
    *ld = static_cast<size_t>(kept.cols);
    return kept.s.data();
  }
  if (static_cast<size_t>(queries) * keys > kMaxKeptProducts) {  // too large to keep: this call's own
    kept.valid = false;
    kept.s = {};
    fresh.resize(static_cast<size_t>(queries) * keys);
    kt.matmul_abt(Q.data(), K, fresh.data(), queries, keys, dk, 1.0f);
    *ld = static_cast<size_t>(keys);
    return fresh.data();
  }
  fresh = {};
  if (same && kept.cols >= keys) {  // the kept keys, more queries: only the new rows' products
    const size_t cols = static_cast<size_t>(kept.cols);
    if (static_cast<size_t>(queries) * cols <= kMaxKeptProducts) {
      kept.s.resize(static_cast<size_t>(queries) * cols);
      kt.matmul_abt(Q.data() + static_cast<size_t>(kept.rows) * dk, K, kept.s.data() + kept.rows * cols,
                    queries - kept.rows, kept.cols, dk, 1.0f);
      kept.rows = queries;
      *ld = cols;
      return kept.s.data();
    }
  }
  kept.valid = false;  // stays so if the product below throws
  kept.s.resize(static_cast<size_t>(queries) * keys);
  kt.matmul_abt(Q.data(), K, kept.s.data(), queries, keys, dk, 1.0f);
  kept.seed = seed;
  kept.dk = dk;
  kept.kernel = kernel;
  kept.rows = queries;
  kept.cols = keys;
  kept.valid = true;
  *ld = static_cast<size_t>(keys);
  return kept.s.data();
}
}  // namespace

LongContextResult long_context(const LongContextParams& p) {
  constexpr const char* what = "longContext";
  check_int_range(what, "dk", p.dk, 1, kMaxDk);
  check_int_range(what, "trainLen", p.train_len, 2, 16384);
  check_int_range(what, "queries", p.queries, 1, 1024);
  if (p.seq_lens.empty()) throw std::invalid_argument("longContext: seqLens is empty; give at least one length");
  check_int_range(what, "seqLens.length", static_cast<long long>(p.seq_lens.size()), 1, 16);
  if (p.methods.empty()) throw std::invalid_argument("longContext: methods is empty; give at least one method");
  check_long_context_options(what, p.options);
  if (!std::isnan(p.sink) && p.sink != -std::numeric_limits<double>::infinity() &&
      !(std::isfinite(p.sink) && std::fabs(p.sink) <= kMaxSink))
    throw std::invalid_argument("longContext: sink = " + format_number(p.sink) +
                                " must be a finite number of magnitude ≤ 1e6, or -inf (no sink)");
  for (const auto& m : p.methods) {
    try {
      long_context_multiplier(m, 2, 2);  // validates the name
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("longContext: ") + e.what());
    }
  }
  // each method once: a repeated one would be computed twice and drawn as one curve
  for (size_t i = 1; i < p.methods.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (p.methods[i] == p.methods[j])
        throw std::invalid_argument("longContext: methods[" + std::to_string(i) + "] = '" + p.methods[i] +
                                    "' repeats methods[" + std::to_string(j) + "]; give each method at most once");
  // each length once: a repeated one would be computed twice and drawn as one point
  for (size_t i = 1; i < p.seq_lens.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (p.seq_lens[i] == p.seq_lens[j])
        throw std::invalid_argument("longContext: seqLens[" + std::to_string(i) + "] = " + std::to_string(p.seq_lens[i]) +
                                    " repeats seqLens[" + std::to_string(j) + "]; give each length at most once");
  int lmax = 0;
  double sum_l = 0.0;
  for (int L : p.seq_lens) {
    check_int_range(what, "seqLen", L, 1, 16384);
    lmax = std::max(lmax, L);
    sum_l += L;
  }
  // K [lmax, d_k], Q [queries, d_k], the products [queries, lmax] and the logits of one (method, L)
  // [queries, L ≤ lmax], the sink weights [queries]
  check_work_bytes(what, 4.0 * (double(lmax) + p.queries) * p.dk + 8.0 * p.queries * double(lmax) + 4.0 * p.queries,
                   "seqLens = " + std::to_string(lmax) + " at most, queries = " + std::to_string(p.queries) + ", dk = " + std::to_string(p.dk));
  {
    const double M = static_cast<double>(p.methods.size());
    const std::string drivers = "seqLens = " + format_number(sum_l) + " in sum, queries = " + std::to_string(p.queries) +
                                ", methods.length = " + std::to_string(p.methods.size());
    // the products once for every method and length: queries · max(seqLens) · d_k
    check_cost(what, {{double(p.queries) * lmax * p.dk * ns_per_mac(p.kernel),
                       "seqLens = " + std::to_string(lmax) + " at most, queries = " + std::to_string(p.queries) +
                           ", dk = " + std::to_string(p.dk),
                       "the products queries · max(seqLens) · dk"},
                      {M * p.queries * sum_l * long_weight_ns(p.kernel, std::isfinite(p.sink)), drivers,
                       "the softmax and row statistics of methods · queries · Σ seqLens weights"},
                      // K is kept for the next call with the same seed (long_context_keys): a bound
                      {draws_ns((double(lmax) + p.queries) * p.dk),
                       "seqLens = " + std::to_string(lmax) + " at most, dk = " + std::to_string(p.dk),
                       "drawing the keys max(seqLens) · dk"}});
  }
  const KernelTable& kt = kernel_table(p.kernel);
  const std::vector<float>& K = long_context_keys(p.seed, static_cast<size_t>(lmax) * p.dk);
  const std::vector<float> Q = draw_tensor(p.seed, 1, static_cast<size_t>(p.queries) * p.dk, 1.0);
  size_t ld = 0;
  const float* QK = long_context_products(p.seed, p.dk, p.kernel, Q, p.queries, K.data(), lmax, &ld);
  LongContextResult r;
  std::vector<float> S;
  std::vector<float> row;  // a row and its sink weight
  const bool has_sink = !std::isnan(p.sink);  // NaN: none
  const bool sink_on = has_sink && p.sink != -std::numeric_limits<double>::infinity();
  std::vector<float> sinkw(has_sink ? p.queries : 0);
  for (const auto& method : p.methods) {
    std::vector<LongContextPoint> pts;
    for (int L : p.seq_lens) {
      LongContextPoint pt;
      pt.seq_len = L;
      pt.multiplier = long_context_multiplier(method, L, p.train_len, p.options);
      S.resize(static_cast<size_t>(p.queries) * L);
      row.resize(L + 1);
      const float c = static_cast<float>(pt.multiplier / std::sqrt(double(p.dk)));
      for (int i = 0; i < p.queries; ++i)  // the logits c · q·k of the first L keys
        scale_products(QK + static_cast<size_t>(i) * ld, c, S.data() + static_cast<size_t>(i) * L, L);
      if (has_sink)
        kt.softmax_rows_sink(S.data(), p.queries, L, static_cast<float>(p.sink), sinkw.data());
      else
        kt.softmax_rows(S.data(), p.queries, L);
      for (int i = 0; i < p.queries; ++i) {
        const float* srow = S.data() + static_cast<size_t>(i) * L;
        if (sink_on) {  // the sink is one more outcome of the row
          std::copy_n(srow, L, row.data());
          row[L] = sinkw[i];
          srow = row.data();
        }
        // the point shows entropy and max weight only: no Jacobian norms
        RowStats rs = f32_row_stats(srow, sink_on ? L + 1 : L, kRowEntropy);
        if (sink_on) rs.max_weight = *std::max_element(srow, srow + L);  // over the keys
        pt.entropy += rs.entropy / p.queries;
        pt.max_weight += rs.max_weight / p.queries;
        if (has_sink) pt.sink_mass += sinkw[i] / p.queries;
      }
      const int outcomes = sink_on ? L + 1 : L;
      pt.entropy_ratio = outcomes > 1 ? pt.entropy / std::log(double(outcomes)) : 0.0;
      pts.push_back(pt);
    }
    r.points.push_back(std::move(pts));
  }
  return r;
}

}  // namespace sqrtdk
