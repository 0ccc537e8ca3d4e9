// The float32 kernel families against the double reference, at sizes below, at and around the
// SIMD tile (4 rows × 8 columns) and around 64; plus invariants that need no oracle.
// The same file runs natively (scalar family) and as wasm under node (scalar and SIMD128).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "experiments.hpp"
#include "kernels.hpp"
#include "rng.hpp"
#include "test_util.hpp"

namespace sqrtdk {
namespace {

using test::families;
using test::randn;

// Sizes 1..2U+1 around the tile (U = 8 columns, 4 rows), and 63..65.
const int kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 63, 64, 65};

TEST(Kernels, MatmulAbtMatchesDoubleReference) {
  for (Kernel kf : families()) {
    const KernelTable& kt = kernel_table(kf);
    for (int M : kSizes)
      for (int N : {1, 3, 8, 9, 17, 64, 65})
        for (int K : {1, 5, 8, 33, 64}) {
          const auto a = randn(size_t(M) * K, 1), b = randn(size_t(N) * K, 2);
          std::vector<float> c(size_t(M) * N);
          kt.matmul_abt(a.data(), b.data(), c.data(), M, N, K, 0.5f);
          for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) {
              double ref = 0.0, mag = 0.0;
              for (int p = 0; p < K; ++p) {
                ref += double(a[m * K + p]) * b[n * K + p];
                mag += std::fabs(double(a[m * K + p]) * b[n * K + p]);
              }
              // float32 summation of K products: |error| ≤ K·2⁻²⁴·Σ|aᵢbᵢ| (Higham 2002, §3.1).
              ASSERT_NEAR(c[m * N + n], 0.5 * ref, 0.5 * (K + 1) * 6e-8 * mag)
                  << kernel_name(kf) << " M=" << M << " N=" << N << " K=" << K;
            }
        }
  }
}

TEST(Kernels, MatmulAbMatchesDoubleReference) {
  for (Kernel kf : families()) {
    const KernelTable& kt = kernel_table(kf);
    for (int M : kSizes)
      for (int N : {1, 3, 8, 9, 17, 64, 65})
        for (int K : {1, 5, 8, 33, 64}) {
          const auto a = randn(size_t(M) * K, 3), b = randn(size_t(K) * N, 4);
          std::vector<float> c(size_t(M) * N);
          kt.matmul_ab(a.data(), b.data(), c.data(), M, N, K, 2.0f);
          for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) {
              double ref = 0.0, mag = 0.0;
              for (int p = 0; p < K; ++p) {
                ref += double(a[m * K + p]) * b[p * N + n];
                mag += std::fabs(double(a[m * K + p]) * b[p * N + n]);
              }
              ASSERT_NEAR(c[m * N + n], 2.0 * ref, 2.0 * (K + 1) * 6e-8 * mag)
                  << kernel_name(kf) << " M=" << M << " N=" << N << " K=" << K;
            }
        }
  }
}

#ifdef SQRTDK_HAVE_WASM_SIMD  // only the SIMD128 build (run under node) has both families
TEST(Kernels, SimdProductsAreBitIdenticalToScalar) {
  // Same summation order, no FMA on either side: the products must agree to the bit.
  const KernelTable& s = kernel_table(Kernel::Scalar);
  const KernelTable& v = kernel_table(Kernel::Simd);
  for (int M : {1, 4, 5, 13, 64, 65})
    for (int N : {1, 7, 8, 9, 31, 65})
      for (int K : {1, 2, 17, 64, 129}) {
        const auto a = randn(size_t(M) * K, 5), b = randn(size_t(N) * K, 6);
        std::vector<float> cs(size_t(M) * N), cv(size_t(M) * N);
        s.matmul_abt(a.data(), b.data(), cs.data(), M, N, K, 0.125f);
        v.matmul_abt(a.data(), b.data(), cv.data(), M, N, K, 0.125f);
        ASSERT_EQ(cs, cv) << "abt M=" << M << " N=" << N << " K=" << K;
        s.matmul_ab(a.data(), b.data(), cs.data(), M, N, K, 0.125f);  // b read as [K, N]
        v.matmul_ab(a.data(), b.data(), cv.data(), M, N, K, 0.125f);
        ASSERT_EQ(cs, cv) << "ab M=" << M << " N=" << N << " K=" << K;
      }
}

TEST(Kernels, SimdExpIsWithinItsDocumentedBound) {
  // kSimdExpRelError was measured on every float32 in [−87.3, 0]; here a dense grid and the
  // edges, against exp in double (the reference beside it).
  std::vector<float> x;
  for (int i = 0; i <= 400000; ++i) x.push_back(-87.3f * static_cast<float>(i) / 400000.0f);
  for (float v : {0.0f, -0.0f, -1e-30f, -0.34657359f, -0.34657362f, -87.29f}) x.push_back(v);
  std::vector<float> y(x.size());
  f32_exp_nonpositive__wasmsimd(x.data(), y.data(), static_cast<int>(x.size()));
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double ref = std::exp(static_cast<double>(x[i]));
    worst = std::max(worst, std::fabs(y[i] - ref) / ref);
    ASSERT_LE(std::fabs(y[i] - ref), kSimdExpRelError * ref) << "x=" << x[i];
  }
  EXPECT_GT(worst, 0.5 * kSimdExpRelError) << "the bound is not loose by more than 2×";
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> edge{0.0f, -87.31f, -88.0f, -1e30f, -inf}, out(edge.size(), -1.0f);
  f32_exp_nonpositive__wasmsimd(edge.data(), out.data(), static_cast<int>(edge.size()));
  EXPECT_EQ(out, (std::vector<float>{1.0f, 0.0f, 0.0f, 0.0f, 0.0f}));
}

// The SIMD128 softmax's stated tolerance (kernels_wasmsimd.cpp, beside softmax_row_simd): weight
// j of a float32 row x (with a sink logit, −∞: none) against the double softmax p of the same row,
// u = 2^-24, d_i = |x_i − max|:
//   |w_j − p_j| ≤ (2·kSimdExpRelError + 18u + d_j·u + Σ_i p_i·d_i·u) · p_j + 1e-37.
// spread_of gives max and Σ_i p_i·d_i·u of a row (and its sink) once; tolerance() the bound of one
// entry (or of the sink's weight, xj = sink, pj = its weight).
struct SimdSoftmaxBound {
  double mx = -std::numeric_limits<double>::infinity(), spread = 0.0;
  SimdSoftmaxBound(const std::vector<double>& x, const std::vector<double>& p, double sink, double ps) {
    const double u = 0x1p-24;
    mx = sink;
    for (double v : x) mx = std::max(mx, v);
    if (ps > 0.0) spread += ps * std::fabs(sink - mx) * u;
    for (size_t i = 0; i < x.size(); ++i) spread += p[i] * std::fabs(x[i] - mx) * u;
  }
  double tolerance(double xj, double pj) const {
    if (pj == 0.0) return 1e-37;  // −∞ (masked, or no sink): exactly 0 expected, flushes within 1e-37
    const double u = 0x1p-24;
    return (2.0 * kSimdExpRelError + 18.0 * u + std::fabs(xj - mx) * u + spread) * pj + 1e-37;
  }
};

TEST(Kernels, SimdSoftmaxIsWithinTheStatedBoundOfTheDoubleReference) {
  // Sizes around the 16-wide step and the 256-entry float32 block sum, up to L = 8192 (the
  // bound's 18u does not grow with the row), logits from nearly equal to spread past the flush,
  // with and without a sink.
  const KernelTable& v = kernel_table(Kernel::Simd);
  for (int cols : {1, 2, 3, 4, 5, 15, 16, 17, 31, 33, 255, 256, 257, 271, 1000, 1024, 8192})
    for (double sigma : {0.01, 1.0, 10.0, 40.0})
      for (double sink : {-std::numeric_limits<double>::infinity(), 0.5}) {
        const int rows = cols > 1000 ? 2 : 4;
        const auto x = randn(size_t(rows) * cols, 31, sigma);
        std::vector<float> y = x, sw(rows);
        v.softmax_rows_sink(y.data(), rows, cols, static_cast<float>(sink), sw.data());
        std::vector<double> xd(cols), pd(cols);
        for (int r = 0; r < rows; ++r) {
          for (int j = 0; j < cols; ++j) xd[j] = x[size_t(r) * cols + j];
          const double ps = f64_softmax_sink__reference(xd.data(), sink, pd.data(), cols);
          const SimdSoftmaxBound bound(xd, pd, sink, ps);
          for (int j = 0; j < cols; ++j)
            ASSERT_NEAR(y[size_t(r) * cols + j], pd[j], bound.tolerance(xd[j], pd[j]))
                << "cols=" << cols << " sigma=" << sigma << " sink=" << sink << " j=" << j;
          EXPECT_NEAR(sw[r], ps, bound.tolerance(sink, ps))
              << "cols=" << cols << " sigma=" << sigma;
        }
      }
}

TEST(Kernels, SimdSoftmaxAgreesWithTheScalarFamilyWithinTheBound) {
  // No longer bit for bit (its own exp, float32 block sums): the two families differ by at most
  // the sum of their distances to the reference; the scalar family (2-ulp exp, sum in double)
  // meets the SIMD128 bound too, so twice that bound.
  const KernelTable& s = kernel_table(Kernel::Scalar);
  const KernelTable& v = kernel_table(Kernel::Simd);
  for (int cols : {7, 64, 130, 1024}) {
    const auto x = randn(size_t(3) * cols, 41, 2.0);
    std::vector<float> a = x, b = x;
    s.softmax_rows(a.data(), 3, cols);
    v.softmax_rows(b.data(), 3, cols);
    std::vector<double> xd(cols), pd(cols);
    for (int r = 0; r < 3; ++r) {
      for (int j = 0; j < cols; ++j) xd[j] = x[size_t(r) * cols + j];
      f64_softmax__reference(xd.data(), pd.data(), cols);
      const SimdSoftmaxBound bound(xd, pd, -std::numeric_limits<double>::infinity(), 0.0);
      for (int j = 0; j < cols; ++j) {
        const size_t i = size_t(r) * cols + j;
        const double tol = bound.tolerance(xd[j], pd[j]);
        ASSERT_NEAR(a[i], pd[j], tol) << "scalar cols=" << cols;
        ASSERT_NEAR(b[i], a[i], 2.0 * tol) << "cols=" << cols;
      }
    }
  }
}

TEST(Kernels, SimdFusedAttentionHeadIsBitIdenticalToTheThreeSteps) {
  // The row-blocked head (scores of a block, their softmax, the block's output) against the
  // unfused SIMD sequence, at lengths below, at and past a row block (64 rows up to L = 256, 16
  // at 1024) and not a multiple of the 4-row tile; then again, so reused buffers change nothing.
  const KernelTable& v = kernel_table(Kernel::Simd);
  ASSERT_NE(v.attention_head, nullptr);
  EXPECT_EQ(kernel_table(Kernel::Scalar).attention_head, nullptr);
  for (int rep = 0; rep < 2; ++rep)
    for (int L : {1, 3, 4, 9, 64, 65, 130, 257, 1030})
      for (int dk : {1, 5, 8, 64}) {
        const auto q = randn(size_t(L) * dk, 7 + rep), k = randn(size_t(L) * dk, 8), w = randn(size_t(L) * dk, 9);
        const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
        // and a second query head of the same K/V group, which the packed K and V of the first serve
        const auto q2 = randn(size_t(L) * dk, 17 + rep);
        std::vector<float> P(size_t(L) * L), want(size_t(L) * dk), want2(size_t(L) * dk), got(size_t(L) * dk, -1.0f);
        v.matmul_abt(q2.data(), k.data(), P.data(), L, L, dk, scale);
        v.softmax_rows(P.data(), L, L);
        v.matmul_ab(P.data(), w.data(), want2.data(), L, dk, L, 1.0f);
        v.matmul_abt(q.data(), k.data(), P.data(), L, L, dk, scale);
        v.softmax_rows(P.data(), L, L);
        v.matmul_ab(P.data(), w.data(), want.data(), L, dk, L, 1.0f);
        v.attention_head(q.data(), k.data(), w.data(), got.data(), L, dk, scale, /*same_kv=*/false);
        ASSERT_EQ(want, got) << "L=" << L << " dk=" << dk;
        std::fill(got.begin(), got.end(), -1.0f);
        v.attention_head(q2.data(), k.data(), w.data(), got.data(), L, dk, scale, /*same_kv=*/true);  // nothing between
        ASSERT_EQ(want2, got) << "same_kv L=" << L << " dk=" << dk;
      }
}
#endif

TEST(Kernels, ExpIsWithinFourUlpOfLibm) {
  for (int i = 0; i <= 200000; ++i) {
    const float x = -87.0f * static_cast<float>(i) / 200000.0f;
    const double ref = std::exp(static_cast<double>(x));
    ASSERT_NEAR(f32_exp_nonpositive(x), ref, 4.0 * 5.96e-8 * ref) << "x=" << x;
  }
  EXPECT_EQ(f32_exp_nonpositive(0.0f), 1.0f);
  EXPECT_EQ(f32_exp_nonpositive(-88.0f), 0.0f);
  EXPECT_EQ(f32_exp_nonpositive(-std::numeric_limits<float>::infinity()), 0.0f);
}

TEST(Kernels, SoftmaxMatchesDoubleReference) {
  for (Kernel kf : families()) {
    for (int cols : kSizes) {
      for (double sigma : {0.1, 1.0, 10.0, 40.0}) {
        const int rows = 5;
        auto x = randn(size_t(rows) * cols, 7, sigma);
        std::vector<float> y = x;
        kernel_table(kf).softmax_rows(y.data(), rows, cols);
        std::vector<double> xd(cols), pd(cols);
        for (int r = 0; r < rows; ++r) {
          for (int j = 0; j < cols; ++j) xd[j] = x[r * cols + j];
          f64_softmax__reference(xd.data(), pd.data(), cols);
          for (int j = 0; j < cols; ++j)
            // 1e-5 relative, plus 1e-37 absolute for exp flushed to 0 below e^-87.3.
            ASSERT_NEAR(y[r * cols + j], pd[j], 1e-5 * pd[j] + 1e-37)
                << kernel_name(kf) << " cols=" << cols << " sigma=" << sigma;
        }
      }
    }
  }
}

TEST(Kernels, SoftmaxRowsSumToOneAndAreShiftInvariant) {
  for (Kernel kf : families()) {
    const KernelTable& kt = kernel_table(kf);
    for (int cols : {1, 3, 4, 5, 8, 9, 64, 65, 1000}) {
      auto x = randn(size_t(3) * cols, 8, 3.0);
      auto shifted = x;
      for (int j = 0; j < cols; ++j) shifted[cols + j] += 12.5f;  // shift row 1 by a constant
      kt.softmax_rows(x.data(), 3, cols);
      kt.softmax_rows(shifted.data(), 3, cols);
      for (int r = 0; r < 3; ++r) {
        double sum = 0.0;
        for (int j = 0; j < cols; ++j) sum += x[r * cols + j];
        EXPECT_NEAR(sum, 1.0, 1e-6) << kernel_name(kf) << " cols=" << cols;
      }
      // Adding 12.5 changes the float inputs by rounding (ulp of 12.5 ≈ 1e-6), hence 1e-5.
      for (int j = 0; j < cols; ++j) EXPECT_NEAR(shifted[cols + j], x[cols + j], 1e-5 * x[cols + j] + 1e-30);
    }
  }
}

TEST(Kernels, SoftmaxInfinityConventions) {
  const float inf = std::numeric_limits<float>::infinity();
  for (Kernel kf : families()) {
    const KernelTable& kt = kernel_table(kf);
    // −∞ entries get weight 0; the rest is a normal softmax.
    std::vector<float> a{0.0f, -inf, 0.0f, -inf, 0.0f, 0.0f};
    kt.softmax_rows(a.data(), 1, 6);
    EXPECT_EQ(a, (std::vector<float>{0.25f, 0.0f, 0.25f, 0.0f, 0.25f, 0.25f})) << kernel_name(kf);
    // A row of all −∞ (every key masked) becomes all zeros, never NaN.
    std::vector<float> b(9, -inf);
    kt.softmax_rows(b.data(), 1, 9);
    for (float v : b) EXPECT_EQ(v, 0.0f) << kernel_name(kf);
    // +∞ entries share the mass equally.
    std::vector<float> c{1.0f, inf, 2.0f, inf, 3.0f};
    kt.softmax_rows(c.data(), 1, 5);
    EXPECT_EQ(c, (std::vector<float>{0.0f, 0.5f, 0.0f, 0.5f, 0.0f})) << kernel_name(kf);
  }
}

TEST(Kernels, AttentionMatchesReferenceAroundTheTile) {
  for (Kernel kf : families()) {
    for (int L : {1, 3, 4, 5, 8, 9, 17, 64, 65})
      for (int dk : {1, 4, 7, 8, 9, 64, 65}) {
        const int heads = 2;
        const size_t n = size_t(heads) * L * dk;
        const auto q = randn(n, 11), k = randn(n, 12), v = randn(n, 13);
        const AttentionResult r = attention(test::attention_params(q, k, v, heads, L, dk, kf));
        std::vector<double> out(n), w(size_t(heads) * L * L);
        f64_attention__reference(q.data(), k.data(), v.data(), heads, L, dk, r.scale, out.data(), w.data());
        for (size_t i = 0; i < w.size(); ++i)
          ASSERT_NEAR(r.weights[i], w[i], 1e-5 * w[i] + 1e-37) << kernel_name(kf) << " L=" << L << " dk=" << dk;
        // Outputs are sums of signed terms: relative 1e-5 of the row's scale Σ p|v|.
        double err = 0.0, norm = 0.0;
        for (size_t i = 0; i < n; ++i) {
          err = std::max(err, std::fabs(r.output[i] - out[i]));
          norm = std::max(norm, std::fabs(out[i]));
        }
        EXPECT_LE(err, 1e-5 * std::max(norm, 1.0)) << kernel_name(kf) << " L=" << L << " dk=" << dk;
      }
  }
}

TEST(Kernels, PermutingKeysPermutesWeightsAndKeepsOutputs) {
  for (Kernel kf : families()) {
    const int L = 13, dk = 9;
    const size_t n = size_t(L) * dk;
    const auto q = randn(n, 21), k = randn(n, 22), v = randn(n, 23);
    std::vector<int> perm(L);
    std::iota(perm.begin(), perm.end(), 0);
    std::reverse(perm.begin(), perm.end());
    std::rotate(perm.begin(), perm.begin() + 4, perm.end());
    std::vector<float> kp(n), vp(n);
    for (int j = 0; j < L; ++j)
      for (int d = 0; d < dk; ++d) {
        kp[j * dk + d] = k[perm[j] * dk + d];
        vp[j * dk + d] = v[perm[j] * dk + d];
      }
    AttentionParams a;
    a.q = q; a.k = k; a.v = v; a.heads = 1; a.seq_len = L; a.dk = dk; a.kernel = kf;
    AttentionParams b = a;
    b.k = kp;
    b.v = vp;
    const AttentionResult ra = attention(a), rb = attention(b);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j)  // the row sum runs in another order: rounding only
        EXPECT_NEAR(rb.weights[i * L + j], ra.weights[i * L + perm[j]], 2e-7 * ra.weights[i * L + perm[j]]);
    for (size_t i = 0; i < n; ++i) EXPECT_NEAR(rb.output[i], ra.output[i], 1e-6);
  }
}

TEST(Kernels, UnknownFamilyOrMissingSimdIsRefused) {
  EXPECT_THROW(parse_kernel("avx"), std::invalid_argument);
  if (!simd_available()) {
    EXPECT_THROW(kernel_table(Kernel::Simd), std::invalid_argument);
  }
}

}  // namespace
}  // namespace sqrtdk
