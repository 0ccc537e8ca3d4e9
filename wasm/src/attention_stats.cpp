// attentionStats, saturationSweep and tensorStats (attention_stats.hpp): the draws of Q, K, V, dO
// and the per-row analysis of a head's weights that the three share.
#include "attention_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "cost.hpp"
#include "experiment_common.hpp"
#include "rng.hpp"
#include "shapes.hpp"

namespace sqrtdk {

using namespace detail;

namespace {

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

}  // namespace

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

}  // namespace sqrtdk
