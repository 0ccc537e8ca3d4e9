// attention and softmaxJacobian (attention.hpp): the forward pass on given tensors, the Jacobian of
// explicit logits.
#include "attention.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core_caches.hpp"
#include "cost.hpp"
#include "experiment_common.hpp"
#include "rng.hpp"
#include "shapes.hpp"
#include "stats.hpp"

namespace sqrtdk {

using namespace detail;

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

int resolve_dv(const AttentionParams& p) {
  check_int_range("attention", "dv", p.dv, 0, kMaxDk);
  return p.dv == 0 ? p.dk : p.dv;
}

void check_attention_work(const AttentionParams& p) {
  constexpr const char* what = "attention";
  check_shape(what, p.heads, p.seq_len, p.dk);
  const int heads_kv = resolve_heads_kv(what, p.heads, p.heads_kv);
  const int dv = resolve_dv(p);
  const size_t n = static_cast<size_t>(p.heads) * p.seq_len * p.dk;
  const size_t nkv = static_cast<size_t>(heads_kv) * p.seq_len * p.dk;
  const size_t n_out = static_cast<size_t>(p.heads) * p.seq_len * dv;
  const size_t nkv_v = static_cast<size_t>(heads_kv) * p.seq_len * dv;
  const double L = p.seq_len;
  check_softcap(what, p.softcap);
  check_sinks(what, p.sinks, p.heads);
  check_alibi(what, p.alibi, p.heads);
  if (!p.query_scale.empty()) {
    if (static_cast<long long>(p.query_scale.size()) != p.seq_len)
      throw std::invalid_argument("attention: queryScale.length = " + std::to_string(p.query_scale.size()) +
                                  " does not match seqLen = " + std::to_string(p.seq_len) + " (one multiplier per query row)");
    for (size_t i = 0; i < p.query_scale.size(); ++i)
      if (!(p.query_scale[i] >= 0.0f) || p.query_scale[i] > 1e4f)
        throw std::invalid_argument("attention: queryScale[" + std::to_string(i) + "] = " + format_number(p.query_scale[i]) +
                                    " must be a number in 0..1e4");
  }
  // q, k, v and the output; at dv = dk the very numbers of 4 · (2n + 2nkv) and 2 · heads · L² · dk (integers, exact)
  const double bytes = 4.0 * (double(n) + double(n_out) + double(nkv) + double(nkv_v)) + 4.0 * L * L * (p.want_weights ? p.heads + 2.0 : 2.0);
  const double products_ns = double(p.heads) * L * L * (double(p.dk) + dv) * ns_per_mac(p.kernel);
  const double softmax_ns = p.heads * L * L * cost::kNsPerSoftmaxWeight;
  // Within both budgets and not estimating (core.cost): check_work_bytes and check_cost would pass
  // (the same sums, in the same order), so their messages are not built. At small shapes the strings
  // cost more than the call's products.
  if (recording_estimate() == nullptr && !(bytes > work_limits().bytes) && !(0.0 + products_ns + softmax_ns > work_limits().seconds * 1e9)) return;
  const std::string dims = "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) +
                           ", dk = " + std::to_string(p.dk) + (dv != p.dk ? ", dv = " + std::to_string(dv) : "");
  check_work_bytes(what, bytes, dims);
  check_cost(what, {{products_ns, dims,
                     dv != p.dk ? "the products heads · seqLen² · (dk + dv)" : "the products heads · seqLen² · dk"},
                    {softmax_ns,
                     "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len),
                     "the softmax of " + format_number(p.heads * L * L) + " attention weights"}});
}

namespace {
// Checks attention's parameters (throws std::invalid_argument naming the bad value): the shape and
// budgets first (check_attention_work), then the tensors; returns the output size heads · seq_len · dv.
size_t check_attention(const AttentionParams& p) {
  constexpr const char* what = "attention";
  check_attention_work(p);
  const int heads_kv = resolve_heads_kv(what, p.heads, p.heads_kv);
  const int dv = resolve_dv(p);
  const size_t n = static_cast<size_t>(p.heads) * p.seq_len * p.dk;
  const size_t nkv = static_cast<size_t>(heads_kv) * p.seq_len * p.dk;
  check_tensor(what, "q", p.q, n, "heads · seqLen · dk");
  check_tensor(what, "k", p.k, nkv, "headsKv · seqLen · dk");
  check_tensor(what, "v", p.v, static_cast<size_t>(heads_kv) * p.seq_len * dv, p.dv == 0 ? "headsKv · seqLen · dk" : "headsKv · seqLen · dv");
  const size_t LL = static_cast<size_t>(p.seq_len) * p.seq_len;
  if (!p.mask.empty()) {
    if (p.mask.size() != LL && p.mask.size() != LL * static_cast<size_t>(p.heads))
      throw std::invalid_argument("attention: mask.length = " + std::to_string(p.mask.size()) +
                                  " matches neither seqLen · seqLen = " + std::to_string(LL) +
                                  " (one mask for every head) nor heads · seqLen · seqLen = " +
                                  std::to_string(LL * static_cast<size_t>(p.heads)) + " (one per head)");
    for (size_t i = 0; i < p.mask.size(); ++i)
      if (std::isnan(p.mask[i]) || p.mask[i] == std::numeric_limits<float>::infinity())
        throw std::invalid_argument("attention: mask[" + std::to_string(i) + "] = " + format_number(p.mask[i]) +
                                    " is not allowed (0, -inf or a finite number)");
  }
  kernel_table(p.kernel);  // throws for a family this build lacks
  return static_cast<size_t>(p.heads) * p.seq_len * dv;
}

// The forward pass of checked parameters into output [heads, seq_len, dv] and, when
// p.want_weights, weights [heads, seq_len, seq_len], and with sinks sink_weights [heads, seq_len];
// returns the scale factor.
double run_attention(const AttentionParams& p, float* output, float* weights, float* sink_weights, float* lse) {
  const int heads_kv = p.heads_kv == 0 ? p.heads : p.heads_kv;
  const size_t LL = static_cast<size_t>(p.seq_len) * p.seq_len;
  const KernelTable& kt = kernel_table(p.kernel);
  const double scale = resolve_scale(p.scale, p.dk, p.heads);
  // Without soft-capping or masks every logit is finite (entries ≤ 1e6, scale ≤ 1e4) and no row
  // can be fully masked: the per-logit pass below would change nothing, so it is skipped.
  const bool logit_pass = p.softcap > 0.0 || !p.mask.empty() || p.causal || !p.alibi.empty() || !p.query_scale.empty();
  const bool mask_per_head = p.mask.size() > LL;
  constexpr double kNegInfD = -std::numeric_limits<double>::infinity();
  // The weights of one head when the caller does not want them all: kept between calls and not
  // zero-filled (every entry is written by the product before it is read).
  const int dv = p.dv == 0 ? p.dk : p.dv;
  // The family's fused head (products, softmax and P·V in one, the scores kept in cache) computes the
  // same numbers when nothing needs the logits or the weights; every other head goes through P.
  const bool fused = !logit_pass && !p.want_weights && kt.attention_head && p.sinks.empty() && dv == p.dk && !p.want_lse;
  cache::HeadScratch& scratch = cache::attention_head_scratch();
  if (!p.want_weights && !fused) scratch.reserve(LL);
  std::vector<char> dead(static_cast<size_t>(p.seq_len));  // rows with every key masked
  const size_t head = static_cast<size_t>(p.seq_len) * p.dk;
  const size_t head_v = static_cast<size_t>(p.seq_len) * dv;
  const int group = p.heads / heads_kv;
  const size_t Lz = static_cast<size_t>(p.seq_len);
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  for (int h = 0; h < p.heads; ++h) {
    const size_t kv = static_cast<size_t>(h / group) * head;  // K/V head shared by `group` query heads
    const size_t kv_v = static_cast<size_t>(h / group) * head_v;
    if (fused) {
      // the query heads of one K/V group follow each other: K and V are packed for the first only
      const bool same_kv = h % group != 0;
      kt.attention_head(p.q.data() + h * head, p.k.data() + kv, p.v.data() + kv, output + h * head, p.seq_len, p.dk,
                        static_cast<float>(scale), same_kv);
      continue;
    }
    float* P = p.want_weights ? weights + static_cast<size_t>(h) * LL : scratch.data();
    kt.matmul_abt(p.q.data() + h * head, p.k.data() + kv, P, p.seq_len, p.seq_len, p.dk, static_cast<float>(scale));
    const float* mask = p.mask.empty() ? nullptr : p.mask.data() + (mask_per_head ? static_cast<size_t>(h) * LL : 0);
    const double slope = p.alibi.empty() ? 0.0 : static_cast<double>(p.alibi[h]);
    for (size_t i = 0; logit_pass && i < Lz; ++i) {
      bool all_masked = true;
      for (size_t j = 0; j < Lz; ++j) {
        float& s = P[i * Lz + j];
        if (!p.query_scale.empty()) s *= p.query_scale[i];  // t_i · (c · q_i·k_j), rounded to float32
        if (p.softcap > 0.0) s = static_cast<float>(softcap_logit(s, p.softcap));
        if (!p.alibi.empty()) {  // ALiBi: −m_h · (i − j) in float32, joined to the mask entry before it is added
          const float bias = static_cast<float>(-slope * (static_cast<double>(i) - static_cast<double>(j)));
          s += mask != nullptr ? mask[i * Lz + j] + bias : bias;
        } else if (mask != nullptr) {
          s += mask[i * Lz + j];
        }
        if (p.causal && j > i) s = kNegInf;
        all_masked = all_masked && s == kNegInf;
      }
      dead[i] = all_masked;
    }
    const bool sink_on = !p.sinks.empty() && p.sinks[h] != -std::numeric_limits<double>::infinity();
    if (p.want_lse)  // ln(e^{S_h} + Σ_j e^{s_j}) in double from the float32 logits, before the softmax overwrites them
      for (size_t i = 0; i < Lz; ++i) {
        const float* row = P + i * Lz;
        const double sink = sink_on ? static_cast<double>(static_cast<float>(p.sinks[h])) : kNegInfD;
        double m = sink;
        for (size_t j = 0; j < Lz; ++j) m = std::max(m, static_cast<double>(row[j]));
        double sum = sink_on ? std::exp(sink - m) : 0.0;
        if (m != kNegInfD)
          for (size_t j = 0; j < Lz; ++j) sum += std::exp(static_cast<double>(row[j]) - m);  // e^{−∞} = 0
        lse[static_cast<size_t>(h) * Lz + i] = m == kNegInfD ? -std::numeric_limits<float>::infinity()
                                                              : static_cast<float>(m + std::log(sum));
      }
    if (!p.sinks.empty())  // a fully masked row comes out all zeros, the sink taking its mass
      kt.softmax_rows_sink(P, p.seq_len, p.seq_len, static_cast<float>(p.sinks[h]), sink_weights + h * Lz);
    else
      kt.softmax_rows(P, p.seq_len, p.seq_len);  // a fully masked row comes out all zeros
    if (p.masked_row == MaskedRow::Nan && !sink_on)
      for (size_t i = 0; i < Lz; ++i)
        if (dead[i]) std::fill_n(P + i * Lz, Lz, std::numeric_limits<float>::quiet_NaN());
    kt.matmul_ab(P, p.v.data() + kv_v, output + h * head_v, p.seq_len, dv, p.seq_len, 1.0f);
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
  if (p.want_lse) r.lse.resize(static_cast<size_t>(p.heads) * p.seq_len);
  r.scale = run_attention(p, r.output.data(), r.weights.data(), r.sink_weights.data(), r.lse.data());
  return r;
}

double attention_into(const AttentionParams& p, std::span<float> output, std::span<float> weights,
                      std::span<float> sink_weights, std::span<float> lse) {
  const size_t n = check_attention(p);
  const size_t nw = p.want_weights ? static_cast<size_t>(p.heads) * p.seq_len * p.seq_len : 0;
  const size_t ns = p.sinks.empty() ? 0 : static_cast<size_t>(p.heads) * p.seq_len;
  const size_t nl = p.want_lse ? static_cast<size_t>(p.heads) * p.seq_len : 0;
  if (lse.size() != nl)
    throw std::invalid_argument("attention: an lse buffer of " + std::to_string(lse.size()) + " floats does not match " +
                                std::to_string(nl));
  if (output.size() != n || weights.size() != nw || sink_weights.size() != ns)
    throw std::invalid_argument("attention: output buffers of " + std::to_string(output.size()) + ", " +
                                std::to_string(weights.size()) + " and " + std::to_string(sink_weights.size()) +
                                " floats do not match " + std::to_string(n) + ", " + std::to_string(nw) + " and " +
                                std::to_string(ns));
  return run_attention(p, output.data(), weights.data(), sink_weights.data(), lse.data());
}

MergeAttentionResult merge_attention(const MergeAttentionParams& p) {
  constexpr const char* what = "mergeAttention";
  check_int_range(what, "heads", p.heads, 1, kMaxHeads);
  check_int_range(what, "seqLen", p.seq_len, 1, kMaxSeqLen);
  check_int_range(what, "dv", p.dv, 1, kMaxDk);
  const size_t rows = static_cast<size_t>(p.heads) * p.seq_len, n = rows * p.dv;
  check_work_bytes(what, 4.0 * (3.0 * double(n) + 3.0 * double(rows)),
                   "heads = " + std::to_string(p.heads) + ", seqLen = " + std::to_string(p.seq_len) + ", dv = " + std::to_string(p.dv));
  check_tensor(what, "a.output", p.output_a, n, "heads · seqLen · dv");
  check_tensor(what, "b.output", p.output_b, n, "heads · seqLen · dv");
  for (const auto& [name, l] : {std::pair{"a.lse", p.lse_a}, std::pair{"b.lse", p.lse_b}}) {
    if (l.size() != rows)
      throw std::invalid_argument(std::string(what) + ": " + name + ".length = " + std::to_string(l.size()) +
                                  " does not match heads · seqLen = " + std::to_string(rows));
    for (size_t i = 0; i < rows; ++i)
      if (std::isnan(l[i]) || l[i] == std::numeric_limits<float>::infinity())
        throw std::invalid_argument(std::string(what) + ": " + name + "[" + std::to_string(i) + "] = " + format_number(l[i]) +
                                    " is not allowed (a finite log-sum-exp in nats, or -inf for an empty chunk)");
  }
  MergeAttentionResult r;
  r.output.assign(n, 0.0f);
  r.lse.assign(rows, -std::numeric_limits<float>::infinity());
  for (size_t i = 0; i < rows; ++i) {
    const double la = p.lse_a[i], lb = p.lse_b[i], m = std::max(la, lb);
    if (m == -std::numeric_limits<double>::infinity()) continue;  // both chunks empty: (0, −∞)
    const double wa = std::exp(la - m), wb = std::exp(lb - m), s = wa + wb;  // e^{−∞} = 0: an empty chunk adds nothing
    for (size_t d = 0; d < static_cast<size_t>(p.dv); ++d)
      r.output[i * p.dv + d] = static_cast<float>((wa * p.output_a[i * p.dv + d] + wb * p.output_b[i * p.dv + d]) / s);
    r.lse[i] = static_cast<float>(m + std::log(s));
  }
  return r;
}

double mean_sink_mass(std::span<const float> sink_weights) {
  double sum = 0.0;
  for (float w : sink_weights) sum += w;
  return sink_weights.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(sink_weights.size());
}

}  // namespace sqrtdk
