// longContext and the long-context temperatures (long_context.hpp).
#include "long_context.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "core_caches.hpp"
#include "cost.hpp"
#include "experiment_common.hpp"
#include "rng.hpp"
#include "shapes.hpp"
#include "logit_options.hpp"
#include "stats.hpp"

namespace sqrtdk {

using namespace detail;

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
// L_train (and the interview once per method), so the last draw is kept (at most cache::kMaxKeptKeys
// floats) and reused. A stream's first n draws do not depend on how many follow, so the kept
// draw's first n values are exactly draw_tensor(seed, 2, n): the result is bit for bit the same,
// the normals are drawn once. Returns at least n values (the caller reads the first n).
const std::vector<float>& long_context_keys(uint32_t seed, size_t n) {
  cache::LongContextKeys& c = cache::long_context_keys();
  if (n > cache::kMaxKeptKeys) {
    c.fresh = draw_tensor(seed, 2, n, 1.0);
    return c.fresh;
  }
  if (c.seed != seed || c.kept.size() < n) {
    c.kept = draw_tensor(seed, 2, std::max(n, c.seed == seed ? c.kept.size() : size_t{0}), 1.0);
    c.seed = seed;
  }
  return c.kept;  // at least n values; the caller reads the first n
}

// long_context's products q_i·k_j [queries, keys] with factor 1, for the first `queries` queries of
// Q [queries, d_k] (stream 1) and the first `keys` keys of K: every method and length of a call reads
// them (the logits of a method at length L are c · (q_i·k_j), j < L, c = multiplier / √d_k: the bits
// of the product formed with factor c, since both kernel families round c · acc once, kernels.hpp),
// and the page asks again with the same seed and d_k (another L_train, another method), so the last
// matrix is kept (at most cache::kMaxKeptProducts floats) for the calls that follow with the same seed, d_k
// and kernel: a kept matrix with at least `keys` columns serves its first `queries` rows (a stream's
// first draws do not depend on how many follow, and a product's bits do not depend on the matrix
// around it); missing rows are added. Returns the matrix and its row stride (≥ keys) through *ld.
const float* long_context_products(uint32_t seed, int dk, Kernel kernel, const std::vector<float>& Q, int queries,
                                   const float* K, int keys, size_t* ld) {
  cache::LongContextProducts& kept = cache::long_context_products();
  std::vector<float>& fresh = kept.fresh;
  const KernelTable& kt = kernel_table(kernel);
  const bool same = kept.valid && kept.seed == seed && kept.dk == dk && kept.kernel == kernel;
  if (same && kept.cols >= keys && kept.rows >= queries) {
    *ld = static_cast<size_t>(kept.cols);
    return kept.s.data();
  }
  if (static_cast<size_t>(queries) * keys > cache::kMaxKeptProducts) {  // too large to keep: this call's own
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
    if (static_cast<size_t>(queries) * cols <= cache::kMaxKeptProducts) {
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
