// f32 *__scalar kernels. Built with auto-vectorisation off (see CMakeLists.txt) so that they
// are the honest one-element-at-a-time baseline the SIMD128 family is compared with.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels.hpp"

namespace sqrtdk {

float f32_exp_nonpositive(float x) {
  // Below this, exp(x) is under FLT_MIN (1.18e-38): flush to 0 instead of producing subnormals.
  if (x < -87.3f) return 0.0f;
  // Cody–Waite: n = round(x / ln2), r = x − n·ln2 with ln2 split in two so r is exact-ish.
  const float n = std::floor(x * 1.44269504088896341f + 0.5f);
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const float r2 = r * r;
  float y = 1.9875691500e-4f;
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * r2 + r + 1.0f;
  // 2^n for n in [−126, 0], built from the exponent bits.
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float pow2n;
  std::memcpy(&pow2n, &bits, sizeof pow2n);
  return y * pow2n;
}

float f32_log_nonnegative(float x) {
  int32_t adjust = 0;
  if (x < 1.17549435e-38f) {  // subnormal (or 0): scale into the normal range, exactly
    x *= 8388608.0f;          // 2^23
    adjust = -23;
  }
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int32_t e = static_cast<int32_t>(bits >> 23) - 127 + adjust;
  bits = (bits & 0x007fffffu) | 0x3f800000u;  // the mantissa as m ∈ [1, 2)
  float m;
  std::memcpy(&m, &bits, sizeof m);
  if (m > 1.41421356f) {  // into [√½, √2): |f| ≤ 0.414
    m *= 0.5f;
    e += 1;
  }
  const float f = m - 1.0f;  // exact (Sterbenz)
  const float z = f * f;
  float y = 7.0376836292e-2f;
  y = y * f + -1.1514610310e-1f;
  y = y * f + 1.1676998740e-1f;
  y = y * f + -1.2420140846e-1f;
  y = y * f + 1.4249322787e-1f;
  y = y * f + -1.6668057665e-1f;
  y = y * f + 2.0000714765e-1f;
  y = y * f + -2.4999993993e-1f;
  y = y * f + 3.3333331174e-1f;
  y = y * f * z;
  const float fe = static_cast<float>(e);
  y = y + fe * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = f + y;
  r = r + fe * 0.693359375f;
  return r;
}

F32Top2 f32_row_top2__scalar(const float* p, int n) {
  F32Top2 t;
  for (int j = 1; j < n; ++j)
    if (p[j] > p[t.imax]) t.imax = j;
  t.pmax = p[t.imax];
  for (int j = 0; j < n; ++j) {
    if (j == t.imax) continue;
    if (t.i2 < 0 || p[j] > p[t.i2]) t.i2 = j;
  }
  t.p2 = t.i2 < 0 ? 0.0f : p[t.i2];
  return t;
}

F32RowSums f32_row_sums__scalar(const float* p, int n, int skip0, int skip1, bool logs, bool powers) {
  F32RowLanes lanes;
  for (int j = 0; j < n; ++j)
    if (j != skip0 && j != skip1) f32_row_sums_add(lanes, p[j], j, logs, powers);  // SIMD128 adds ±0 there
  return f32_row_sums_finish(lanes, logs, powers);
}

void f32_row_secular__scalar(const float* p, int n, int skip, double y, double* psi, double* dpsi) {
  double a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; ++j) {
    if (j == skip) continue;
    const double x = p[j];
    const double t = x / (x - y);
    a[j & 3] += x * t;
    b[j & 3] += t * t;
  }
  *psi = f32_combine_lanes(a);
  *dpsi = f32_combine_lanes(b);
}

void f32_matmul_abt__scalar(const float* a, const float* b, float* c, int M, int N, int K, float alpha) {
  for (int m = 0; m < M; ++m) {
    const float* arow = a + static_cast<size_t>(m) * K;
    for (int n = 0; n < N; ++n) {
      const float* brow = b + static_cast<size_t>(n) * K;
      float acc = 0.0f;
      for (int p = 0; p < K; ++p) acc += arow[p] * brow[p];
      c[static_cast<size_t>(m) * N + n] = alpha * acc;
    }
  }
}

void f32_matmul_ab__scalar(const float* a, const float* b, float* c, int M, int N, int K, float alpha) {
  // m-p-n order: each c[m, n] still sums its products in p order, as the SIMD kernel does.
  for (int m = 0; m < M; ++m) {
    float* crow = c + static_cast<size_t>(m) * N;
    for (int n = 0; n < N; ++n) crow[n] = 0.0f;
    const float* arow = a + static_cast<size_t>(m) * K;
    for (int p = 0; p < K; ++p) {
      const float apk = arow[p];
      const float* brow = b + static_cast<size_t>(p) * N;
      for (int n = 0; n < N; ++n) crow[n] += apk * brow[n];
    }
    for (int n = 0; n < N; ++n) crow[n] *= alpha;
  }
}

namespace {
// One row: x ← softmax over the row and a sink logit (−∞: no sink), exp(x − m) / (e^{sink − m} + Σ exp(x − m))
// with m the max of both; returns the sink's weight. With sink = −∞ every operation is that of
// the plain softmax (m is the row max, e^{−∞} = 0 adds nothing), so the result is the same bits.
float softmax_row_scalar(float* row, int cols, float sink) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float mx = -kInf;
  for (int j = 0; j < cols; ++j) mx = row[j] > mx ? row[j] : mx;
  if (mx == kInf) {  // the limit of softmax: the +∞ entries share the mass (the finite sink gets none)
    int count = 0;
    for (int j = 0; j < cols; ++j) count += row[j] == kInf;
    for (int j = 0; j < cols; ++j) row[j] = row[j] == kInf ? 1.0f / static_cast<float>(count) : 0.0f;
    return 0.0f;
  }
  mx = sink > mx ? sink : mx;
  if (mx == -kInf) {  // every key masked and no sink: no key is attended
    for (int j = 0; j < cols; ++j) row[j] = 0.0f;
    return 0.0f;
  }
  double sum = 0.0;  // accumulated in double: L up to 8192 terms
  for (int j = 0; j < cols; ++j) {
    const float e = f32_exp_nonpositive(row[j] - mx);
    row[j] = e;
    sum += e;
  }
  const float es = f32_exp_nonpositive(sink - mx);  // 0 for no sink; 1 when every key is masked
  sum += es;
  const float inv = static_cast<float>(1.0 / sum);
  for (int j = 0; j < cols; ++j) row[j] *= inv;
  return es * inv;
}
}  // namespace

float f32_softmax_row_sink__scalar(float* row, int cols, float sink) { return softmax_row_scalar(row, cols, sink); }

void f32_softmax_rows__scalar(float* x, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    softmax_row_scalar(x + static_cast<size_t>(r) * cols, cols, -std::numeric_limits<float>::infinity());
}

void f32_softmax_rows_sink__scalar(float* x, int rows, int cols, float sink, float* sink_weight) {
  for (int r = 0; r < rows; ++r) {
    const float w = softmax_row_scalar(x + static_cast<size_t>(r) * cols, cols, sink);
    if (sink_weight != nullptr) sink_weight[r] = w;
  }
}

}  // namespace sqrtdk
