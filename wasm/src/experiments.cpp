#include "experiments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "rng.hpp"

namespace sqrtdk {

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

void check_threshold(const char* what, double t) {
  if (!(t > 0.0 && t < 1.0))
    throw std::invalid_argument(std::string(what) + ": threshold = " + format_number(t) + " must lie in (0, 1)");
}

// Draws `samples` scores q·k (components N(0, σ²), in double) for one d_k from stream (seed, dk).
std::vector<double> draw_scores(uint32_t seed, int dk, int samples, double sigma) {
  Rng rng = Rng::stream(seed, static_cast<uint64_t>(dk));
  std::vector<double> q(static_cast<size_t>(dk));
  std::vector<double> scores(static_cast<size_t>(samples));
  for (int s = 0; s < samples; ++s) {
    for (int i = 0; i < dk; ++i) q[i] = sigma * rng.normal();
    double dot = 0.0;
    for (int i = 0; i < dk; ++i) dot += q[i] * (sigma * rng.normal());
    scores[s] = dot;
  }
  return scores;
}

Moments scaled(const Moments& m, double c) { return Moments{m.mean * c, m.variance * c * c, m.std * c}; }
Moments normal_moments(double variance) { return Moments{0.0, variance, std::sqrt(variance)}; }

std::vector<float> draw_tensor(uint32_t seed, uint64_t stream, size_t n, double sigma) {
  Rng rng = Rng::stream(seed, stream);
  std::vector<float> t(n);
  for (auto& x : t) x = static_cast<float>(sigma * rng.normal());
  return t;
}

struct Inputs {
  std::vector<float> q, k, v, dout;  // [heads, seq_len, dk]
};
Inputs draw_inputs(uint32_t seed, int heads, int seq_len, int dk, double variance) {
  const size_t n = static_cast<size_t>(heads) * seq_len * dk;
  const double sigma = std::sqrt(variance);
  return Inputs{draw_tensor(seed, 1, n, sigma), draw_tensor(seed, 2, n, sigma), draw_tensor(seed, 3, n, sigma),
                draw_tensor(seed, 4, n, sigma)};
}

// Bytes and multiply-adds of one analyse() pass, for the work limits.
double analyse_bytes(int heads, int seq_len, int dk) {
  const double L = seq_len;
  return 4.0 * 4.0 * heads * L * dk      // Q, K, V, dO
         + 3.0 * 4.0 * L * L             // S/P, dP, dS of one head
         + 2.0 * 4.0 * L * dk            // dQ, packing scratch
         + 7.0 * 8.0 * heads * L * 2.0;  // per-row quantities and their summaries
}
double analyse_macs(int heads, int seq_len, int dk) { return 3.0 * heads * double(seq_len) * seq_len * dk; }

struct PerRow {
  std::vector<double> entropy, max_weight, eff_support, jac_fro, jac_spec, grad_logits, grad_query;
  void reserve(size_t n) {
    for (auto* v : {&entropy, &max_weight, &eff_support, &jac_fro, &jac_spec, &grad_logits, &grad_query}) v->reserve(n);
  }
};

// The forward and backward pass of every head and the per-row quantities (see attention_stats).
AttentionSummary analyse(const Inputs& in, int heads, int seq_len, int dk, double c, double threshold,
                         Kernel kernel, PerRow& rows, int heatmap_n, std::vector<float>* heatmap) {
  const KernelTable& kt = kernel_table(kernel);
  const size_t L = static_cast<size_t>(seq_len);
  const size_t head = L * dk;
  std::vector<float> P(L * L), dP(L * L), dS(L * L), dQ(head);
  std::vector<double> p(L), g(L), js(L);
  rows.reserve(static_cast<size_t>(heads) * L);
  AttentionSummary sum;
  sum.scale = c;
  double above = 0.0;
  for (int h = 0; h < heads; ++h) {
    const float* Q = in.q.data() + h * head;
    const float* K = in.k.data() + h * head;
    const float* V = in.v.data() + h * head;
    const float* dO = in.dout.data() + h * head;
    kt.matmul_abt(Q, K, P.data(), seq_len, seq_len, dk, static_cast<float>(c));  // logits
    for (float s : P) sum.max_abs_logit = std::max(sum.max_abs_logit, static_cast<double>(std::fabs(s)));
    kt.softmax_rows(P.data(), seq_len, seq_len);                                  // attention weights
    if (h == 0 && heatmap != nullptr) {
      heatmap->resize(static_cast<size_t>(heatmap_n) * heatmap_n);
      for (int i = 0; i < heatmap_n; ++i)
        std::copy_n(P.data() + i * L, heatmap_n, heatmap->data() + static_cast<size_t>(i) * heatmap_n);
    }
    kt.matmul_abt(dO, V, dP.data(), seq_len, seq_len, dk, 1.0f);  // dP = dO Vᵀ
    for (size_t i = 0; i < L; ++i) {
      for (size_t j = 0; j < L; ++j) {
        p[j] = P[i * L + j];
        g[j] = dP[i * L + j];
      }
      const RowStats rs = row_stats(p.data(), seq_len);
      softmax_jacobian_vector(p.data(), g.data(), js.data(), seq_len);  // dS_i = J_i dP_i
      double n2 = 0.0;
      for (size_t j = 0; j < L; ++j) {
        dS[i * L + j] = static_cast<float>(js[j]);
        n2 += js[j] * js[j];
      }
      rows.entropy.push_back(rs.entropy);
      rows.max_weight.push_back(rs.max_weight);
      rows.eff_support.push_back(rs.eff_support);
      rows.jac_fro.push_back(rs.jac_fro);
      rows.jac_spec.push_back(rs.jac_spec);
      rows.grad_logits.push_back(std::sqrt(n2));
      above += rs.max_weight > threshold ? 1.0 : 0.0;
    }
    kt.matmul_ab(dS.data(), K, dQ.data(), seq_len, dk, seq_len, static_cast<float>(c));  // dQ = c · dS K
    for (size_t i = 0; i < L; ++i) {
      double n2 = 0.0;
      for (int d = 0; d < dk; ++d) n2 += double(dQ[i * dk + d]) * dQ[i * dk + d];
      rows.grad_query.push_back(std::sqrt(n2));
    }
  }
  sum.entropy = summarize(rows.entropy);
  sum.max_weight = summarize(rows.max_weight);
  sum.eff_support = summarize(rows.eff_support);
  sum.jac_fro = summarize(rows.jac_fro);
  sum.jac_spec = summarize(rows.jac_spec);
  sum.grad_logits = summarize(rows.grad_logits);
  sum.grad_query = summarize(rows.grad_query);
  sum.share_above = above / static_cast<double>(rows.entropy.size());
  return sum;
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
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument("scale = " + format_number(value) + " must be a positive finite number");
  return Scale{Scale::Kind::Value, value};
}

std::string scale_name(const Scale& s) {
  switch (s.kind) {
    case Scale::Kind::None: return "none";
    case Scale::Kind::InvSqrtDk: return "inv_sqrt_dk";
    case Scale::Kind::InvDk: return "inv_dk";
    case Scale::Kind::InvSqrtDModel: return "inv_sqrt_d_model";
    case Scale::Kind::Value: return format_number(s.value);
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
  double normals = 2.0 * p.samples * p.hist_dk;
  for (int dk : p.dks) normals += 2.0 * p.samples * dk;
  check_work_macs(what, normals * 4.0);  // a normal costs about as much as four multiply-adds
  check_work_bytes(what, 3.0 * 8.0 * p.samples);

  const double sigma = std::sqrt(p.variance);
  const double s4 = p.variance * p.variance;
  ScoreVarianceResult r;
  std::vector<double> hist_scores;
  for (int dk : p.dks) {
    std::vector<double> scores = draw_scores(p.seed, dk, p.samples, sigma);
    MomentAccumulator acc;
    for (double s : scores) acc.add(s);
    ScoreVarianceRow row;
    row.dk = dk;
    row.raw = acc.moments();
    row.inv_sqrt_dk = scaled(row.raw, 1.0 / std::sqrt(double(dk)));
    row.inv_dk = scaled(row.raw, 1.0 / double(dk));
    row.theory_raw = normal_moments(dk * s4);
    row.theory_inv_sqrt_dk = normal_moments(s4);
    row.theory_inv_dk = normal_moments(s4 / dk);
    r.rows.push_back(row);
    if (dk == p.hist_dk && hist_scores.empty()) hist_scores = std::move(scores);
  }
  if (hist_scores.empty()) hist_scores = draw_scores(p.seed, p.hist_dk, p.samples, sigma);
  r.hist_dk = p.hist_dk;
  const double sd = std::sqrt(p.hist_dk * s4);
  r.hist_raw = histogram(hist_scores, uniform_edges(-5.0 * sd, 5.0 * sd, p.bins));
  const double c = 1.0 / std::sqrt(double(p.hist_dk));
  for (double& s : hist_scores) s *= c;
  r.hist_inv_sqrt_dk = histogram(hist_scores, uniform_edges(-5.0 * sd * c, 5.0 * sd * c, p.bins));
  return r;
}

AttentionStatsResult attention_stats(const AttentionStatsParams& p) {
  constexpr const char* what = "attentionStats";
  check_int_range(what, "heads", p.heads, 1, kMaxHeads);
  check_int_range(what, "seqLen", p.seq_len, 1, kMaxSeqLen);
  check_int_range(what, "dk", p.dk, 1, kMaxDk);
  check_int_range(what, "heatmapSize", p.heatmap_size, 1, 512);
  check_variance(what, p.variance);
  check_threshold(what, p.threshold);
  const double c = resolve_scale(p.scale, p.dk, p.heads);
  kernel_table(p.kernel);  // throws if the family is not in this build
  check_work_bytes(what, analyse_bytes(p.heads, p.seq_len, p.dk));
  check_work_macs(what, analyse_macs(p.heads, p.seq_len, p.dk));

  const Inputs in = draw_inputs(p.seed, p.heads, p.seq_len, p.dk, p.variance);
  AttentionStatsResult r;
  r.log_seq_len = std::log(static_cast<double>(p.seq_len));
  r.heatmap_size = std::min(p.seq_len, p.heatmap_size);
  PerRow rows;
  r.summary = analyse(in, p.heads, p.seq_len, p.dk, c, p.threshold, p.kernel, rows, r.heatmap_size, &r.heatmap);
  if (p.per_row) {
    r.entropy = std::move(rows.entropy);
    r.max_weight = std::move(rows.max_weight);
    r.eff_support = std::move(rows.eff_support);
    r.jac_fro = std::move(rows.jac_fro);
    r.jac_spec = std::move(rows.jac_spec);
    r.grad_logits = std::move(rows.grad_logits);
    r.grad_query = std::move(rows.grad_query);
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
  kernel_table(p.kernel);
  double macs = 0.0, bytes = 0.0;
  for (int dk : p.dks) {
    macs += p.scales.size() * analyse_macs(p.heads, p.seq_len, dk);
    bytes = std::max(bytes, analyse_bytes(p.heads, p.seq_len, dk));
  }
  check_work_bytes(what, bytes);
  check_work_macs(what, macs);

  SaturationSweepResult r;
  r.log_seq_len = std::log(static_cast<double>(p.seq_len));
  r.points.assign(p.scales.size(), std::vector<AttentionSummary>(p.dks.size()));
  for (size_t d = 0; d < p.dks.size(); ++d) {
    const int dk = p.dks[d];
    const Inputs in = draw_inputs(p.seed, p.heads, p.seq_len, dk, p.variance);
    for (size_t s = 0; s < p.scales.size(); ++s) {
      PerRow rows;
      r.points[s][d] = analyse(in, p.heads, p.seq_len, dk, resolve_scale(p.scales[s], dk, p.heads), p.threshold,
                               p.kernel, rows, 0, nullptr);
    }
  }
  return r;
}

SoftmaxJacobianResult softmax_jacobian(std::span<const double> logits) {
  const long long n = static_cast<long long>(logits.size());
  check_int_range("softmaxJacobian", "logits.length", n, 1, 4096);
  for (long long i = 0; i < n; ++i) {
    const double x = logits[i];
    if (std::isnan(x) || x == std::numeric_limits<double>::infinity())
      throw std::invalid_argument("softmaxJacobian: logits[" + std::to_string(i) + "] = " + format_number(x) +
                                  " is not allowed (finite numbers, or -inf for a masked key)");
  }
  SoftmaxJacobianResult r;
  r.probs.resize(n);
  f64_softmax__reference(logits.data(), r.probs.data(), static_cast<int>(n));
  const Eigen::MatrixXd J = softmax_jacobian_matrix(r.probs.data(), static_cast<int>(n));
  r.jacobian.resize(static_cast<size_t>(n * n));
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(r.jacobian.data(), n, n) = J;
  const RowStats rs = row_stats(r.probs.data(), static_cast<int>(n));
  r.frobenius = rs.jac_fro;
  r.spectral = rs.jac_spec;
  r.entropy = rs.entropy;
  return r;
}

AttentionResult attention(const AttentionParams& p) {
  constexpr const char* what = "attention";
  check_int_range(what, "heads", p.heads, 1, kMaxHeads);
  check_int_range(what, "seqLen", p.seq_len, 1, kMaxSeqLen);
  check_int_range(what, "dk", p.dk, 1, kMaxDk);
  const size_t n = static_cast<size_t>(p.heads) * p.seq_len * p.dk;
  const double L = p.seq_len;
  check_work_bytes(what, 4.0 * 4.0 * n + 4.0 * L * L * (p.want_weights ? p.heads + 1.0 : 1.0));
  check_work_macs(what, 2.0 * p.heads * L * L * p.dk);
  const std::pair<const char*, std::span<const float>> inputs[] = {{"q", p.q}, {"k", p.k}, {"v", p.v}};
  for (const auto& [name, t] : inputs) {
    if (t.size() != n)
      throw std::invalid_argument(std::string("attention: ") + name + ".length = " + std::to_string(t.size()) +
                                  " does not match heads · seqLen · dk = " + std::to_string(n));
    for (size_t i = 0; i < n; ++i)
      if (!std::isfinite(t[i]))
        throw std::invalid_argument(std::string("attention: ") + name + "[" + std::to_string(i) +
                                    "] = " + format_number(t[i]) + " is not a finite number");
  }
  const KernelTable& kt = kernel_table(p.kernel);
  AttentionResult r;
  r.scale = resolve_scale(p.scale, p.dk, p.heads);
  r.output.resize(n);
  if (p.want_weights) r.weights.resize(static_cast<size_t>(p.heads) * p.seq_len * p.seq_len);
  std::vector<float> scratch(p.want_weights ? 0 : static_cast<size_t>(p.seq_len) * p.seq_len);
  const size_t head = static_cast<size_t>(p.seq_len) * p.dk;
  for (int h = 0; h < p.heads; ++h) {
    float* P = p.want_weights ? r.weights.data() + static_cast<size_t>(h) * p.seq_len * p.seq_len : scratch.data();
    kt.matmul_abt(p.q.data() + h * head, p.k.data() + h * head, P, p.seq_len, p.seq_len, p.dk,
                  static_cast<float>(r.scale));
    kt.softmax_rows(P, p.seq_len, p.seq_len);
    kt.matmul_ab(P, p.v.data() + h * head, r.output.data() + h * head, p.seq_len, p.dk, p.seq_len, 1.0f);
  }
  return r;
}

}  // namespace sqrtdk
