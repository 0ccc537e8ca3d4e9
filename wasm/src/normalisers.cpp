// normalisers (normalisers.hpp): six ways to turn a row of logits into attention weights, on the same draws, in float32 and in double.
#include "normalisers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "experiment_common.hpp"
#include "kernel_path.hpp"
#include "shapes.hpp"

namespace sqrtdk {

using namespace detail;

namespace {

constexpr const char* kNames[kNormaliserCount] = {"softmax", "offByOne", "sink", "sigmoid", "gated", "differential"};
enum Which { kSoftmax = 0, kOffByOne, kSink, kSigmoid, kGated, kDifferential };
constexpr double kInf = std::numeric_limits<double>::infinity();

void check_params(const NormalisersParams& p) {
  const char* what = "normalisers";
  check_int_range(what, "dk", p.dk, 1, kNormalisersMaxDk);
  check_int_range(what, "heads", p.heads, 1, kNormalisersMaxHeads);
  if (p.logits.empty()) check_int_range(what, "seqLen", p.seq_len, 1, kNormalisersMaxSeqLen);
  const auto number = [what](const char* name, double v, double lo, double hi) {
    if (!(v >= lo && v <= hi))
      throw std::invalid_argument(std::string(what) + ": " + name + " = " + format_number(v) + " must be a number in [" +
                                  format_number(lo) + ", " + format_number(hi) + "]");
  };
  number("sink", p.sink, -100.0, 100.0);
  if (!std::isnan(p.sigmoid_bias)) number("sigmoidBias", p.sigmoid_bias, -100.0, 100.0);
  number("gateMean", p.gate_mean, -20.0, 20.0);
  number("lambda", p.lambda, 0.0, 2.0);
  if (p.logits.size() > static_cast<size_t>(kNormalisersMaxLogits))
    throw std::invalid_argument(std::string(what) + ": logits.length = " + std::to_string(p.logits.size()) +
                                " is outside 1..4096");
  for (size_t j = 0; j < p.logits.size(); ++j) {
    const double s = p.logits[j];
    if (s != -kInf && !(std::isfinite(s) && std::fabs(s) <= 1e6))
      throw std::invalid_argument(std::string(what) + ": logits[" + std::to_string(j) + "] = " + format_number(s) +
                                  " must be a finite number of magnitude ≤ 1e6, or -Infinity (a masked key)");
  }
}

// Running figures of one normaliser.
struct Acc {
  double row_sum = 0.0, row_min = kInf, row_max = -kInf, first = 0.0, entropy = 0.0, out_norm = 0.0;
  long long rows = 0, entropy_rows = 0, negatives = 0, weights = 0;
  std::vector<double> shown;
};

// Σ w, w₀, and the entropy of the renormalised row (NaN unless every weight ≥ 0 and Σ w > 0), in double.
template <typename T>
void add_row(Acc& a, const T* w, int n, double factor, double out_norm, bool show) {
  double sum = 0.0;
  bool nonnegative = true;
  for (int j = 0; j < n; ++j) {
    const double x = factor * static_cast<double>(w[j]);
    sum += x;
    if (x < 0.0) {
      nonnegative = false;
      ++a.negatives;
    }
  }
  a.weights += n;
  a.row_sum += sum;
  a.row_min = std::min(a.row_min, sum);
  a.row_max = std::max(a.row_max, sum);
  a.first += factor * static_cast<double>(w[0]);
  a.out_norm += out_norm;
  ++a.rows;
  if (nonnegative && sum > 0.0) {
    double h = 0.0;
    for (int j = 0; j < n; ++j) {
      const double x = factor * static_cast<double>(w[j]) / sum;
      if (x > 0.0) h -= x * std::log(x);
    }
    a.entropy += h;
    ++a.entropy_rows;
  }
  if (show) {
    a.shown.resize(n);
    for (int j = 0; j < n; ++j) a.shown[j] = factor * static_cast<double>(w[j]);
  }
}

NormaliserRow finish(const Acc& a, int index) {
  NormaliserRow r;
  r.name = kNames[index];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.rows = static_cast<int>(a.rows);
  r.entropy_rows = static_cast<int>(a.entropy_rows);
  if (a.rows == 0) {
    r.row_sum = r.row_sum_min = r.row_sum_max = r.first_mass = r.entropy = r.negative_share = r.output_norm = nan;
    return r;
  }
  const double n = static_cast<double>(a.rows);
  r.row_sum = a.row_sum / n;
  r.row_sum_min = a.row_min;
  r.row_sum_max = a.row_max;
  r.first_mass = a.first / n;
  r.entropy = a.entropy_rows > 0 ? a.entropy / static_cast<double>(a.entropy_rows) : nan;
  r.negative_share = static_cast<double>(a.negatives) / static_cast<double>(a.weights);
  r.output_norm = a.out_norm / n;
  r.weights = a.shown;
  return r;
}


// σ(x) in T
template <typename T>
T sigmoid(T x) { return T(1) / (T(1) + std::exp(-x)); }

template <typename T>
double norm(const T* o, int dk) {
  double s = 0.0;
  for (int c = 0; c < dk; ++c) s += static_cast<double>(o[c]) * static_cast<double>(o[c]);
  return std::sqrt(s);
}

template <typename T>
NormalisersResult run(const NormalisersParams& p, const KernelPath<T>& path) {
  check_params(p);
  const bool explicit_logits = !p.logits.empty();
  const int heads = explicit_logits ? 1 : p.heads;
  const int rows = explicit_logits ? 1 : p.seq_len;   // queries per head
  const int keys = explicit_logits ? static_cast<int>(p.logits.size()) : p.seq_len;
  const int dk = p.dk;
  const double c = resolve_scale(p.scale, dk, p.heads);
  const size_t head_q = static_cast<size_t>(rows) * dk, head_kv = static_cast<size_t>(keys) * dk;

  std::vector<float> q, k;
  if (!explicit_logits) {
    q = draw_tensor(p.seed, 1, heads * head_q, 1.0);
    k = draw_tensor(p.seed, 2, heads * head_kv, 1.0);
  }
  const std::vector<float> v = draw_tensor(p.seed, 3, heads * head_kv, 1.0);
  std::vector<float> g = draw_tensor(p.seed, 5, heads * head_q, 1.0);
  for (float& x : g) x = static_cast<float>(static_cast<double>(x) + p.gate_mean);

  // the keys row i sees, and its sigmoid bias
  const auto seen = [&](int i) {
    if (explicit_logits) return static_cast<int>(std::count_if(p.logits.begin(), p.logits.end(), [](double s) { return s != -kInf; }));
    return p.causal ? i + 1 : keys;
  };
  const auto bias = [&](int i) {
    const int n = seen(i);
    return std::isnan(p.sigmoid_bias) ? (n > 0 ? -std::log(static_cast<double>(n)) : 0.0) : p.sigmoid_bias;
  };

  Acc acc[kNormaliserCount];
  const size_t rk = static_cast<size_t>(rows) * keys;
  std::vector<T> s(rk), w(rk), prev_soft(rk), out(head_q);
  for (int h = 0; h < heads; ++h) {
    // the scaled logits of head h, masked keys −∞
    if (explicit_logits) {
      for (int j = 0; j < keys; ++j) s[j] = static_cast<T>(p.logits[j]);
    } else {
      path.abt(q.data() + h * head_q, k.data() + h * head_kv, s.data(), rows, keys, dk, c);
      if (p.causal)
        for (int i = 0; i < rows; ++i)
          for (int j = i + 1; j < keys; ++j) s[static_cast<size_t>(i) * keys + j] = static_cast<T>(-kInf);
    }
    const float* vh = v.data() + h * head_kv;
    const float* gh = g.data() + h * head_q;
    const auto measure = [&](int which, const T* weights, const T* o, bool gated) {
      for (int i = 0; i < rows; ++i) {
        const T* wi = weights + static_cast<size_t>(i) * keys;
        double factor = 1.0;
        std::vector<T> gatedOut;
        const T* oi = o + static_cast<size_t>(i) * dk;
        if (gated) {
          double mean = 0.0;
          gatedOut.resize(dk);
          for (int cc = 0; cc < dk; ++cc) {
            const T gate = sigmoid(static_cast<T>(gh[static_cast<size_t>(i) * dk + cc]));
            mean += static_cast<double>(gate);
            gatedOut[cc] = gate * oi[cc];
          }
          factor = mean / dk;
          oi = gatedOut.data();
        }
        add_row(acc[which], wi, keys, factor, norm(oi, dk), h == 0 && i == 0);
      }
    };
    // softmax, off-by-one, sink: softmax rows with a sink logit of −∞, 0 and S
    const double sinks[3] = {-kInf, 0.0, p.sink};
    for (int which = kSoftmax; which <= kSink; ++which) {
      std::copy(s.begin(), s.end(), w.begin());
      path.softmax(w.data(), rows, keys, sinks[which]);
      path.wv(w.data(), vh, out.data(), rows, keys, dk);
      measure(which, w.data(), out.data(), false);
      if (which == kSoftmax) {
        measure(kGated, w.data(), out.data(), true);
        if (explicit_logits) {
          // one row: the differential pairs it with itself, w = (1 − λ) p
          std::vector<T> d(rk);
          for (size_t x = 0; x < rk; ++x) d[x] = w[x] - static_cast<T>(p.lambda) * w[x];
          path.wv(d.data(), vh, out.data(), rows, keys, dk);
          measure(kDifferential, d.data(), out.data(), false);
        } else if (h % 2 == 0) {
          std::copy(w.begin(), w.end(), prev_soft.begin());
        } else {
          // pair (h − 1, h): p₁ − λ p₂, on the values of head h − 1
          std::vector<T> d(rk);
          for (size_t x = 0; x < rk; ++x) d[x] = prev_soft[x] - static_cast<T>(p.lambda) * w[x];
          path.wv(d.data(), v.data() + (h - 1) * head_kv, out.data(), rows, keys, dk);
          for (int i = 0; i < rows; ++i)
            add_row(acc[kDifferential], d.data() + static_cast<size_t>(i) * keys, keys, 1.0,
                    norm(out.data() + static_cast<size_t>(i) * dk, dk), h == 1 && i == 0);
        }
      }
    }
    // sigmoid: σ(s_j + b), masked keys 0
    for (int i = 0; i < rows; ++i) {
      const T b = static_cast<T>(bias(i));
      for (int j = 0; j < keys; ++j) {
        const size_t x = static_cast<size_t>(i) * keys + j;
        w[x] = s[x] == static_cast<T>(-kInf) ? T(0) : sigmoid(s[x] + b);
      }
    }
    path.wv(w.data(), vh, out.data(), rows, keys, dk);
    measure(kSigmoid, w.data(), out.data(), false);
  }

  NormalisersResult r;
  r.scale = c;
  r.keys = keys;
  r.sigmoid_bias = bias(0);
  for (int i = 0; i < kNormaliserCount; ++i) r.rows.push_back(finish(acc[i], i));
  return r;
}

}  // namespace

const char* normaliser_name(int index) {
  if (index < 0 || index >= kNormaliserCount)
    throw std::invalid_argument("normaliser_name: index = " + std::to_string(index) + " is outside 0..5");
  return kNames[index];
}

NormalisersResult normalisers(const NormalisersParams& p) {
  KernelPath<float> path;
  path.kt = &kernel_table(p.kernel);
  return run<float>(p, path);
}

NormalisersResult normalisers_reference(const NormalisersParams& p) {
  return run<double>(p, KernelPath<double>{});
}

}  // namespace sqrtdk
