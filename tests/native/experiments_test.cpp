// The experiments: the statistics they report against theory (with Monte-Carlo tolerances
// stated beside each assertion), determinism, consistency between experiments, and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "experiments.hpp"

namespace sqrtdk {
namespace {

Kernel fast_kernel() { return simd_available() ? Kernel::Simd : Kernel::Scalar; }

TEST(ScoreVariance, VarianceOfDotProductIsDk) {
  // s = q·k with iid N(0, 1) components: Var(s) = d_k, kurtosis 3 + 6/d_k, so the sample
  // variance of N draws has relative std √((2 + 6/d_k)/N). Tolerance: 5 of those.
  ScoreVarianceParams p;
  p.dks = {1, 16, 64, 512};
  p.samples = 20000;
  p.seed = 3;
  p.hist_dk = 64;
  const ScoreVarianceResult r = score_variance(p);
  ASSERT_EQ(r.rows.size(), 4u);
  for (const auto& row : r.rows) {
    const double tol = 5.0 * std::sqrt((2.0 + 6.0 / row.dk) / p.samples);
    EXPECT_NEAR(row.raw.variance / row.dk, 1.0, tol) << "dk=" << row.dk;
    EXPECT_NEAR(row.inv_sqrt_dk.variance, 1.0, tol) << "dk=" << row.dk;
    EXPECT_NEAR(row.inv_dk.variance * row.dk, 1.0, tol) << "dk=" << row.dk;
    EXPECT_NEAR(row.raw.mean, 0.0, 5.0 * std::sqrt(row.dk / double(p.samples))) << "dk=" << row.dk;
    EXPECT_DOUBLE_EQ(row.theory_raw.variance, row.dk);
    EXPECT_DOUBLE_EQ(row.theory_raw.std, std::sqrt(double(row.dk)));
    EXPECT_DOUBLE_EQ(row.theory_inv_sqrt_dk.variance, 1.0);
    EXPECT_DOUBLE_EQ(row.theory_inv_dk.variance, 1.0 / row.dk);
  }
  // C1: at d_k = 512 the std of q·k is √512 ≈ 22.6.
  EXPECT_NEAR(r.rows[3].theory_raw.std, 22.627, 1e-3);
  EXPECT_NEAR(r.rows[3].raw.std, 22.627, 22.627 * 2.5 * std::sqrt((2.0 + 6.0 / 512) / p.samples));
}

TEST(ScoreVariance, ComponentVarianceScalesAsSigmaToTheFourth) {
  ScoreVarianceParams p;
  p.dks = {32};
  p.samples = 20000;
  p.variance = 4.0;  // σ² = 4: Var(q·k) = d_k σ⁴ = 512
  p.hist_dk = 32;
  const ScoreVarianceResult r = score_variance(p);
  EXPECT_DOUBLE_EQ(r.rows[0].theory_raw.variance, 512.0);
  EXPECT_NEAR(r.rows[0].raw.variance / 512.0, 1.0, 5.0 * std::sqrt((2.0 + 6.0 / 32) / p.samples));
}

TEST(ScoreVariance, HistogramHoldsEverySampleAndStreamsArePerDk) {
  ScoreVarianceParams p;
  p.dks = {8, 64};
  p.samples = 5000;
  p.seed = 11;
  p.hist_dk = 64;
  p.bins = 40;
  const ScoreVarianceResult a = score_variance(p);
  double total = a.hist_raw.below + a.hist_raw.above;
  for (double c : a.hist_raw.counts) total += c;
  EXPECT_EQ(total, p.samples);
  ASSERT_EQ(a.hist_raw.edges.size(), 41u);
  EXPECT_DOUBLE_EQ(a.hist_raw.edges.front(), -5.0 * 8.0);  // ±5 std, std = √64
  EXPECT_DOUBLE_EQ(a.hist_inv_sqrt_dk.edges.back(), 5.0);
  EXPECT_EQ(a.hist_raw.counts, a.hist_inv_sqrt_dk.counts);  // the same scores, rescaled
  // d_k = 64's numbers do not depend on the rest of the list.
  ScoreVarianceParams q = p;
  q.dks = {64};
  const ScoreVarianceResult b = score_variance(q);
  EXPECT_EQ(b.rows[0].raw.variance, a.rows[1].raw.variance);
  // The same seed gives the same numbers; another seed does not.
  EXPECT_EQ(score_variance(p).rows[0].raw.variance, a.rows[0].raw.variance);
  q.seed = 12;
  EXPECT_NE(score_variance(q).rows[0].raw.variance, a.rows[1].raw.variance);
}

TEST(AttentionStats, EntropyFollowsTheScale) {
  // The article's check (C4): q, k ~ randn(1, 8, 128, 512).
  AttentionStatsParams p;
  p.heads = 8;
  p.seq_len = 128;
  p.dk = 512;
  p.seed = 0;
  p.kernel = fast_kernel();
  p.scale = parse_scale("inv_dk");
  const AttentionStatsResult inv_dk = attention_stats(p);
  p.scale = parse_scale("inv_sqrt_dk");
  const AttentionStatsResult inv_sqrt = attention_stats(p);
  p.scale = parse_scale("none");
  const AttentionStatsResult none = attention_stats(p);
  const double lnL = std::log(128.0);
  EXPECT_DOUBLE_EQ(none.log_seq_len, lnL);
  // 1/d_k: logits with variance 1/512, nearly uniform: H ≈ ln L − σ²/2 = ln L − 0.001.
  EXPECT_NEAR(inv_dk.summary.entropy.mean, lnL - 0.5 / 512, 0.002);
  // 1/√d_k: logits ~ N(0, 1): H ≈ ln L − 1/2 for large L (ln Z ≈ ln L + σ²/2, E_p[s] ≈ σ²),
  // i.e. about 4.35, not ln 128 ≈ 4.85 as the article says.
  EXPECT_NEAR(inv_sqrt.summary.entropy.mean, lnL - 0.5, 0.06);
  // None: logits with std √512 ≈ 22.6: most rows are nearly one-hot.
  EXPECT_LT(none.summary.entropy.median, 0.1);
  EXPECT_GT(none.summary.max_weight.mean, 0.85);
  EXPECT_GT(none.summary.share_above, 0.5);
  EXPECT_EQ(inv_sqrt.summary.share_above, 0.0);
  // The Jacobian shrinks with saturation: typical rows far smaller without the scale.
  EXPECT_LT(none.summary.jac_fro.median, 0.1 * inv_sqrt.summary.jac_fro.median);
  // Shapes of what comes back.
  EXPECT_EQ(none.entropy.size(), 8u * 128u);
  EXPECT_EQ(none.heatmap_size, 128);
  EXPECT_EQ(none.heatmap.size(), 128u * 128u);
  EXPECT_DOUBLE_EQ(inv_sqrt.summary.scale, 1.0 / std::sqrt(512.0));
}

TEST(AttentionStats, HeatmapRowsAreDistributionsAndPerRowCanBeOff) {
  AttentionStatsParams p;
  p.heads = 2;
  p.seq_len = 40;
  p.dk = 16;
  p.heatmap_size = 40;
  p.per_row = false;
  p.kernel = fast_kernel();
  const AttentionStatsResult r = attention_stats(p);
  EXPECT_TRUE(r.entropy.empty());
  for (int i = 0; i < 40; ++i) {
    double s = 0.0;
    for (int j = 0; j < 40; ++j) s += r.heatmap[i * 40 + j];
    EXPECT_NEAR(s, 1.0, 1e-6);
  }
}

TEST(AttentionStats, KernelsAgreeBeyondRounding) {
  if (!simd_available()) return;  // natively there is one family; the wasm run covers this
  AttentionStatsParams p;
  p.heads = 4;
  p.seq_len = 65;
  p.dk = 33;
  p.scale = parse_scale("none");
  p.kernel = Kernel::Scalar;
  const AttentionStatsResult a = attention_stats(p);
  p.kernel = Kernel::Simd;
  const AttentionStatsResult b = attention_stats(p);
  EXPECT_NEAR(a.summary.entropy.mean, b.summary.entropy.mean, 1e-6);
  EXPECT_NEAR(a.summary.jac_fro.median, b.summary.jac_fro.median, 1e-6 * a.summary.jac_fro.median);
  EXPECT_NEAR(a.summary.grad_query.mean, b.summary.grad_query.mean, 1e-5 * a.summary.grad_query.mean);
}

TEST(SaturationSweep, PointsEqualAttentionStatsAtTheSameSetting) {
  SaturationSweepParams s;
  s.dks = {4, 64};
  s.scales = {parse_scale("none"), parse_scale("inv_sqrt_dk"), parse_scale("inv_dk"), parse_scale("inv_sqrt_d_model")};
  s.heads = 2;
  s.seq_len = 32;
  s.seed = 9;
  s.kernel = fast_kernel();
  const SaturationSweepResult r = saturation_sweep(s);
  ASSERT_EQ(r.points.size(), 4u);
  ASSERT_EQ(r.points[0].size(), 2u);
  AttentionStatsParams a;
  a.heads = 2;
  a.seq_len = 32;
  a.dk = 64;
  a.seed = 9;
  a.kernel = s.kernel;
  a.scale = parse_scale("inv_sqrt_d_model");
  const AttentionStatsResult one = attention_stats(a);
  EXPECT_EQ(r.points[3][1].entropy.mean, one.summary.entropy.mean);
  EXPECT_EQ(r.points[3][1].grad_query.median, one.summary.grad_query.median);
  EXPECT_DOUBLE_EQ(r.points[3][1].scale, 1.0 / std::sqrt(128.0));
  // Entropy falls as the scale grows: 1/d_k ≥ 1/√d_k ≥ none at d_k = 64.
  EXPECT_GT(r.points[2][1].entropy.mean, r.points[1][1].entropy.mean);
  EXPECT_GT(r.points[1][1].entropy.mean, r.points[0][1].entropy.mean);
}

TEST(SoftmaxJacobian, MaskedEntriesAndAllMaskedRow) {
  const double ninf = -std::numeric_limits<double>::infinity();
  const SoftmaxJacobianResult a = softmax_jacobian(std::vector<double>{0.0, ninf, 0.0});
  EXPECT_DOUBLE_EQ(a.probs[0], 0.5);
  EXPECT_EQ(a.probs[1], 0.0);
  EXPECT_DOUBLE_EQ(a.spectral, 0.5);
  const SoftmaxJacobianResult b = softmax_jacobian(std::vector<double>{ninf, ninf});
  for (double v : b.probs) EXPECT_EQ(v, 0.0);
  for (double v : b.jacobian) EXPECT_EQ(v, 0.0);
  EXPECT_EQ(b.frobenius, 0.0);
  EXPECT_EQ(b.entropy, 0.0);
}

// Expects std::invalid_argument whose message contains every fragment.
template <typename F>
void expect_refused(F&& f, std::vector<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    for (const auto& frag : fragments) EXPECT_NE(std::string(e.what()).find(frag), std::string::npos) << e.what();
  }
}

TEST(Errors, InvalidParametersNameTheValue) {
  AttentionStatsParams a;
  a.dk = 0;
  expect_refused([&] { attention_stats(a); }, {"dk = 0", "1..16384"});
  a.dk = 64;
  a.seq_len = 8193;
  expect_refused([&] { attention_stats(a); }, {"seqLen = 8193", "1..8192"});
  a.seq_len = 128;
  a.heads = 65;
  expect_refused([&] { attention_stats(a); }, {"heads = 65"});
  a.heads = 64;
  a.seq_len = 8192;
  expect_refused([&] { attention_stats(a); }, {"MiB", "512 MiB"});
  expect_refused([] { scale_value(-1.0); }, {"scale = -1"});
  expect_refused([] { scale_value(std::numeric_limits<double>::infinity()); }, {"scale = inf"});
  expect_refused([] { parse_scale("sqrt"); }, {"scale = 'sqrt'"});
  ScoreVarianceParams s;
  s.dks = {64};
  s.samples = 1;
  expect_refused([&] { score_variance(s); }, {"samples = 1"});
  s.samples = 100;
  s.dks = {64, 20000};
  expect_refused([&] { score_variance(s); }, {"dk = 20000"});
  expect_refused([] { softmax_jacobian(std::vector<double>{1.0, std::nan("")}); }, {"logits[1] = NaN"});
  expect_refused([] { softmax_jacobian(std::vector<double>{}); }, {"logits.length = 0"});
  std::vector<float> q(10, 0.0f), k(12, 0.0f);
  AttentionParams at;
  at.q = q;
  at.k = k;
  at.v = q;
  at.heads = 1;
  at.seq_len = 5;
  at.dk = 2;
  expect_refused([&] { attention(at); }, {"k.length = 12", "10"});
  std::vector<float> bad(10, 0.0f);
  bad[3] = std::numeric_limits<float>::quiet_NaN();
  at.k = bad;
  expect_refused([&] { attention(at); }, {"k[3] = NaN"});
}

}  // namespace
}  // namespace sqrtdk

namespace sqrtdk {
namespace {

TEST(AttentionStats, WithoutGradientsTheForwardQuantitiesAreUnchanged) {
  AttentionStatsParams p;
  p.heads = 2;
  p.seq_len = 48;
  p.dk = 24;
  p.seed = 6;
  p.scale = parse_scale("none");
  const AttentionStatsResult full = attention_stats(p);
  p.gradients = false;
  const AttentionStatsResult fwd = attention_stats(p);
  // Q and K come from their own streams, so skipping V and dO changes nothing upstream.
  EXPECT_EQ(fwd.summary.entropy.mean, full.summary.entropy.mean);
  EXPECT_EQ(fwd.summary.jac_fro.median, full.summary.jac_fro.median);
  EXPECT_EQ(fwd.heatmap, full.heatmap);
  EXPECT_TRUE(std::isnan(fwd.summary.grad_query.mean));
  EXPECT_TRUE(std::isnan(fwd.summary.grad_logits.median));
  EXPECT_TRUE(fwd.grad_query.empty());
  EXPECT_EQ(fwd.entropy.size(), full.entropy.size());
  SaturationSweepParams s;
  s.dks = {24};
  s.scales = {parse_scale("none")};
  s.heads = 2;
  s.seq_len = 48;
  s.seed = 6;
  s.gradients = false;
  EXPECT_EQ(saturation_sweep(s).points[0][0].entropy.mean, full.summary.entropy.mean);
}

}  // namespace
}  // namespace sqrtdk
