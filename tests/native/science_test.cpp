// Issue 19: where the iid argument ends (1 of 2). Correlated q, k (μP's case), the d_k^−p scale and attention
// sinks (gpt-oss); science_models_test.cpp holds the rest. The values asserted are the issue's; Monte-Carlo
// tolerances are stated beside each assertion.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "model_scales.hpp"
#include "rng.hpp"
#include "test_util.hpp"

namespace sqrtdk {
namespace {

using test::families;
using test::stream_tensor;

// attentionStats at a shape, seed and kernel family (the rest at its defaults).
AttentionStatsParams stats_params(int heads, int L, int dk, uint32_t seed, Kernel kf = Kernel::Scalar) {
  AttentionStatsParams a;
  a.heads = heads;
  a.seq_len = L;
  a.dk = dk;
  a.seed = seed;
  a.kernel = kf;
  return a;
}


// ---- correlation ------------------------------------------------------------------------------

// scoreVariance at one d_k (histogrammed too) with a correlation.
ScoreVarianceParams one_dk(int dk, int samples, uint32_t seed, double rho) {
  ScoreVarianceParams p;
  p.dks = {dk};
  p.samples = samples;
  p.seed = seed;
  p.hist_dk = dk;
  p.correlation = rho;
  return p;
}

TEST(Correlation, MatchedPairMeanAndVarianceAtDk128) {
  // ρ = 0.1, d_k = 128: E[q·k] = ρ d_k = 12.8, Var(q·k) = d_k (1 + ρ²) = 129.28. With N = 100000
  // pairs the sample mean has std √(129.28 / N) = 0.036 (tolerance 5 of those, 0.18); the sample
  // variance has relative std √((κ − 1) / N) with kurtosis κ ≈ 3 (+ O(1/d_k)): 5 · √(3 / N) ≈ 2.7 %.
  const ScoreVarianceParams p = one_dk(128, 100000, 5, 0.1);
  const ScoreVarianceResult r = score_variance(p);
  const auto& row = r.rows[0];
  EXPECT_NEAR(row.theory_raw.mean, 12.8, 1e-12);
  EXPECT_NEAR(row.theory_raw.variance, 129.28, 1e-10);
  EXPECT_NEAR(row.theory_inv_dk.mean, 0.1, 1e-15);
  EXPECT_NEAR(row.theory_inv_sqrt_dk.mean, 0.1 * std::sqrt(128.0), 1e-13);
  EXPECT_NEAR(row.theory_inv_sqrt_dk.variance, 1.01, 1e-13);
  EXPECT_NEAR(row.raw.mean, 12.8, 5.0 * std::sqrt(129.28 / p.samples));
  EXPECT_NEAR(row.raw.variance / 129.28, 1.0, 5.0 * std::sqrt(3.0 / p.samples));
  // The histogram is centred on the theoretical mean, ±5 theoretical std, and holds every sample.
  EXPECT_NEAR(r.hist_raw.edges.front(), 12.8 - 5.0 * std::sqrt(129.28), 1e-9);
  EXPECT_NEAR(r.hist_raw.edges.back(), 12.8 + 5.0 * std::sqrt(129.28), 1e-9);
  double total = r.hist_raw.below + r.hist_raw.above;
  for (double c : r.hist_raw.counts) total += c;
  EXPECT_EQ(total, p.samples);
}

TEST(Correlation, NegativeAndFullCorrelation) {
  // ρ = 1: k = q, q·k = |q|², mean d_k, variance 2 d_k (a χ²_{d_k}); ρ = −0.5: mean −d_k/2.
  ScoreVarianceParams p = one_dk(32, 40000, 0, 1.0);
  const ScoreVarianceResult a = score_variance(p);
  EXPECT_NEAR(a.rows[0].theory_raw.variance, 64.0, 1e-12);
  EXPECT_NEAR(a.rows[0].raw.mean, 32.0, 5.0 * std::sqrt(64.0 / p.samples));
  // χ²_32 has kurtosis 3 + 12/32: relative std of the sample variance √((2 + 0.375) / N)
  EXPECT_NEAR(a.rows[0].raw.variance / 64.0, 1.0, 5.0 * std::sqrt(2.375 / p.samples));
  p.correlation = -0.5;
  const ScoreVarianceResult b = score_variance(p);
  EXPECT_NEAR(b.rows[0].theory_raw.mean, -16.0, 1e-12);
  EXPECT_NEAR(b.rows[0].raw.mean, -16.0, 5.0 * std::sqrt(40.0 / p.samples));
}

TEST(Correlation, ZeroIsTodaysDrawsBitForBit) {
  // ρ = 0 draws exactly what the independent sampler drew: q then z from stream (seed, d_k),
  // pair after pair, summed in the same order.
  const ScoreVarianceResult r = score_variance(one_dk(16, 500, 21, 0.0));
  Rng rng = Rng::stream(21, 16);
  MomentAccumulator acc;
  std::vector<double> q(16);
  for (int s = 0; s < 500; ++s) {
    for (double& x : q) x = rng.normal();
    double dot = 0.0;
    for (int i = 0; i < 16; ++i) dot += q[i] * rng.normal();
    acc.add(dot);
  }
  EXPECT_EQ(r.rows[0].raw.variance, acc.moments().variance);
  EXPECT_EQ(r.rows[0].raw.mean, acc.moments().mean);
  EXPECT_EQ(r.hist_raw.edges.front(), -5.0 * 4.0);
}

TEST(Correlation, AttentionKeysAreTheDocumentedMixOfTheSameDraws) {
  // attentionStats with ρ equals tensorStats on Q (stream 1) and K = ρ Q + √(1 − ρ²) Z (Z: stream 2),
  // formed here by hand: V (stream 3) and dO (stream 4) are drawn the same way by both. ρ = 0 is Z.
  const int heads = 2, L = 24, dk = 16;
  const size_t n = static_cast<size_t>(heads) * L * dk;
  const std::vector<float> Q = stream_tensor(8, 1, n), Z = stream_tensor(8, 2, n);
  for (double rho : {0.0, 0.3, -0.8}) {
    std::vector<float> K(n);
    for (size_t i = 0; i < n; ++i)
      K[i] = rho == 0.0 ? Z[i] : static_cast<float>(rho * Q[i] + std::sqrt(1.0 - rho * rho) * Z[i]);
    for (Kernel kf : families()) {
      AttentionStatsParams a = stats_params(heads, L, dk, 8, kf);
      a.correlation = rho;
      const AttentionStatsResult got = attention_stats(a);
      TensorStatsParams t;
      t.q = Q;
      t.k = K;
      t.heads = heads;
      t.seq_len = L;
      t.dk = dk;
      t.seed = 8;
      t.kernel = kf;
      const TensorStatsResult want = tensor_stats(t);
      EXPECT_EQ(got.entropy, want.entropy) << "rho=" << rho;
      EXPECT_EQ(got.jac_fro, want.jac_fro) << "rho=" << rho;
      EXPECT_EQ(got.summary.grad_query.mean, want.summary.grad_query.mean) << "rho=" << rho;
    }
  }
}

TEST(Correlation, MuPCaseInvDkKeepsEntropyFlatInvSqrtDkSaturates) {
  // ρ = 0.5: the matched logit is ρ√d_k under 1/√d_k (4 at d_k 64, 16 at 1024: the rows saturate on
  // their match) and ρ under 1/d_k at every d_k (the other logits, N(0, 1/d_k), shrink toward 0).
  SaturationSweepParams s;
  s.dks = {64, 1024};
  s.scales = {parse_scale("inv_sqrt_dk"), parse_scale("inv_dk")};
  s.heads = 2;
  s.seq_len = 64;
  s.seed = 3;
  s.gradients = false;
  s.correlation = 0.5;
  const SaturationSweepResult r = saturation_sweep(s);
  const auto& sq = r.points[0];
  const auto& lin = r.points[1];
  EXPECT_GT(sq[1].max_weight.mean, 0.99);                        // e^16 against 63 keys near e^0
  EXPECT_LT(sq[1].entropy.mean, sq[0].entropy.mean - 1.5);       // a collapse of more than 1.5 nats
  EXPECT_NEAR(lin[1].entropy.mean, lin[0].entropy.mean, 0.05);   // flat within 0.05 nats
  EXPECT_GT(lin[1].entropy.mean, std::log(64.0) - 0.05);         // near the ceiling ln 64
  // Without correlation 1/√d_k is the flat one (the iid argument).
  s.correlation = 0.0;
  const SaturationSweepResult iid = saturation_sweep(s);
  EXPECT_NEAR(iid.points[0][1].entropy.mean, iid.points[0][0].entropy.mean, 0.1);
}

// ---- the exponent scale d_k^−p ---------------------------------------------------------------

TEST(ScalePower, NamedExponentsGiveTheNamedScalesExactly) {
  for (int dk : {1, 3, 64, 129, 16384}) {
    EXPECT_EQ(resolve_scale(scale_power(0.5), dk, 4), resolve_scale(parse_scale("inv_sqrt_dk"), dk, 4));
    EXPECT_EQ(resolve_scale(scale_power(1.0), dk, 4), resolve_scale(parse_scale("inv_dk"), dk, 4));
    EXPECT_EQ(resolve_scale(scale_power(0.0), dk, 4), 1.0);
  }
  EXPECT_NEAR(resolve_scale(scale_power(0.25), 16, 1), 0.5, 1e-15);
  EXPECT_NEAR(resolve_scale(scale_power(1.0 / 3.0), 512, 1), 0.125, 1e-15);  // ∛512 = 8
  EXPECT_NEAR(resolve_scale(scale_power(2.0), 8, 1), 1.0 / 64.0, 1e-15);
  EXPECT_EQ(scale_name(scale_power(0.75)), "d_k^-0.75");
}

TEST(ScalePower, SweepUsesTheExponent) {
  SaturationSweepParams s;
  s.dks = {64};
  s.scales = {scale_power(0.5), parse_scale("inv_sqrt_dk")};
  s.heads = 2;
  s.seq_len = 16;
  const SaturationSweepResult r = saturation_sweep(s);
  EXPECT_EQ(r.points[0][0].entropy.mean, r.points[1][0].entropy.mean);
  EXPECT_EQ(r.points[0][0].scale, 0.125);
}

// ---- attention sinks --------------------------------------------------------------------------

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

TEST(Sinks, TheIssuesRowInBothFamiliesAndTheReference) {
  // [2, 1, 0] with S = 1: e^2, e^1, e^0 over e^1 + e^2 + e^1 + e^0 = 20.2076: 0.5344, 0.1966, 0.0723; sink 0.1966.
  const double x[3] = {2, 1, 0};
  double p[3];
  const double ws = f64_softmax_sink__reference(x, 1.0, p, 3);
  EXPECT_NEAR(p[0], 0.5344, 5e-5);
  EXPECT_NEAR(p[1], 0.1966, 5e-5);
  EXPECT_NEAR(p[2], 0.0723, 5e-5);
  EXPECT_NEAR(ws, 0.1966, 5e-5);
  EXPECT_NEAR(p[0] + p[1] + p[2] + ws, 1.0, 1e-15);
  for (Kernel kf : families()) {
    std::vector<float> row{2, 1, 0};
    float w = -1;
    kernel_table(kf).softmax_rows_sink(row.data(), 1, 3, 1.0f, &w);
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(row[j], p[j], 1e-6) << kernel_name(kf);
    EXPECT_NEAR(w, ws, 1e-6);
  }
}

TEST(Sinks, KernelsMatchTheReferenceAroundTheSimdWidths) {
  for (Kernel kf : families()) {
    const KernelTable& kt = kernel_table(kf);
    for (int cols : {1, 3, 4, 5, 15, 16, 17, 33, 100}) {
      const int rows = 3;
      std::vector<float> x = test::randn(static_cast<size_t>(rows) * cols, 40 + cols, 3.0);
      x[0] = -std::numeric_limits<float>::infinity();  // a masked key
      for (float sink : {-2.0f, 0.5f, 9.0f}) {
        std::vector<float> y = x;
        std::vector<float> w(rows);
        kt.softmax_rows_sink(y.data(), rows, cols, sink, w.data());
        for (int r = 0; r < rows; ++r) {
          std::vector<double> xd(x.begin() + r * cols, x.begin() + (r + 1) * cols), pd(cols);
          const double wd = f64_softmax_sink__reference(xd.data(), sink, pd.data(), cols);
          for (int j = 0; j < cols; ++j) EXPECT_NEAR(y[r * cols + j], pd[j], 1e-6) << kernel_name(kf) << " cols=" << cols;
          EXPECT_NEAR(w[r], wd, 1e-6) << kernel_name(kf) << " cols=" << cols;
        }
      }
    }
  }
}

TEST(Sinks, MinusInfinityIsNoSinkBitForBitAndAMaskedRowGoesToTheSink) {
  for (Kernel kf : families()) {
    const KernelTable& kt = kernel_table(kf);
    for (int cols : {1, 7, 16, 37}) {
      const std::vector<float> x = test::randn(static_cast<size_t>(4) * cols, cols, 4.0);
      std::vector<float> a = x, b = x, w(4, -1.0f);
      kt.softmax_rows(a.data(), 4, cols);
      kt.softmax_rows_sink(b.data(), 4, cols, -std::numeric_limits<float>::infinity(), w.data());
      EXPECT_EQ(a, b) << kernel_name(kf) << " cols=" << cols;
      for (float v : w) EXPECT_EQ(v, 0.0f);
      // every key masked: zeros, the sink takes all (weight 1); without a sink zeros and weight 0
      std::vector<float> dead(cols, -std::numeric_limits<float>::infinity());
      float ws = -1;
      kt.softmax_rows_sink(dead.data(), 1, cols, 0.25f, &ws);
      for (float v : dead) EXPECT_EQ(v, 0.0f);
      EXPECT_EQ(ws, 1.0f);
    }
  }
}

// q, k, v [heads, L, dk] for the attention tests.
struct Qkv {
  std::vector<float> q, k, v;
};
Qkv qkv(int heads, int L, int dk, uint32_t seed) {
  const size_t n = static_cast<size_t>(heads) * L * dk;
  return {test::randn(n, seed), test::randn(n, seed + 1), test::randn(n, seed + 2)};
}

TEST(Sinks, AttentionAgainstTheReferenceWithMasksAndFullyMaskedRows) {
  const int heads = 3, L = 19, dk = 12;
  const Qkv t = qkv(heads, L, dk, 70);
  // rows 2 and 5 fully masked, some keys masked elsewhere
  std::vector<float> mask(static_cast<size_t>(L) * L, 0.0f);
  for (int j = 0; j < L; ++j) mask[2 * L + j] = mask[5 * L + j] = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < L; ++i) mask[i * L + (i * 7) % L] = -std::numeric_limits<float>::infinity();
  const std::vector<double> sinks{0.7, kNegInf, -1.5};
  for (Kernel kf : families()) {
    for (MaskedRow rule : {MaskedRow::Zero, MaskedRow::Nan}) {
      AttentionParams p = test::attention_params(t.q, t.k, t.v, heads, L, dk, kf);
      p.mask = mask;
      p.masked_row = rule;
      p.sinks = sinks;
      const AttentionResult r = attention(p);
      std::vector<double> out(t.q.size()), w(static_cast<size_t>(heads) * L * L), sw(static_cast<size_t>(heads) * L);
      f64_attention_masked__reference(t.q.data(), t.k.data(), t.v.data(), heads, L, dk, 1.0 / std::sqrt(double(dk)),
                                      mask.data(), false, 0.0, rule == MaskedRow::Nan, out.data(), w.data(),
                                      sinks.data(), sw.data());
      ASSERT_EQ(r.sink_weights.size(), sw.size());
      for (size_t i = 0; i < w.size(); ++i) {
        if (std::isnan(w[i])) {
          EXPECT_TRUE(std::isnan(r.weights[i])) << i;
          continue;
        }
        EXPECT_NEAR(r.weights[i], w[i], 1e-6) << i;
      }
      for (size_t i = 0; i < out.size(); ++i) {
        if (!std::isnan(out[i])) {
          EXPECT_NEAR(r.output[i], out[i], 1e-5) << i;
        }
      }
      for (size_t i = 0; i < sw.size(); ++i) EXPECT_NEAR(r.sink_weights[i], sw[i], 1e-6) << i;
      // A fully masked row: zeros and sink weight 1 where the head has a sink, under either rule;
      // head 1 (−∞: no sink) follows the rule (NaN or zeros).
      for (int h : {0, 2}) {
        EXPECT_EQ(r.sink_weights[h * L + 2], 1.0f);
        for (int j = 0; j < L; ++j) EXPECT_EQ(r.weights[(static_cast<size_t>(h) * L + 5) * L + j], 0.0f);
        for (int d = 0; d < dk; ++d) EXPECT_EQ(r.output[(static_cast<size_t>(h) * L + 2) * dk + d], 0.0f);
      }
      const float dead1 = r.weights[(static_cast<size_t>(1) * L + 2) * L];
      if (rule == MaskedRow::Nan) {
        EXPECT_TRUE(std::isnan(dead1));
      } else {
        EXPECT_EQ(dead1, 0.0f);
      }
      // rows sum to 1 − p_sink
      for (int h = 0; h < heads; ++h)
        for (int i = 0; i < L; ++i) {
          if (i == 2 || i == 5) continue;
          double sum = 0.0;
          for (int j = 0; j < L; ++j) sum += r.weights[(static_cast<size_t>(h) * L + i) * L + j];
          EXPECT_NEAR(sum + r.sink_weights[h * L + i], 1.0, 1e-6);
        }
      EXPECT_NEAR(mean_sink_mass(r.sink_weights), [&] {
        double s = 0;
        for (double v : sw) s += v;
        return s / sw.size();
      }(), 1e-6);
    }
  }
}

TEST(Sinks, AttentionWithEverySinkMinusInfinityIsTheSinkFreePassBitForBit) {
  const int heads = 2, L = 21, dk = 8;
  const Qkv t = qkv(heads, L, dk, 90);
  const std::vector<double> none{kNegInf, kNegInf};
  for (Kernel kf : families()) {
    for (bool causal : {false, true}) {
      AttentionParams p = test::attention_params(t.q, t.k, t.v, heads, L, dk, kf);
      p.causal = causal;
      const AttentionResult a = attention(p);
      p.sinks = none;
      const AttentionResult b = attention(p);
      EXPECT_EQ(a.weights, b.weights);
      EXPECT_EQ(a.output, b.output);
      for (float w : b.sink_weights) EXPECT_EQ(w, 0.0f);
      p.want_weights = false;  // the path without weights (the fused kernel without sinks)
      const AttentionResult c = attention(p);
      EXPECT_EQ(a.output, c.output);
    }
  }
}

TEST(Sinks, AttentionStatsWithMinusInfinityIsTodayBitForBit) {
  for (Kernel kf : families()) {
    AttentionStatsParams a = stats_params(3, 20, 16, 6, kf);
    a.causal = true;
    a.softcap = 5.0;
    const AttentionStatsResult x = attention_stats(a);
    a.sinks = {kNegInf, kNegInf, kNegInf};
    const AttentionStatsResult y = attention_stats(a);
    EXPECT_EQ(x.entropy, y.entropy);
    EXPECT_EQ(x.jac_spec, y.jac_spec);
    EXPECT_EQ(x.grad_query, y.grad_query);
    EXPECT_EQ(x.heatmap, y.heatmap);
    EXPECT_EQ(x.summary.entropy_ratio.mean, y.summary.entropy_ratio.mean);
    EXPECT_TRUE(std::isnan(x.summary.sink_mass.mean));
    EXPECT_EQ(y.summary.sink_mass.mean, 0.0);
  }
}

// The loss ℓ = Σ dO ⊙ (W V) of one head in double, W the key weights with a sink (q row i replaced
// by qi), and its logits row i given explicitly (for dS) — for finite differences.
double head_loss(const std::vector<double>& Q, const std::vector<double>& K, const std::vector<double>& V,
                 const std::vector<double>& dO, int L, int dk, double c, double sink, int row,
                 const std::vector<double>* logits_row) {
  double loss = 0.0;
  std::vector<double> s(L), w(L);
  for (int i = 0; i < L; ++i) {
    for (int j = 0; j < L; ++j) {
      double dot = 0.0;
      for (int d = 0; d < dk; ++d) dot += Q[i * dk + d] * K[j * dk + d];
      s[j] = c * dot;
    }
    if (i == row && logits_row != nullptr) s = *logits_row;
    f64_softmax_sink__reference(s.data(), sink, w.data(), L);
    for (int d = 0; d < dk; ++d) {
      double o = 0.0;
      for (int j = 0; j < L; ++j) o += w[j] * V[j * dk + d];
      loss += dO[i * dk + d] * o;
    }
  }
  return loss;
}

TEST(Sinks, GradientsAndJacobianNormsAgreeWithFiniteDifferences) {
  // One head with a sink: ‖dQ_i‖, ‖dS_i‖ (float32 pipeline) against central differences of the loss
  // in double (step 1e-5: truncation ~1e-10, rounding ~1e-11, far below the float32 tolerance
  // 2e-4 relative), and ‖J‖_F of the (L + 1)² softmax Jacobian (keys and sink) by differences too.
  const int L = 10, dk = 6;
  const double sink = 1.25, c = 1.0 / std::sqrt(double(dk));
  for (Kernel kf : families()) {
    AttentionStatsParams a = stats_params(1, L, dk, 12, kf);
    a.variance = 2.0;
    a.sinks = {sink};
    const AttentionStatsResult r = attention_stats(a);
    const size_t n = static_cast<size_t>(L) * dk;
    auto to_d = [](const std::vector<float>& f) { return std::vector<double>(f.begin(), f.end()); };
    const double sigma = std::sqrt(2.0);
    auto draw = [&](uint64_t stream) {
      Rng rng = Rng::stream(12, stream);
      std::vector<float> t(n);
      for (auto& x : t) x = static_cast<float>(sigma * rng.normal());
      return to_d(t);
    };
    std::vector<double> Q = draw(1), K = draw(2), V = draw(3), dO = draw(4);
    EXPECT_GT(r.summary.sink_mass.mean, 0.0);
    for (int row : {0, 4, 9}) {
      const double h = 1e-5;
      double g2 = 0.0;
      for (int d = 0; d < dk; ++d) {
        std::vector<double> Qp = Q, Qm = Q;
        Qp[row * dk + d] += h;
        Qm[row * dk + d] -= h;
        const double g = (head_loss(Qp, K, V, dO, L, dk, c, sink, -1, nullptr) -
                          head_loss(Qm, K, V, dO, L, dk, c, sink, -1, nullptr)) / (2 * h);
        g2 += g * g;
      }
      EXPECT_NEAR(r.grad_query[row], std::sqrt(g2), 2e-4 * std::sqrt(g2)) << kernel_name(kf) << " row " << row;
      // dS_i: the logits of row i perturbed one at a time
      std::vector<double> s0(L);
      for (int j = 0; j < L; ++j) {
        double dot = 0.0;
        for (int d = 0; d < dk; ++d) dot += Q[row * dk + d] * K[j * dk + d];
        s0[j] = c * dot;
      }
      double gs2 = 0.0;
      for (int j = 0; j < L; ++j) {
        std::vector<double> sp = s0, sm = s0;
        sp[j] += h;
        sm[j] -= h;
        const double g = (head_loss(Q, K, V, dO, L, dk, c, sink, row, &sp) -
                          head_loss(Q, K, V, dO, L, dk, c, sink, row, &sm)) / (2 * h);
        gs2 += g * g;
      }
      EXPECT_NEAR(r.grad_logits[row], std::sqrt(gs2), 2e-4 * std::sqrt(gs2)) << kernel_name(kf) << " row " << row;
      // ‖J‖_F of the full softmax over [s_0 … s_{L−1}, sink], by differences of the L + 1 outputs
      std::vector<double> z(s0);
      z.push_back(sink);
      double jf2 = 0.0;
      std::vector<double> pp(L + 1), pm(L + 1);
      for (int k = 0; k <= L; ++k) {
        std::vector<double> zp = z, zm = z;
        zp[k] += h;
        zm[k] -= h;
        f64_softmax__reference(zp.data(), pp.data(), L + 1);
        f64_softmax__reference(zm.data(), pm.data(), L + 1);
        for (int j = 0; j <= L; ++j) jf2 += std::pow((pp[j] - pm[j]) / (2 * h), 2);
      }
      EXPECT_NEAR(r.jac_fro[row], std::sqrt(jf2), 2e-4 * std::sqrt(jf2)) << kernel_name(kf) << " row " << row;
      // the entropy of the L + 1 outcomes, and the max weight over the keys only
      std::vector<double> full(L + 1);
      f64_softmax__reference(z.data(), full.data(), L + 1);
      double H = 0.0, km = 0.0;
      for (int j = 0; j <= L; ++j) H -= full[j] * std::log(full[j]);
      for (int j = 0; j < L; ++j) km = std::max(km, full[j]);
      EXPECT_NEAR(r.entropy[row], H, 1e-5);
      EXPECT_NEAR(r.max_weight[row], km, 1e-6);
      EXPECT_NEAR(r.sink_mass[row], full[L], 1e-6);
    }
  }
}

TEST(Sinks, SweepPointsEqualAttentionStatsAndTheSinkTakesMoreAsLogitsShrink) {
  SaturationSweepParams s;
  s.dks = {16, 256};
  s.scales = {parse_scale("none"), parse_scale("inv_sqrt_dk"), parse_scale("inv_dk")};
  s.heads = 2;
  s.seq_len = 32;
  s.seed = 2;
  s.gradients = false;
  s.sinks = {2.0, 2.0};
  const SaturationSweepResult r = saturation_sweep(s);
  AttentionStatsParams a = stats_params(2, 32, 256, 2);
  a.gradients = false;
  a.scale = parse_scale("inv_dk");
  a.sinks = s.sinks;
  const AttentionStatsResult one = attention_stats(a);
  EXPECT_EQ(r.points[2][1].sink_mass.mean, one.summary.sink_mass.mean);
  EXPECT_EQ(r.points[2][1].entropy.mean, one.summary.entropy.mean);
  // 1/d_k at d_k 256: logits ≈ 0, so p_sink ≈ e² / (e² + 32) = 0.1876; unscaled the keys win (p_sink ≈ 0).
  EXPECT_NEAR(r.points[2][1].sink_mass.mean, std::exp(2.0) / (std::exp(2.0) + 32.0), 0.01);
  EXPECT_LT(r.points[0][1].sink_mass.mean, 1e-3);
}

}  // namespace
}  // namespace sqrtdk
