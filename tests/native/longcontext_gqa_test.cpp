// Long-context temperature multipliers against their formulas; grouped-query attention against
// multi-head attention with repeated K/V; tensorStats against attentionStats on the same tensors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "experiments.hpp"
#include "rng.hpp"

namespace sqrtdk {
namespace {

TEST(LongContext, MultipliersFollowTheirFormulas) {
  EXPECT_EQ(long_context_multiplier("fixed", 8192, 512), 1.0);
  EXPECT_DOUBLE_EQ(long_context_multiplier("logn", 8192, 512), 13.0 / 9.0);   // log_512 8192
  EXPECT_EQ(long_context_multiplier("logn", 256, 512), 1.0);                  // never below 1
  EXPECT_NEAR(long_context_multiplier("yarn", 8192, 512), std::pow(0.1 * std::log(16.0) + 1.0, 2.0), 1e-15);
  EXPECT_NEAR(long_context_multiplier("yarn", 8192, 512), 1.63139, 1e-5);  // (1 + 0.1 ln 16)²
  EXPECT_EQ(long_context_multiplier("yarn", 256, 512), 1.0);
  EXPECT_DOUBLE_EQ(long_context_multiplier("article", 8192, 512), 4.0);       // √(L / L_train)
  EXPECT_DOUBLE_EQ(long_context_multiplier("article", 128, 512), 0.5);
  EXPECT_THROW(long_context_multiplier("alibi", 8, 8), std::invalid_argument);
}

TEST(LongContext, EntropyRisesWithLengthUnderTheFixedScale) {
  LongContextParams p;
  p.dk = 64;
  p.seq_lens = {64, 512, 4096};
  p.train_len = 512;
  p.queries = 32;
  p.methods = {"fixed", "article"};
  const LongContextResult r = long_context(p);
  ASSERT_EQ(r.points.size(), 2u);
  // Fixed 1/√d_k: logits ~ N(0, 1), so H ≈ ln L − 1/2 at every L.
  for (const auto& pt : r.points[0]) EXPECT_NEAR(pt.entropy, std::log(double(pt.seq_len)) - 0.5, 0.12) << pt.seq_len;
  // The article's T sharpens with L: at L = 4096 (multiplier √8) the entropy is far below ln L − 1/2.
  EXPECT_LT(r.points[1][2].entropy, r.points[0][2].entropy - 1.0);
  EXPECT_NEAR(r.points[1][1].entropy, r.points[0][1].entropy, 1e-6);  // L = L_train: multiplier 1
}

std::vector<float> randn(size_t n, uint32_t seed) {
  Rng r(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = r.normal_f32();
  return v;
}

TEST(GroupedQueryAttention, EqualsMultiHeadWithRepeatedKeysAndValues) {
  const int heads = 8, L = 19, dk = 12;
  const size_t head = size_t(L) * dk;
  for (int heads_kv : {1, 2, 4, 8}) {
    const auto q = randn(heads * head, 1), k = randn(heads_kv * head, 2), v = randn(heads_kv * head, 3);
    std::vector<float> krep(heads * head), vrep(heads * head);
    for (int h = 0; h < heads; ++h)
      for (size_t i = 0; i < head; ++i) {
        krep[h * head + i] = k[(h / (heads / heads_kv)) * head + i];
        vrep[h * head + i] = v[(h / (heads / heads_kv)) * head + i];
      }
    AttentionParams g;
    g.q = q; g.k = k; g.v = v; g.heads = heads; g.heads_kv = heads_kv; g.seq_len = L; g.dk = dk;
    AttentionParams m = g;
    m.k = krep; m.v = vrep; m.heads_kv = 0;
    const AttentionResult rg = attention(g), rm = attention(m);
    EXPECT_EQ(rg.output, rm.output) << heads_kv;
    EXPECT_EQ(rg.weights, rm.weights) << heads_kv;
  }
  AttentionParams bad;
  const auto q = randn(6 * head, 1), k = randn(4 * head, 2);
  bad.q = q; bad.k = k; bad.v = k; bad.heads = 6; bad.heads_kv = 4; bad.seq_len = L; bad.dk = dk;
  EXPECT_THROW(attention(bad), std::invalid_argument);  // 4 does not divide 6
}

TEST(GroupedQueryAttention, LogitStatisticsDependOnHeadDimNotGrouping) {
  AttentionStatsParams p;
  p.heads = 8;
  p.seq_len = 128;
  p.dk = 64;
  p.per_row = false;
  double entropy[3];
  int i = 0;
  for (int kv : {8, 2, 1}) {  // MHA, GQA, MQA
    p.heads_kv = kv;
    entropy[i++] = attention_stats(p).summary.entropy.mean;
  }
  // Same d_head, same scale: the mean entropy agrees within Monte-Carlo noise (≈ 0.01 here).
  EXPECT_NEAR(entropy[1], entropy[0], 0.05);
  EXPECT_NEAR(entropy[2], entropy[0], 0.05);
}

TEST(TensorStats, EqualsAttentionStatsOnTheSameTensors) {
  // q, k drawn as attentionStats draws them (streams 1 and 2 of the seed, σ = 1).
  const int heads = 2, L = 32, dk = 16;
  const size_t n = size_t(heads) * L * dk;
  std::vector<float> q(n), k(n);
  Rng rq = Rng::stream(9, 1), rk = Rng::stream(9, 2);
  for (auto& x : q) x = static_cast<float>(rq.normal());
  for (auto& x : k) x = static_cast<float>(rk.normal());
  TensorStatsParams t;
  t.q = q; t.k = k; t.heads = heads; t.seq_len = L; t.dk = dk; t.seed = 9; t.scale = parse_scale("none");
  const TensorStatsResult tr = tensor_stats(t);
  AttentionStatsParams a;
  a.heads = heads; a.seq_len = L; a.dk = dk; a.seed = 9; a.scale = parse_scale("none");
  const AttentionStatsResult ar = attention_stats(a);
  EXPECT_EQ(tr.summary.entropy.mean, ar.summary.entropy.mean);
  EXPECT_EQ(tr.summary.grad_query.median, ar.summary.grad_query.median);
  EXPECT_NEAR(tr.qk.variance / dk, 1.0, 0.15);  // 2048 pairs, heavily correlated: loose
  EXPECT_NEAR(tr.q_component.variance, 1.0, 0.1);
  EXPECT_EQ(tr.entropy.size(), n / dk);
}

}  // namespace
}  // namespace sqrtdk
