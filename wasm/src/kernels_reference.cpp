// f64 reference attention: the oracle for the float32 kernels. Plain Eigen 3.4 in double over
// row-major maps of the float32 inputs; std::exp, no tricks beyond the max subtraction.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels.hpp"

namespace sqrtdk {

namespace {
using MatF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

void f64_softmax__reference(const double* x, double* p, int n) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double mx = -kInf;
  for (int j = 0; j < n; ++j) mx = x[j] > mx ? x[j] : mx;
  if (mx == -kInf) {  // every entry −∞ (all keys masked): documented result is all zeros
    for (int j = 0; j < n; ++j) p[j] = 0.0;
    return;
  }
  if (mx == kInf) {  // the +∞ entries share the mass equally
    int count = 0;
    for (int j = 0; j < n; ++j) count += x[j] == kInf;
    for (int j = 0; j < n; ++j) p[j] = x[j] == kInf ? 1.0 / count : 0.0;
    return;
  }
  double sum = 0.0;
  for (int j = 0; j < n; ++j) {
    p[j] = std::exp(x[j] - mx);  // max subtracted only for numerical stability
    sum += p[j];
  }
  for (int j = 0; j < n; ++j) p[j] /= sum;
}

double f64_softmax_sink__reference(const double* x, double sink, double* p, int n) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double mx = -kInf;
  for (int j = 0; j < n; ++j) mx = x[j] > mx ? x[j] : mx;
  if (mx == kInf || sink == -kInf) {  // +∞ entries take everything, or there is no sink
    f64_softmax__reference(x, p, n);
    return 0.0;
  }
  mx = std::max(mx, sink);
  double sum = std::exp(sink - mx);
  for (int j = 0; j < n; ++j) {
    p[j] = std::exp(x[j] - mx);  // exp(−∞) = 0 for a masked key
    sum += p[j];
  }
  for (int j = 0; j < n; ++j) p[j] /= sum;
  return std::exp(sink - mx) / sum;
}

void f64_attention__reference(const float* q, const float* k, const float* v, int heads, int seq_len, int dk,
                              double scale, double* out, double* weights) {
  // the masked reference with no mask, no causal cut, no soft-cap: one code path for both
  f64_attention_masked__reference(q, k, v, heads, seq_len, dk, scale, nullptr, false, 0.0, false, out, weights);
}

void f64_attention_masked__reference(const float* q, const float* k, const float* v, int heads, int seq_len, int dk,
                                     double scale, const float* mask, bool causal, double softcap, bool nan_rows,
                                     double* out, double* weights, const double* sinks, double* sink_weights,
                                     bool mask_per_head, const double* alibi, int dv, const float* query_scale) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const size_t head_qkv = static_cast<size_t>(seq_len) * dk;
  if (dv == 0) dv = dk;
  const size_t head_v = static_cast<size_t>(seq_len) * dv;
  MatD scores(seq_len, seq_len), probs(seq_len, seq_len);
  for (int h = 0; h < heads; ++h) {
    const Eigen::Map<const MatF> Q(q + h * head_qkv, seq_len, dk);
    const Eigen::Map<const MatF> K(k + h * head_qkv, seq_len, dk);
    scores.noalias() = scale * (Q.cast<double>() * K.cast<double>().transpose());
    if (query_scale != nullptr)
      for (int i = 0; i < seq_len; ++i) scores.row(i) *= static_cast<double>(query_scale[i]);
    if (softcap > 0.0) scores = scores.unaryExpr([softcap](double s) { return softcap * std::tanh(s / softcap); });
    if (mask != nullptr) {
      const float* mh = mask + (mask_per_head ? static_cast<size_t>(h) * seq_len * seq_len : 0);
      scores += Eigen::Map<const MatF>(mh, seq_len, seq_len).cast<double>();
    }
    if (alibi != nullptr)
      for (int i = 0; i < seq_len; ++i)
        for (int j = 0; j < seq_len; ++j) scores(i, j) += -alibi[h] * static_cast<double>(i - j);
    if (causal)
      for (int i = 0; i < seq_len; ++i)
        for (int j = i + 1; j < seq_len; ++j) scores(i, j) = -kInf;
    const double sink = sinks != nullptr ? sinks[h] : -kInf;
    for (int i = 0; i < seq_len; ++i) {
      const double ws = f64_softmax_sink__reference(scores.row(i).data(), sink, probs.row(i).data(), seq_len);
      if (sink_weights != nullptr) sink_weights[static_cast<size_t>(h) * seq_len + i] = ws;
      if (nan_rows && sink == -kInf && (scores.row(i).array() == -kInf).all()) probs.row(i).setConstant(std::nan(""));
    }
    if (weights != nullptr) {
      Eigen::Map<MatD>(weights + static_cast<size_t>(h) * seq_len * seq_len, seq_len, seq_len) = probs;
    }
    if (out != nullptr) {
      const Eigen::Map<const MatF> V(v + h * head_v, seq_len, dv);
      Eigen::Map<MatD>(out + h * head_v, seq_len, dv).noalias() = probs * V.cast<double>();
    }
  }
}

}  // namespace sqrtdk
