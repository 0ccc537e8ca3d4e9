// normalisers and qkClip: the sources' closed forms (n/(n + 1), 1.4366, η = τ / S_max), the GQA and MLA rules, and the float32 path against the double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "experiments.hpp"
#include "test_util.hpp"

namespace sqrtdk {
namespace {

const NormaliserRow& row(const NormalisersResult& r, const char* name) {
  for (const auto& x : r.rows)
    if (x.name == name) return x;
  throw std::logic_error(name);
}

NormalisersParams on_logits(std::vector<double> logits) {
  NormalisersParams p;
  p.logits = std::move(logits);
  return p;
}

// All-zero logits over n keys: sigmoid attention with b = −ln n gives n · σ(−ln n) = n / (n + 1), and
// off-by-one softmax n · 1 / (1 + n) (Ramapuram et al. 2024, §3; Miller 2023).
TEST(Normalisers, ZeroLogitsSumToNOverNPlusOne) {
  for (int n : {4, 128}) {
    const auto p = on_logits(std::vector<double>(n, 0.0));
    for (const auto& r : {normalisers(p), normalisers_reference(p)}) {
      const double want = double(n) / (n + 1);
      EXPECT_NEAR(row(r, "sigmoid").row_sum, want, 1e-6) << n;
      EXPECT_NEAR(row(r, "offByOne").row_sum, want, 1e-6) << n;
      EXPECT_NEAR(row(r, "softmax").row_sum, 1.0, 1e-6) << n;
      EXPECT_NEAR(r.sigmoid_bias, -std::log(double(n)), 1e-15);
      // a uniform row: every renormalised entropy is ln n
      EXPECT_NEAR(row(r, "sigmoid").entropy, std::log(double(n)), 1e-5);
    }
  }
  EXPECT_NEAR(row(normalisers_reference(on_logits(std::vector<double>(4, 0.0))), "sigmoid").row_sum, 0.8, 1e-15);
  EXPECT_NEAR(row(normalisers(on_logits(std::vector<double>(128, 0.0))), "offByOne").row_sum, 0.99225, 5e-6);
}

// Logits [2, 1, 0], n = 3: σ(2 − ln 3) + σ(1 − ln 3) + σ(−ln 3) = 1.4366.
TEST(Normalisers, SigmoidOfTwoOneZeroSumsTo1_4366) {
  const auto p = on_logits({2.0, 1.0, 0.0});
  const double exact = 1.0 / (1.0 + 3.0 * std::exp(-2.0)) + 1.0 / (1.0 + 3.0 * std::exp(-1.0)) + 0.25;
  EXPECT_NEAR(exact, 1.4366, 5e-5);
  EXPECT_NEAR(row(normalisers_reference(p), "sigmoid").row_sum, exact, 1e-15);
  EXPECT_NEAR(row(normalisers(p), "sigmoid").row_sum, exact, 1e-6);
  EXPECT_NEAR(row(normalisers(p), "sigmoid").first_mass, 1.0 / (1.0 + 3.0 * std::exp(-2.0)), 1e-6);
  // softmax sums to one; the sink S: 1 − e^S / (e^S + Σ e^s)
  const double z = std::exp(2.0) + std::exp(1.0) + 1.0;
  EXPECT_NEAR(row(normalisers(p), "softmax").row_sum, 1.0, 1e-6);
  EXPECT_NEAR(row(normalisers(p), "sink").row_sum, z / (z + std::exp(1.0)), 1e-6);
  // one row: the differential is (1 − λ) p, still a distribution once renormalised
  EXPECT_NEAR(row(normalisers(p), "differential").row_sum, 0.2, 1e-6);
  EXPECT_NEAR(row(normalisers(p), "differential").entropy, row(normalisers(p), "softmax").entropy, 1e-6);
  // an explicit bias replaces −ln n; a masked key is not counted in n
  auto q = on_logits({2.0, 1.0, 0.0, -std::numeric_limits<double>::infinity()});
  EXPECT_NEAR(normalisers(q).sigmoid_bias, -std::log(3.0), 1e-15);
  EXPECT_NEAR(row(normalisers(q), "sigmoid").row_sum, exact, 1e-6);
  q.sigmoid_bias = 0.0;
  EXPECT_NEAR(row(normalisers(q), "sigmoid").row_sum, 1.0 / (1 + std::exp(-2.0)) + 1.0 / (1 + std::exp(-1.0)) + 0.5, 1e-6);
}

// Drawn q, k, v: the float32 kernels against the double reference, and each normaliser's defining sums.
TEST(Normalisers, KernelsMatchTheDoubleReference) {
  for (Kernel kf : test::families())
    for (bool causal : {false, true}) {
      NormalisersParams p;
      p.heads = 4;
      p.seq_len = 33;
      p.dk = 16;
      p.causal = causal;
      p.kernel = kf;
      const auto a = normalisers(p), b = normalisers_reference(p);
      ASSERT_EQ(a.rows.size(), 6u);
      for (size_t i = 0; i < a.rows.size(); ++i) {
        const auto &x = a.rows[i], &y = b.rows[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.rows, y.rows);
        EXPECT_NEAR(x.row_sum, y.row_sum, 1e-5) << x.name;
        EXPECT_NEAR(x.first_mass, y.first_mass, 1e-5) << x.name;
        EXPECT_NEAR(x.output_norm, y.output_norm, 1e-4 * y.output_norm) << x.name;
        if (std::isnan(y.entropy)) {
          EXPECT_TRUE(std::isnan(x.entropy)) << x.name;
        } else {
          EXPECT_NEAR(x.entropy, y.entropy, 1e-4) << x.name;
        }
      }
      EXPECT_NEAR(row(b, "softmax").row_sum, 1.0, 1e-12);
      EXPECT_NEAR(row(b, "differential").row_sum, 1.0 - 0.8, 1e-12);  // 1 − λ
      EXPECT_EQ(row(b, "differential").rows, 2 * 33);                 // two pairs of heads
      EXPECT_GT(row(b, "differential").negative_share, 0.0);          // p₁ − λp₂ goes negative
      EXPECT_LT(row(b, "differential").entropy_rows, 2 * 33);         // those rows have no entropy
      EXPECT_LT(row(b, "offByOne").row_sum, 1.0);
      EXPECT_LT(row(b, "sink").row_sum, row(b, "offByOne").row_sum);  // S = 1 > 0 takes more
      EXPECT_GT(row(b, "gated").row_sum, 0.0);
      EXPECT_LT(row(b, "gated").row_sum, 1.0);                        // mean σ(g), g ~ N(0, 1): ≈ ½
      EXPECT_NEAR(row(b, "gated").entropy, row(b, "softmax").entropy, 1e-12);
    }
}

TEST(Normalisers, BadValuesAreNamed) {
  NormalisersParams p;
  p.heads = 17;
  EXPECT_THROW(normalisers(p), std::invalid_argument);
  p = {};
  p.lambda = 3;
  try {
    normalisers(p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lambda"), std::string::npos);
  }
  p = on_logits({1.0, std::nan("")});
  EXPECT_THROW(normalisers(p), std::invalid_argument);
}

// ---- QK-Clip ----

QkClipParams clip_params(int heads, int heads_kv, double gain, Kernel kf = Kernel::Scalar) {
  QkClipParams p;
  p.heads = heads;
  p.heads_kv = heads_kv;
  p.seq_len = 24;
  p.dk = 32;
  p.q_gain = gain;
  p.kernel = kf;
  return p;
}

// MHA: η_h = min(1, τ / S_max,h), and a clipped head's new maximum is τ.
TEST(QkClip, EachHeadClippedToTau) {
  for (Kernel kf : test::families()) {
    const auto p = clip_params(4, 0, 40.0, kf);  // logits ≈ 40 · N(0, 1): maxima past τ = 100
    const auto a = qk_clip(p), b = qk_clip_reference(p);
    ASSERT_EQ(a.gamma.size(), 4u);
    int clipped = 0;
    for (int h = 0; h < 4; ++h) {
      EXPECT_NEAR(a.max_logit[h], b.max_logit[h], 1e-5 * std::fabs(b.max_logit[h]));
      const double want = std::min(1.0, 100.0 / b.max_logit[h]);
      EXPECT_NEAR(b.gamma[h], want, 1e-15);
      EXPECT_NEAR(a.gamma[h], want, 1e-6);
      if (b.max_logit[h] > 100.0) {
        ++clipped;
        EXPECT_NEAR(b.clipped_max[h], 100.0, 1e-9);
        EXPECT_NEAR(a.clipped_max[h], 100.0, 1e-4);  // float32 rounding of q, k and the products
      } else {
        EXPECT_EQ(a.clipped_max[h], a.max_logit[h]);  // untouched, bit for bit
      }
      EXPECT_GE(a.entropy_after[h], a.entropy_before[h] - 1e-9);  // a smaller logit range is never sharper
    }
    EXPECT_GT(clipped, 0);
    EXPECT_EQ(a.clipped_heads, clipped);
    EXPECT_EQ(a.row_head, b.row_head);
    EXPECT_EQ(a.row_query, b.row_query);
    for (size_t j = 0; j < b.row_before.size(); ++j) EXPECT_NEAR(a.row_before[j], b.row_before[j], 1e-5 * (1 + std::fabs(b.row_before[j])));
  }
  // below τ nothing moves
  const auto low = qk_clip(clip_params(4, 0, 1.0));
  for (double g : low.gamma) EXPECT_EQ(g, 1.0);
  EXPECT_EQ(low.clipped_heads, 0);
  EXPECT_EQ(low.clipped_max, low.max_logit);
}

// GQA: the maximum over each KV group's query heads, one η for the group (Megatron-Core
// SelfAttention.clip_qk); the group's largest head lands on τ, the others below.
TEST(QkClip, GroupedQueryHeadsShareTheGroupMaximum) {
  const auto p = clip_params(8, 2, 40.0);
  const auto a = qk_clip(p), b = qk_clip_reference(p);
  ASSERT_EQ(a.group_max_logit.size(), 2u);
  for (int g = 0; g < 2; ++g) {
    double m = -1e300;
    for (int h = 4 * g; h < 4 * g + 4; ++h) m = std::max(m, b.max_logit[h]);
    EXPECT_EQ(b.group_max_logit[g], m);
    const double eta = std::min(1.0, 100.0 / m);
    double top = -1e300;
    for (int h = 4 * g; h < 4 * g + 4; ++h) {
      EXPECT_NEAR(b.gamma[h], eta, 1e-15);
      EXPECT_EQ(a.gamma[h], a.gamma[4 * g]);
      EXPECT_NEAR(a.gamma[h], eta, 1e-6);
      EXPECT_LE(b.clipped_max[h], 100.0 + 1e-9);
      EXPECT_NEAR(b.clipped_max[h], eta * b.max_logit[h], 1e-9 * std::fabs(b.max_logit[h]));  // logits × η
      top = std::max(top, a.clipped_max[h]);
    }
    EXPECT_GT(m, 100.0);  // gain 40: both groups past τ
    EXPECT_NEAR(top, 100.0, 1e-4);
  }
  // α moves the split between q and k, not the logits
  auto q = p;
  q.alpha = 0.0;
  const auto c = qk_clip_reference(q);
  for (int h = 0; h < 8; ++h) EXPECT_NEAR(c.clipped_max[h], b.clipped_max[h], 1e-9);
}

// MLA: √η on the non-rotary parts, η on the rotary query part, the shared rotary key untouched: every
// logit × η, so a clipped head's maximum is again τ.
TEST(QkClip, MultiHeadLatentRule) {
  auto p = clip_params(4, 0, 40.0);
  p.rope_dim = 8;
  const auto a = qk_clip(p), b = qk_clip_reference(p);
  for (int h = 0; h < 4; ++h) {
    const double eta = std::min(1.0, 100.0 / b.max_logit[h]);
    EXPECT_NEAR(b.gamma[h], eta, 1e-15);
    EXPECT_NEAR(b.clipped_max[h], eta * b.max_logit[h], 1e-9 * std::fabs(b.max_logit[h]));
    if (eta < 1.0) {
      EXPECT_NEAR(a.clipped_max[h], 100.0, 1e-4);
    }
  }
  for (size_t j = 0; j < b.row_before.size(); ++j)
    EXPECT_NEAR(b.row_after[j], b.gamma[b.row_head] * b.row_before[j], 1e-9 * (1 + std::fabs(b.row_before[j])));
  p.heads_kv = 2;
  EXPECT_THROW(qk_clip(p), std::invalid_argument);  // MLA needs headsKv = heads
  p.heads_kv = 0;
  p.rope_dim = 32;
  EXPECT_THROW(qk_clip(p), std::invalid_argument);  // ropeDim < dk
}

TEST(QkClip, BadValuesAreNamed) {
  auto p = clip_params(4, 0, 1.0);
  p.tau = 0;
  EXPECT_THROW(qk_clip(p), std::invalid_argument);
  p = clip_params(4, 3, 1.0);
  EXPECT_THROW(qk_clip(p), std::invalid_argument);  // 3 does not divide 4
  p = clip_params(4, 0, 1.0);
  p.alpha = 1.5;
  try {
    qk_clip(p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("alpha"), std::string::npos);
  }
}

}  // namespace
}  // namespace sqrtdk
