// The experiments: the statistics they report against theory (with Monte-Carlo tolerances
// stated beside each assertion), determinism, consistency between experiments, and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cost.hpp"
#include "experiments.hpp"
#include "test_util.hpp"

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


// ---- Shared products (issue 20): the scales of a sweep and the methods and lengths of longContext
// see the same q·k, computed once with factor 1 and multiplied by each scale in float32. Every
// number must be that of one scale (method, length) at a time, bit for bit.
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
void expect_same_summary(const Summary& a, const Summary& b, const std::string& what) {
  EXPECT_TRUE(same_bits(a.mean, b.mean)) << what << ".mean " << a.mean << " vs " << b.mean;
  EXPECT_TRUE(same_bits(a.median, b.median)) << what << ".median";
  EXPECT_TRUE(same_bits(a.p10, b.p10)) << what << ".p10";
  EXPECT_TRUE(same_bits(a.p90, b.p90)) << what << ".p90";
}
void expect_same_point(const AttentionSummary& a, const AttentionSummary& b, const std::string& what) {
  EXPECT_TRUE(same_bits(a.scale, b.scale)) << what;
  expect_same_summary(a.entropy, b.entropy, what + " entropy");
  expect_same_summary(a.entropy_ratio, b.entropy_ratio, what + " entropy_ratio");
  expect_same_summary(a.max_weight, b.max_weight, what + " max_weight");
  expect_same_summary(a.eff_support, b.eff_support, what + " eff_support");
  expect_same_summary(a.jac_fro, b.jac_fro, what + " jac_fro");
  expect_same_summary(a.jac_spec, b.jac_spec, what + " jac_spec");
  expect_same_summary(a.grad_logits, b.grad_logits, what + " grad_logits");
  expect_same_summary(a.grad_query, b.grad_query, what + " grad_query");
  expect_same_summary(a.sink_mass, b.sink_mass, what + " sink_mass");
  EXPECT_TRUE(same_bits(a.share_above, b.share_above)) << what;
  EXPECT_TRUE(same_bits(a.max_abs_logit, b.max_abs_logit)) << what;
}

TEST(SharedProducts, SweepScalesSharingProductsEqualOneScaleAtATimeBitForBit) {
  const std::vector<Scale> scales{parse_scale("none"), parse_scale("inv_sqrt_dk"), parse_scale("inv_dk"),
                                  parse_scale("inv_sqrt_d_model"), scale_value(0.3), scale_power(0.7)};
  for (Kernel kf : test::families())
    for (int variant = 0; variant < 6; ++variant) {
      SaturationSweepParams p;
      p.dks = {1, 16, 64};
      p.scales = scales;
      p.heads = 3;
      p.seq_len = 40;
      p.seed = 7 + variant;
      p.kernel = kf;
      p.gradients = variant % 2 == 0;
      p.causal = variant == 1 || variant == 4;
      if (variant == 2 || variant == 3) p.softcap = 5.0;
      if (variant == 3 || variant == 4) p.sinks = {0.5, -std::numeric_limits<double>::infinity(), 2.0};
      if (variant == 5) p.correlation = 0.4;
      const SaturationSweepResult shared = saturation_sweep(p);  // the scales share Q Kᵀ and dO Vᵀ
      // one scale at a time: each of its points from its own products, as before sharing
      for (size_t s = 0; s < scales.size(); ++s) {
        SaturationSweepParams one = p;
        one.scales = {scales[s]};
        const SaturationSweepResult alone = saturation_sweep(one);
        for (size_t d = 0; d < p.dks.size(); ++d)
          expect_same_point(shared.points[s][d], alone.points[0][d],
                            std::string(kernel_name(kf)) + " variant " + std::to_string(variant) + " scale " +
                                scale_name(scales[s]) + " dk " + std::to_string(p.dks[d]));
      }
      // and the point of attentionStats with the same inputs
      AttentionStatsParams a;
      a.heads = p.heads;
      a.seq_len = p.seq_len;
      a.dk = 16;
      a.scale = scales[1];
      a.seed = p.seed;
      a.kernel = kf;
      a.gradients = p.gradients;
      a.causal = p.causal;
      a.softcap = p.softcap;
      a.sinks = p.sinks;
      a.correlation = p.correlation;
      expect_same_point(shared.points[1][1], attention_stats(a).summary, "attentionStats");
    }
}

TEST(SharedProducts, ASweepTooLargeToShareGoesOneScaleAtATimeWithTheSameBits) {
  SaturationSweepParams p;
  p.dks = {8};
  p.scales = {parse_scale("none"), parse_scale("inv_sqrt_dk")};
  p.heads = 2;
  p.seq_len = 64;
  p.seed = 4;
  CostEstimate shared, apart;
  ASSERT_TRUE(estimate_cost(shared, [&] { saturation_sweep(p); }));
  const SaturationSweepResult r = saturation_sweep(p);
  // a memory limit that holds the call but not the shared products: the scales go one at a time
  set_work_limits(kBudgetSeconds, shared.bytes - 1.0);
  ASSERT_TRUE(estimate_cost(apart, [&] { saturation_sweep(p); }));
  const SaturationSweepResult low = saturation_sweep(p);
  set_work_limits(kBudgetSeconds, kMaxWorkBytes);
  EXPECT_LT(apart.bytes, shared.bytes);
  // products: 1 + (1 + 2) shared against 2 · 3 apart (gradients on)
  EXPECT_DOUBLE_EQ(shared.terms[0].ns, 4.0 * 2 * 64.0 * 64 * 8 * ns_per_mac(p.kernel));
  EXPECT_DOUBLE_EQ(apart.terms[0].ns, 6.0 * 2 * 64.0 * 64 * 8 * ns_per_mac(p.kernel));
  for (size_t s = 0; s < 2; ++s) expect_same_point(r.points[s][0], low.points[s][0], "scale " + std::to_string(s));
}

TEST(SharedProducts, TensorStatsSharesItsRawProductsWithTheLogits) {
  // tensorStats' moments read the raw q·k, its logits c · q·k the same products: its summary is
  // attentionStats' on the same tensors (drawn as attentionStats draws them), bit for bit
  for (Kernel kf : test::families()) {
    AttentionStatsParams a;
    a.heads = 2;
    a.seq_len = 33;
    a.dk = 12;
    a.seed = 5;
    a.kernel = kf;
    a.causal = true;
    const AttentionStatsResult want = attention_stats(a);
    TensorStatsParams t;
    const size_t n = static_cast<size_t>(a.heads) * a.seq_len * a.dk;
    std::vector<float> Q(n), K(n), V(n);
    {
      Rng r1 = Rng::stream(a.seed, 1), r2 = Rng::stream(a.seed, 2), r3 = Rng::stream(a.seed, 3);
      for (auto& x : Q) x = static_cast<float>(r1.normal());
      for (auto& x : K) x = static_cast<float>(r2.normal());
      for (auto& x : V) x = static_cast<float>(r3.normal());
    }
    t.q = Q;
    t.k = K;
    t.v = V;
    t.heads = a.heads;
    t.seq_len = a.seq_len;
    t.dk = a.dk;
    t.seed = a.seed;
    t.kernel = kf;
    t.causal = true;
    const TensorStatsResult got = tensor_stats(t);
    expect_same_summary(got.summary.entropy, want.summary.entropy, "entropy");
    expect_same_summary(got.summary.jac_spec, want.summary.jac_spec, "jac_spec");
    expect_same_summary(got.summary.grad_query, want.summary.grad_query, "grad_query");
    EXPECT_EQ(got.entropy, want.entropy);
  }
}

// longContext as it was computed before its products were shared: for each method and length the
// logits c · q·k from the product formed with factor c (kernels.hpp's matmul_abt), then the softmax
// and the row statistics.
LongContextPoint long_context_point_apart(const LongContextParams& p, const std::string& method, int L) {
  const KernelTable& kt = kernel_table(p.kernel);
  const int lmax = *std::max_element(p.seq_lens.begin(), p.seq_lens.end());
  std::vector<float> K(static_cast<size_t>(lmax) * p.dk), Q(static_cast<size_t>(p.queries) * p.dk);
  Rng rk = Rng::stream(p.seed, 2), rq = Rng::stream(p.seed, 1);
  for (auto& x : K) x = static_cast<float>(rk.normal());
  for (auto& x : Q) x = static_cast<float>(rq.normal());
  LongContextPoint pt;
  pt.seq_len = L;
  pt.multiplier = long_context_multiplier(method, L, p.train_len, p.options);
  std::vector<float> S(static_cast<size_t>(p.queries) * L);
  kt.matmul_abt(Q.data(), K.data(), S.data(), p.queries, L, p.dk, static_cast<float>(pt.multiplier / std::sqrt(double(p.dk))));
  kt.softmax_rows(S.data(), p.queries, L);
  for (int i = 0; i < p.queries; ++i) {
    const RowStats rs = f32_row_stats(S.data() + static_cast<size_t>(i) * L, L, kRowEntropy);
    pt.entropy += rs.entropy / p.queries;
    pt.max_weight += rs.max_weight / p.queries;
  }
  pt.entropy_ratio = L > 1 ? pt.entropy / std::log(double(L)) : 0.0;
  return pt;
}
void expect_same_long_point(const LongContextPoint& a, const LongContextPoint& b, const std::string& what) {
  EXPECT_EQ(a.seq_len, b.seq_len) << what;
  EXPECT_TRUE(same_bits(a.multiplier, b.multiplier)) << what;
  EXPECT_TRUE(same_bits(a.entropy, b.entropy)) << what << " entropy " << a.entropy << " vs " << b.entropy;
  EXPECT_TRUE(same_bits(a.entropy_ratio, b.entropy_ratio)) << what;
  EXPECT_TRUE(same_bits(a.max_weight, b.max_weight)) << what;
  EXPECT_TRUE(same_bits(a.sink_mass, b.sink_mass)) << what;
}

TEST(SharedProducts, LongContextMethodsAndLengthsSharingProductsEqualOneAtATimeBitForBit) {
  const std::vector<std::string> methods{"fixed", "logn", "yarn", "article", "llama4", "ssmax"};
  for (Kernel kf : test::families())
    for (int dk : {1, 24, 64}) {
      LongContextParams p;
      p.dk = dk;
      p.seq_lens = {64, 5, 300, 1024, 2048};
      p.train_len = 256;
      p.queries = 7;
      p.methods = methods;
      p.seed = 90 + dk;
      p.kernel = kf;
      const std::string at = std::string(kernel_name(kf)) + " dk " + std::to_string(dk);
      const LongContextResult all = long_context(p);  // one product matrix for every method and length
      for (size_t m = 0; m < methods.size(); ++m)
        for (size_t l = 0; l < p.seq_lens.size(); ++l)
          expect_same_long_point(all.points[m][l], long_context_point_apart(p, methods[m], p.seq_lens[l]),
                                 at + " " + methods[m] + " L " + std::to_string(p.seq_lens[l]));
      // the page's pattern: one method per call (the kept products serve them), fewer queries
      // (a preview: the kept matrix's first rows), then more queries than were kept (rows added),
      // then a longer length than was kept (the matrix again), each against the product apart
      for (int queries : {7, 2, 11}) {
        LongContextParams one = p;
        one.queries = queries;
        for (size_t m = 0; m < methods.size(); ++m) {
          one.methods = {methods[m]};
          const LongContextResult r = long_context(one);
          for (size_t l = 0; l < p.seq_lens.size(); ++l)
            expect_same_long_point(r.points[0][l], long_context_point_apart(one, methods[m], p.seq_lens[l]),
                                   at + " q " + std::to_string(queries) + " " + methods[m]);
        }
      }
      LongContextParams longer = p;
      longer.seq_lens = {4096, 64};
      longer.methods = {"logn"};
      const LongContextResult lr = long_context(longer);
      for (size_t l = 0; l < 2; ++l)
        expect_same_long_point(lr.points[0][l], long_context_point_apart(longer, "logn", longer.seq_lens[l]), at + " longer");
    }
}

TEST(SharedProducts, LongContextCostsItsProductsOnceForEveryMethodAndLength) {
  LongContextParams p;
  p.dk = 64;
  p.seq_lens = {64, 128, 16384};
  p.queries = 16;
  p.methods = {"logn", "yarn", "article"};
  p.kernel = Kernel::Scalar;
  CostEstimate e;
  ASSERT_TRUE(estimate_cost(e, [&] { long_context(p); }));
  ASSERT_EQ(e.terms.size(), 3u);
  EXPECT_DOUBLE_EQ(e.terms[0].ns, 16.0 * 16384 * 64 * cost::kNsPerMac);  // queries · max(seqLens) · dk
  // kernel 'scalar': kNsPerLongWeight in the SIMD128 build, kNsPerLongWeightBaseline in any other
#if defined(__wasm_simd128__)
  EXPECT_DOUBLE_EQ(e.terms[1].ns, 3.0 * 16 * (64 + 128 + 16384) * cost::kNsPerLongWeight);
#else
  EXPECT_DOUBLE_EQ(e.terms[1].ns, 3.0 * 16 * (64 + 128 + 16384) * cost::kNsPerLongWeightBaseline);
#endif
  p.sink = 0.0;  // a sink logit adds its per-weight cost
  ASSERT_TRUE(estimate_cost(e, [&] { long_context(p); }));
  EXPECT_DOUBLE_EQ(e.terms[1].ns, 3.0 * 16 * (64 + 128 + 16384) * (long_weight_ns(Kernel::Scalar) + cost::kNsPerLongSinkWeight));
  p.sink = std::numeric_limits<double>::quiet_NaN();
  EXPECT_DOUBLE_EQ(e.terms[2].ns, (16384.0 + 16) * 64 * cost::kNsPerNormal);  // the draws of K and Q
  p.kernel = fast_kernel();
  ASSERT_TRUE(estimate_cost(e, [&] { long_context(p); }));
  EXPECT_DOUBLE_EQ(e.terms[1].ns, 3.0 * 16 * (64 + 128 + 16384) * long_weight_ns(fast_kernel()));
  // K, Q, the products and one (method, length)'s logits, the sink weights
  EXPECT_DOUBLE_EQ(e.bytes, 4.0 * (16384 + 16) * 64 + 8.0 * 16 * 16384 + 4.0 * 16);
}

}  // namespace
}  // namespace sqrtdk
