// TrainingRun end to end: the default copy run learns, the same seed repeats bit for bit, the
// naive softmax overflows where the safe one does not, and a diverging run is a result.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "train/training.hpp"

namespace sqrtdk::train {
namespace {

// The fastest kernel family of this build (SIMD128 in the wasm test binary, scalar natively).
Kernel fastest() { return simd_available() ? Kernel::Simd : Kernel::Scalar; }

TEST(TrainRun, DefaultCopyRunLearnsWithinTheDefaultSteps) {
  // Threshold: a model that has learned nothing beyond the symbol frequencies scores ln(vocab) =
  // ln 16 ≈ 2.77 nats on the copy targets. A mean loss below 0.05 nats means the right symbol gets
  // a geometric-mean probability above e^−0.05 ≈ 0.95: the copy is learned, not guessed.
  TrainConfig c;  // the defaults: copy, vocab 16, T 16, 2 layers, d_model 64, 4 heads, 1/√d_k
  c.kernel = fastest();
  ASSERT_EQ(c.attention, AttentionVariant::InvSqrtDk);
  TrainingRun run(c);
  const EvalResult before = run.evaluate();
  EXPECT_GT(before.loss, 0.8 * std::log(16.0));
  // Two calls: a call's steps are capped by the work budget (cost.hpp), ~180 default steps of the
  // scalar kernel; chunking changes nothing (TheSameSeedGivesBitIdenticalLosses).
  StepMetrics m = run.step(c.steps / 2);
  const StepMetrics rest = run.step(c.steps - c.steps / 2);
  m.loss.insert(m.loss.end(), rest.loss.begin(), rest.loss.end());
  ASSERT_EQ(m.count(), c.steps);
  EXPECT_FALSE(run.diverged());
  EXPECT_TRUE(run.finished());
  const double last10 = std::accumulate(m.loss.end() - 10, m.loss.end(), 0.0) / 10.0;
  EXPECT_LT(last10, 0.05);
  const EvalResult after = run.evaluate();
  EXPECT_LT(after.loss, 0.05);
  EXPECT_GE(after.token_accuracy, 0.99);
  EXPECT_EQ(run.step(1).count(), 0);  // finished: no more steps
  std::printf("[ train    ] default copy run: last-10 loss %.4g, held-out loss %.4g, token acc %.4f, seq acc %.4f\n",
              last10, after.loss, after.token_accuracy, after.sequence_accuracy);
}

TEST(TrainRun, TheSameSeedGivesBitIdenticalLosses) {
  TrainConfig c;
  c.attention = AttentionVariant::LearnableTemperature;
  c.warmup = 5;
  c.steps = 12;
  TrainingRun a(c), b(c);
  const StepMetrics ma = a.step(12);
  StepMetrics mb = b.step(5);
  const StepMetrics mb2 = b.step(7);  // chunking does not change anything
  mb.loss.insert(mb.loss.end(), mb2.loss.begin(), mb2.loss.end());
  ASSERT_EQ(ma.loss.size(), 12u);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(ma.loss[i], mb.loss[i]) << "step " << i;  // exact, not near
  EXPECT_EQ(a.params(), b.params());
  EXPECT_EQ(a.history().grad_norm, b.history().grad_norm);
  c.seed = 1;
  TrainingRun other(c);
  EXPECT_NE(other.step(1).loss[0], ma.loss[0]);
}

TEST(TrainRun, VariantsSeeTheSameBatchesAndStartFromTheSameLossWhenTheirLogitsAgree) {
  // inv_sqrt_dk and learnable_temperature (τ = 1/√d_k at step 0) compute the same function at
  // step 0 from the same weights on the same batch: identical first losses.
  TrainConfig c;
  c.steps = 1;
  TrainingRun a(c);
  c.attention = AttentionVariant::LearnableTemperature;
  TrainingRun b(c);
  EXPECT_EQ(a.step(1).loss[0], b.step(1).loss[0]);
}

TrainConfig overflow_config(SoftmaxKind s) {
  // Built to overflow: no scale, d_k = 64, init std 1 ⇒ q, k components of variance 64 after the
  // LayerNorm, Var(q·k) = 64 · 64² ≈ 2.6e5, logits of several hundred ≫ 88.7 = ln(FLT_MAX).
  TrainConfig c;
  c.attention = AttentionVariant::None;
  c.softmax = s;
  c.d_model = 64;
  c.heads = 1;
  c.layers = 1;
  c.init_std = 1.0;
  c.batch = 4;
  c.steps = 3;
  c.eval_size = 8;
  return c;
}

TEST(TrainRun, NaiveSoftmaxOverflowsToNaNWhereTheSafeOneDoesNot) {
  TrainingRun naive(overflow_config(SoftmaxKind::Naive));
  const StepMetrics mn = naive.step(3);  // never throws
  ASSERT_EQ(mn.count(), 1);              // the first step is non-finite; the run stops there
  EXPECT_FALSE(std::isfinite(mn.loss[0]));
  EXPECT_TRUE(naive.diverged());
  EXPECT_EQ(naive.first_nonfinite_step(), 0);
  EXPECT_TRUE(naive.finished());
  EXPECT_EQ(naive.step(5).count(), 0);
  EXPECT_FALSE(std::isfinite(naive.evaluate().loss));  // still callable

  TrainingRun safe(overflow_config(SoftmaxKind::Safe));
  const StepMetrics ms = safe.step(3);
  ASSERT_EQ(ms.count(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isfinite(ms.loss[i])) << i;
  EXPECT_FALSE(safe.diverged());
  EXPECT_GT(ms.max_abs_logit[0], 88.8);  // the logits really are beyond exp's float32 range
}

TEST(TrainRun, MetricsAnalysisAndEvaluationHaveTheirShapes) {
  for (auto var : {AttentionVariant::QkL2, AttentionVariant::QkLayerNorm}) {
    TrainConfig c;
    c.attention = var;
    c.steps = 3;
    c.layers = 3;
    c.eval_size = 40;
    c.task = Task::AssocRecall;
    c.seq_len = 11;
    TrainingRun run(c);
    const StepMetrics m = run.step(3);
    ASSERT_EQ(m.count(), 3);
    EXPECT_EQ(m.entropy.size(), 9u);
    EXPECT_EQ(m.max_abs_logit.size(), 9u);
    EXPECT_EQ(m.head_scale.size(), 9u);
    for (int i = 0; i < 9; ++i) {
      EXPECT_GT(m.entropy[i], 0.0);
      EXPECT_LE(m.entropy[i], std::log(11.0) + 1e-9);
      EXPECT_EQ(std::isnan(m.head_scale[i]), var != AttentionVariant::QkL2);
    }
    if (var == AttentionVariant::QkL2) {
      EXPECT_NEAR(m.head_scale[0], std::log2(110.0), 0.05);
    }
    const EvalResult e = run.evaluate();
    EXPECT_EQ(e.targets, 40);
    EXPECT_EQ(e.sequences, 40);
    const Analysis a = run.analysis(32);
    ASSERT_EQ(a.layers.size(), 3u);
    for (const LayerAnalysis& la : a.layers) {
      EXPECT_EQ(la.logits.counts.size(), 32u);
      EXPECT_EQ(la.normal.size(), 32u);
      const double total = std::accumulate(la.logits.counts.begin(), la.logits.counts.end(), 0.0) +
                           la.logits.below + la.logits.above;
      EXPECT_EQ(total, 40.0 * 4 * 11 * 11);  // every query-key pair of every head (no mask)
      EXPECT_GT(la.iid_qk_variance, 0.0);
      if (var == AttentionVariant::QkL2) {
        EXPECT_NEAR(la.q_second_moment, 1.0 / 16, 1e-4);  // unit vectors, d_k = 16
      }
    }
  }
  EXPECT_THROW(TrainingRun(TrainConfig{}).step(0), std::invalid_argument);
}

#ifdef SQRTDK_HAVE_WASM_SIMD  // only the SIMD128 build (run under node) has both families
TEST(TrainRun, ScalarAndSimdKernelsAgreeToRounding) {
  TrainConfig c;
  c.steps = 3;
  TrainingRun a(c);
  c.kernel = Kernel::Simd;
  TrainingRun b(c);
  const StepMetrics ma = a.step(3), mb = b.step(3);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(ma.loss[i], mb.loss[i], 1e-4 * ma.loss[i]) << i;  // softmax sums differ
}
#endif

}  // namespace
}  // namespace sqrtdk::train
