// Statistics: closed forms, the Jacobian against an explicit Eigen eigen-solve, quantiles
// against numpy's type-7 values.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <limits>
#include <vector>

#include "experiments.hpp"
#include "kernels.hpp"
#include "rng.hpp"
#include "stats.hpp"
#include "test_util.hpp"

namespace sqrtdk {
namespace {

TEST(Softmax, ClosedFormsOfSmallVectors) {
  double p[3];
  const double x0[2] = {0.0, 0.0};
  f64_softmax__reference(x0, p, 2);
  EXPECT_DOUBLE_EQ(p[0], 0.5);
  EXPECT_DOUBLE_EQ(p[1], 0.5);
  const double x1[3] = {1.0, 2.0, 3.0};
  f64_softmax__reference(x1, p, 3);
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_NEAR(p[0], std::exp(1.0) / z, 1e-15);
  EXPECT_NEAR(p[1], std::exp(2.0) / z, 1e-15);
  EXPECT_NEAR(p[2], std::exp(3.0) / z, 1e-15);
  const double x2[2] = {10.0, 0.0};
  f64_softmax__reference(x2, p, 2);
  EXPECT_NEAR(p[0], 1.0 / (1.0 + std::exp(-10.0)), 1e-15);  // 0.9999546…
  EXPECT_NEAR(p[1], 1.0 / (1.0 + std::exp(10.0)), 1e-18);   // 4.5398e-5
  // Large logits do not overflow: the max is subtracted.
  const double x3[3] = {1000.0, 990.0, 980.0};
  f64_softmax__reference(x3, p, 3);
  EXPECT_NEAR(p[0], 1.0 / (1.0 + std::exp(-10.0) + std::exp(-20.0)), 1e-15);
}

TEST(Jacobian, OfTenZeroIsTwoByTwoClosedForm) {
  // p = (σ(10), σ(−10)); J = p₁p₂ [[1, −1], [−1, 1]]: ‖J‖_F = ‖J‖₂ = 2 p₁ p₂ ≈ 9.0792e-5 (C5).
  const SoftmaxJacobianResult r = softmax_jacobian(std::vector<double>{10.0, 0.0});
  const double p1 = 1.0 / (1.0 + std::exp(-10.0)), p2 = 1.0 / (1.0 + std::exp(10.0));
  EXPECT_NEAR(r.jacobian[0], p1 * p2, 1e-15);
  EXPECT_NEAR(r.jacobian[1], -p1 * p2, 1e-15);
  EXPECT_NEAR(r.frobenius, 2.0 * p1 * p2, 1e-17);
  EXPECT_NEAR(r.spectral, 2.0 * p1 * p2, 1e-17);
  EXPECT_NEAR(r.spectral, 9.0792e-5, 1e-8);
}

TEST(Jacobian, OfZeroZeroIsQuarterMatrix) {
  const SoftmaxJacobianResult r = softmax_jacobian(std::vector<double>{0.0, 0.0});
  EXPECT_DOUBLE_EQ(r.jacobian[0], 0.25);
  EXPECT_DOUBLE_EQ(r.jacobian[1], -0.25);
  EXPECT_DOUBLE_EQ(r.jacobian[2], -0.25);
  EXPECT_DOUBLE_EQ(r.jacobian[3], 0.25);
  EXPECT_DOUBLE_EQ(r.frobenius, 0.5);
  EXPECT_DOUBLE_EQ(r.spectral, 0.5);
  EXPECT_DOUBLE_EQ(r.entropy, std::log(2.0));
}

TEST(Jacobian, NormsMatchExplicitMatrixAndEigenSolver) {
  Rng rng(5);
  for (int n : {1, 2, 3, 5, 8, 17, 40, 128}) {
    for (double sigma : {0.01, 1.0, 4.0, 12.0}) {
      std::vector<double> x(n), p(n);
      for (auto& v : x) v = sigma * rng.normal();
      f64_softmax__reference(x.data(), p.data(), n);
      // J from its definition, the diagonal p_i·Σ_{j≠i} p_j summed explicitly (1 − p_i cancels).
      Eigen::MatrixXd J(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) J(i, j) = -p[i] * p[j];
      for (int i = 0; i < n; ++i) {
        double rest = 0.0;
        for (int j = 0; j < n; ++j) rest += j == i ? 0.0 : p[j];
        J(i, i) = p[i] * rest;
      }
      EXPECT_LE((J - softmax_jacobian_matrix(p.data(), n)).cwiseAbs().maxCoeff(), 1e-15 * J.cwiseAbs().maxCoeff());
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(J);
      const double spec_ref = es.eigenvalues().cwiseAbs().maxCoeff();
      const RowStats rs = row_stats(p.data(), n);
      EXPECT_NEAR(rs.jac_fro, J.norm(), 1e-12 * J.norm() + 1e-300) << "n=" << n << " sigma=" << sigma;
      EXPECT_NEAR(rs.jac_spec, spec_ref, 1e-10 * spec_ref + 1e-15) << "n=" << n << " sigma=" << sigma;
    }
  }
}

TEST(Jacobian, TiesAndUniformRows) {
  // Uniform row of L: J = I/L − 11ᵀ/L², eigenvalues 1/L (L−1 times) and 0.
  for (int L : {2, 3, 128}) {
    std::vector<double> p(L, 1.0 / L);
    EXPECT_NEAR(softmax_jacobian_spectral_norm(p.data(), L), 1.0 / L, 1e-15);
  }
  const double tie[4] = {0.4, 0.4, 0.1, 0.1};
  const Eigen::MatrixXd J = softmax_jacobian_matrix(tie, 4);
  const double ref = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(J).eigenvalues().maxCoeff();
  EXPECT_NEAR(softmax_jacobian_spectral_norm(tie, 4), ref, 1e-14);
}

TEST(Jacobian, SaturatedRowKeepsItsTinyNorms) {
  // p = (1 − ε, ε): ‖J‖_F = ‖J‖₂ = 2ε(1 − ε) even when 1 − ε rounds to 1.
  const double eps = 1e-20;
  const double p[2] = {1.0, eps};  // 1 − 1e-20 == 1.0 in double
  const RowStats rs = row_stats(p, 2);
  EXPECT_NEAR(rs.jac_fro, 2 * eps, 1e-35);
  EXPECT_NEAR(rs.jac_spec, 2 * eps, 1e-35);
  EXPECT_NEAR(rs.entropy, eps * (1.0 - std::log(eps)), 1e-33);  // −ε ln ε − (1−ε) ln(1−ε)
}

TEST(Jacobian, VectorProductMatchesMatrix) {
  Rng rng(8);
  const int n = 11;
  std::vector<double> x(n), p(n), g(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 2.0 * rng.normal();
    g[i] = rng.normal();
  }
  f64_softmax__reference(x.data(), p.data(), n);
  softmax_jacobian_vector(p.data(), g.data(), out.data(), n);
  const Eigen::VectorXd ref = softmax_jacobian_matrix(p.data(), n).transpose() * Eigen::Map<Eigen::VectorXd>(g.data(), n);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(out[i], ref[i], 1e-15);
}

TEST(RowStats, EntropyOfUniformRowIsLnL) {
  for (int L : {1, 2, 7, 128, 4096}) {
    std::vector<double> p(L, 1.0 / L);
    const RowStats rs = row_stats(p.data(), L);
    EXPECT_NEAR(rs.entropy, std::log(double(L)), 1e-12) << L;
    EXPECT_NEAR(rs.eff_support, L, 1e-9 * L) << L;
    EXPECT_DOUBLE_EQ(rs.max_weight, 1.0 / L);
  }
  const double onehot[3] = {0.0, 1.0, 0.0};  // 0·ln 0 = 0
  EXPECT_EQ(row_stats(onehot, 3).entropy, 0.0);
  const double masked[3] = {0.0, 0.0, 0.0};  // all keys masked: zeros, not NaN
  const RowStats z = row_stats(masked, 3);
  EXPECT_EQ(z.entropy, 0.0);
  EXPECT_EQ(z.jac_fro, 0.0);
}

TEST(Moments, SmallSampleAndWelford) {
  MomentAccumulator acc;
  for (double x : {1.0, 2.0, 3.0, 4.0}) acc.add(x);
  const Moments m = acc.moments();
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_NEAR(m.variance, 5.0 / 3.0, 1e-15);  // unbiased: Σ(x − x̄)² / (n − 1)
  EXPECT_NEAR(m.std, std::sqrt(5.0 / 3.0), 1e-15);
  // Welford stays exact with a large offset where the naive Σx² − n x̄² would cancel.
  MomentAccumulator big;
  for (double x : {1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4}) big.add(x);
  EXPECT_NEAR(big.moments().variance, 5.0 / 3.0, 1e-6);
}

TEST(Quantile, MatchesNumpyType7) {
  const std::vector<double> v{4.0, 1.0, 3.0, 2.0};
  EXPECT_DOUBLE_EQ(quantile(v, 0.5), 2.5);  // numpy.quantile([1,2,3,4], 0.5)
  EXPECT_NEAR(quantile(v, 0.1), 1.3, 1e-15);
  EXPECT_NEAR(quantile(v, 0.9), 3.7, 1e-15);
  EXPECT_DOUBLE_EQ(quantile(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(v, 1.0), 4.0);
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
  const Summary s = summarize({1.0, 2.0, 3.0, 4.0, 100.0});  // a heavy tail pulls the mean, not the median
  EXPECT_DOUBLE_EQ(s.mean, 22.0);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_NEAR(s.p90, 61.6, 1e-12);  // 4 + 0.6·(100 − 4)
}

// Statistics requested singly (row_stats' want flags, issue 20) are bit for bit the full pass's:
// flat, peaked and saturated rows, with zeros and a masked row.
TEST(RowStats, EachStatisticRequestedAloneEqualsTheFullPassBitForBit) {
  Rng rng(11);
  std::vector<std::vector<double>> rows = {{1.0}, {0.0, 0.0, 0.0}, {0.5, 0.5}, {1.0, 0.0, 0.0, 1e-300}};
  for (double spread : {0.01, 1.0, 8.0, 40.0}) {
    for (int n : {2, 7, 128, 1000}) {
      std::vector<double> x(n);
      double mx = -1e300, sum = 0.0;
      for (double& v : x) { v = spread * rng.normal(); mx = std::max(mx, v); }
      for (double& v : x) { v = std::exp(v - mx); sum += v; }
      for (double& v : x) v /= sum;
      rows.push_back(x);
    }
  }
  const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (const auto& x : rows) {
    const int n = static_cast<int>(x.size());
    const RowStats all = row_stats(x.data(), n);
    const RowStats e = row_stats(x.data(), n, kRowEntropy);
    const RowStats f = row_stats(x.data(), n, kRowJacFro);
    const RowStats s = row_stats(x.data(), n, kRowJacSpec);
    const RowStats every = row_stats(x.data(), n, kRowAll);
    EXPECT_TRUE(same(e.entropy, all.entropy) && same(e.eff_support, all.eff_support) && same(e.max_weight, all.max_weight)) << n;
    EXPECT_TRUE(same(f.jac_fro, all.jac_fro)) << n;
    EXPECT_TRUE(same(s.jac_spec, all.jac_spec)) << n;
    EXPECT_TRUE(same(every.entropy, all.entropy) && same(every.jac_fro, all.jac_fro) && same(every.jac_spec, all.jac_spec)) << n;
    EXPECT_EQ(e.jac_spec, 0.0);  // not requested: not computed
    EXPECT_EQ(f.entropy, 0.0);
  }
}

// ---- The float32-row statistics (f32_row_stats, issue 20) against the double reference ----

// Rows as the experiments meet them: float32 softmax outputs (flat to saturated), with masked
// zeros, ties, one-hot rows, subnormal entries, lengths around multiples of 4 (the SIMD tails).
std::vector<std::vector<float>> float_rows() {
  std::vector<std::vector<float>> rows = {{1.0f}, {0.5f, 0.5f}, {0.0f, 1.0f, 0.0f}, {0.4f, 0.4f, 0.1f, 0.1f},
                                          {1.0f, 1e-30f, 0.0f, 3e-39f, 1e-44f}, {0.0f, 0.0f, 0.0f}};
  Rng rng(21);
  for (double spread : {0.01, 1.0, 4.0, 12.0, 40.0, 300.0}) {
    for (int n : {2, 3, 5, 7, 8, 9, 17, 128, 1001, 4099}) {
      std::vector<float> x(n);
      for (float& v : x) v = static_cast<float>(spread * rng.normal());
      if (n > 8) x[n / 3] = -std::numeric_limits<float>::infinity();  // a masked key
      f32_softmax_rows__scalar(x.data(), 1, n);
      rows.push_back(x);
    }
  }
  std::vector<float> tie(130, 0.0f);  // the maximum tied, both in the tail of a 4-lane pass
  tie[128] = tie[129] = 0.5f;
  rows.push_back(tie);
  return rows;
}

TEST(F32Log, WithinOneUlpOfDoubleLogIncludingSubnormals) {
  double worst = 0.0;
  for (float x = 1e-45f; x < 3.0e38f; x = x * 1.0009765f + 1e-45f) {
    const double ref = std::log(static_cast<double>(x));
    const double got = f32_log_nonnegative(x);
    // relative to |ln x|, but near x = 1 (ln x → 0) against float32's resolution of ln x there
    const double tol_base = std::max(std::fabs(ref), std::fabs(static_cast<double>(x) - 1.0));
    worst = std::max(worst, std::fabs(got - ref) / tol_base);
  }
  EXPECT_LE(worst, 1.2e-7);  // about 1 ulp of float32 (7.7e-8 measured)
  EXPECT_TRUE(std::isfinite(f32_log_nonnegative(0.0f)));
  EXPECT_EQ(0.0f * f32_log_nonnegative(0.0f), 0.0f);
}

TEST(F32RowStats, MatchTheDoubleReferenceWithinStatedTolerances) {
  for (const auto& x : float_rows()) {
    const int n = static_cast<int>(x.size());
    const std::vector<double> xd(x.begin(), x.end());
    const RowStats ref = row_stats(xd.data(), n);
    for (Kernel kf : test::families()) {
      const RowStats got = f32_row_stats(x.data(), n, kRowAll, f32_row_kernels(kf));
      const auto rel = [](double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); };
      EXPECT_LE(rel(got.entropy, ref.entropy), 1e-6) << "n=" << n << " H=" << ref.entropy;
      EXPECT_LE(std::fabs(got.eff_support - ref.eff_support), 1e-6 * ref.eff_support * std::max(1.0, ref.entropy)) << n;
      EXPECT_LE(rel(got.max_weight, ref.max_weight), 1e-12) << n;
      EXPECT_LE(rel(got.jac_fro, ref.jac_fro), 1e-12) << "n=" << n << " fro=" << ref.jac_fro;
      EXPECT_LE(rel(got.jac_spec, ref.jac_spec), 1e-6) << "n=" << n << " spec=" << ref.jac_spec;
    }
  }
}

TEST(F32RowStats, SpectralNormWithinOneMillionthOfTheEigenSolve) {
  Rng rng(22);
  for (int n : {2, 3, 5, 8, 17, 40, 128}) {
    for (double sigma : {0.01, 1.0, 4.0, 12.0}) {
      std::vector<float> x(n);
      for (float& v : x) v = static_cast<float>(sigma * rng.normal());
      f32_softmax_rows__scalar(x.data(), 1, n);
      std::vector<double> q(x.begin(), x.end());
      double total = 0.0;
      for (double v : q) total += v;
      for (double& v : q) v /= total;
      const double ref = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(softmax_jacobian_matrix(q.data(), n)).eigenvalues().maxCoeff();
      const RowStats got = f32_row_stats(x.data(), n, kRowJacSpec);
      EXPECT_NEAR(got.jac_spec, ref, 1e-6 * ref + 1e-300) << "n=" << n << " sigma=" << sigma;
    }
  }
}

// The SIMD128 passes are the scalar ones lane for lane: the same bits (in the build with both).
TEST(F32RowStats, FamiliesGiveTheSameBits) {
  if (!simd_available()) GTEST_SKIP() << "the native build has the scalar family only; the wasm suite (SIMD128 build, run by ctest) runs this test";
  const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (const auto& x : float_rows()) {
    const int n = static_cast<int>(x.size());
    const RowStats a = f32_row_stats(x.data(), n, kRowAll, f32_row_kernels(Kernel::Scalar));
    const RowStats b = f32_row_stats(x.data(), n, kRowAll, f32_row_kernels(Kernel::Simd));
    EXPECT_TRUE(same(a.entropy, b.entropy) && same(a.eff_support, b.eff_support) && same(a.max_weight, b.max_weight) &&
                same(a.jac_fro, b.jac_fro) && same(a.jac_spec, b.jac_spec))
        << "n=" << n << ": " << a.entropy << " vs " << b.entropy << ", " << a.jac_spec << " vs " << b.jac_spec;
  }
}

TEST(F32RowStats, EachStatisticRequestedAloneEqualsTheFullPassBitForBit) {
  const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (const auto& x : float_rows()) {
    const int n = static_cast<int>(x.size());
    const RowStats all = f32_row_stats(x.data(), n, kRowAll);
    const RowStats e = f32_row_stats(x.data(), n, kRowEntropy);
    const RowStats f = f32_row_stats(x.data(), n, kRowJacFro);
    const RowStats sp = f32_row_stats(x.data(), n, kRowJacSpec);
    EXPECT_TRUE(same(e.entropy, all.entropy) && same(e.max_weight, all.max_weight)) << n;
    EXPECT_TRUE(same(f.jac_fro, all.jac_fro)) << n;
    EXPECT_TRUE(same(sp.jac_spec, all.jac_spec)) << n;
    EXPECT_EQ(e.jac_spec, 0.0);
    EXPECT_EQ(f.entropy, 0.0);
  }
}

// The soft-capped ‖J D‖₂ by Lanczos stopped at kRowSolveRelTol, against the eigen-solve of (J D)ᵀ(J D).
TEST(Jacobian, ScaledSpectralNormAtTheRowToleranceWithinOneMillionth) {
  Rng rng(23);
  for (int n : {3, 17, 128, 300}) {
    for (double cap : {1.0, 5.0, 30.0}) {
      std::vector<double> s(n), z(n), p(n), d(n);
      for (int i = 0; i < n; ++i) {
        s[i] = 6.0 * rng.normal();
        z[i] = softcap_logit(s[i], cap);
        d[i] = softcap_derivative(s[i], cap);
      }
      f64_softmax__reference(z.data(), p.data(), n);
      const Eigen::MatrixXd JD = softmax_jacobian_matrix(p.data(), n) * Eigen::Map<Eigen::VectorXd>(d.data(), n).asDiagonal();
      const double ref = std::sqrt(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(JD.transpose() * JD).eigenvalues().maxCoeff());
      const JacobianNorms jn = softmax_jacobian_scaled_norms(p.data(), d.data(), n, true, kRowSolveRelTol);
      EXPECT_NEAR(jn.spectral, ref, 1e-6 * ref) << "n=" << n << " cap=" << cap;
    }
  }
}

TEST(Histogram, CountsBinsAndOutliers) {
  const Histogram h = histogram({-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 5.0}, uniform_edges(-2.0, 2.0, 4));
  ASSERT_EQ(h.counts.size(), 4u);
  EXPECT_EQ(h.counts, (std::vector<double>{0.0, 2.0, 2.0, 2.0}));  // [-2,-1) [-1,0) [0,1) [1,2]
  EXPECT_EQ(h.below, 1.0);
  EXPECT_EQ(h.above, 1.0);
  EXPECT_DOUBLE_EQ(h.edges[1], -1.0);
}

// A one-hot row (every other weight exactly 0: row 0 of a causal mask, or a saturated row) has
// J = diag(e₁) − e₁e₁ᵀ = 0: both norms are 0, in the double reference and in both float32 families
// (the secular solve once bisected an empty bracket for 100 steps and returned 2⁻¹⁰¹).
TEST(F32RowStats, AOneHotRowHasAZeroJacobian) {
  for (int n : {1, 2, 5, 64}) {
    std::vector<float> x(n, 0.0f);
    x[n / 2] = 1.0f;
    std::vector<double> xd(x.begin(), x.end());
    const RowStats ref = row_stats(xd.data(), n);
    EXPECT_EQ(ref.jac_spec, 0.0) << n;
    EXPECT_EQ(ref.jac_fro, 0.0) << n;
    const RowStats got = f32_row_stats(x.data(), n, kRowAll);
    EXPECT_EQ(got.jac_spec, 0.0) << n;
    EXPECT_EQ(got.jac_fro, 0.0) << n;
    EXPECT_EQ(got.entropy, 0.0) << n;
    EXPECT_EQ(got.max_weight, 1.0) << n;
  }
}

// A uniform row's entropy is ln n exactly at most: never above it (the float32 ln put a row of three
// equal weights 3e-8 above ln 3, so effective support came out above the number of keys).
TEST(F32RowStats, EntropyNeverAboveLnN) {
  for (int n : {2, 3, 5, 7, 8, 100, 1000, 4096}) {
    const std::vector<float> x(n, 1.0f / static_cast<float>(n));
    const RowStats got = f32_row_stats(x.data(), n, kRowEntropy);
    EXPECT_LE(got.entropy, std::log(static_cast<double>(n))) << n;
    EXPECT_NEAR(got.entropy, std::log(static_cast<double>(n)), 1e-6 * std::log(static_cast<double>(n))) << n;
    EXPECT_LE(got.eff_support, static_cast<double>(n) * (1.0 + 1e-15)) << n;
  }
}

}  // namespace
}  // namespace sqrtdk
