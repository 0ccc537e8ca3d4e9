// The work budget (cost.hpp): the reproductions of issue 12 are refused before any work, naming
// the parameters that drive their cost; calls inside the budget run as before.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "cost.hpp"
#include "experiments.hpp"
#include "train/training.hpp"

namespace sqrtdk {
namespace {

// The message of the std::invalid_argument f throws ("" if it does not throw).
template <typename F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Cost, AttentionStatsOfLongFlatRowsIsRefusedNamingHeadsAndSeqLen) {
  AttentionStatsParams p;
  p.heads = 64;
  p.seq_len = 8192;
  p.dk = 1;
  p.gradients = false;
  p.per_row = false;
  const std::string m = refusal([&] { attention_stats(p); });
  EXPECT_NE(m.find("attentionStats: this call would take about"), std::string::npos) << m;
  EXPECT_NE(m.find("per-row statistics"), std::string::npos) << m;
  EXPECT_NE(m.find("lower heads or seqLen"), std::string::npos) << m;
}

// core.cost (estimate_cost): the estimate of a call is the sum of the very terms it is checked
// against, recorded before any work; a raised limit accepts a call the default refuses.
TEST(Cost, EstimateRecordsTheTermsTheCallIsCheckedAgainst) {
  ScoreVarianceParams p;
  p.dks = {1024};
  p.samples = 200000;
  p.hist_dk = 1024;
  CostEstimate e;
  ASSERT_TRUE(estimate_cost(e, [&] { score_variance(p); }));
  EXPECT_DOUBLE_EQ(e.ns, 2.0 * 200000 * 1024 * cost::kNsPerNormal);  // its one term: the normal draws
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_DOUBLE_EQ(e.bytes, 3.0 * 8.0 * 200000);
  EXPECT_EQ(recording_estimate(), nullptr);  // estimate mode ends with the estimate
  EXPECT_NE(refusal([&] { score_variance(p); }).find("more than the 8 s budget"), std::string::npos);
  set_work_limits(20.0, 512.0 * 1024 * 1024);
  EXPECT_EQ(refusal([&] { score_variance(p); }), "");  // 9.8 s of work under a 20 s budget
  set_work_limits(kBudgetSeconds, 1024.0 * 1024);
  AttentionStatsParams a;
  a.dk = 64;
  EXPECT_NE(refusal([&] { attention_stats(a); }).find("more than the 1 MiB limit"), std::string::npos);
  set_work_limits(kBudgetSeconds, 512.0 * 1024 * 1024);
}

TEST(Cost, EstimateOfABadParameterIsItsRefusal) {
  AttentionStatsParams a;
  a.dk = 0;
  CostEstimate e;
  EXPECT_NE(refusal([&] { estimate_cost(e, [&] { attention_stats(a); }); }).find("dk = 0"), std::string::npos);
  EXPECT_EQ(recording_estimate(), nullptr);
}

TEST(Cost, ScoreVarianceCountsTheHistogramsDraws) {
  ScoreVarianceParams p;
  p.dks = {2, 64, 100};
  p.hist_dk = 16384;
  const std::string m = refusal([&] { score_variance(p); });
  EXPECT_NE(m.find("histDk = 16384"), std::string::npos) << m;
  p.hist_dk = 64;  // within dks: drawn once
  p.samples = 2000;
  EXPECT_EQ(score_variance(p).hist_dk, 64);
}

TEST(Cost, LongContextAndSweepAreRefusedNamingTheirLists) {
  LongContextParams lc;
  for (int i = 0; i < 16; ++i) lc.seq_lens.push_back(16384 - i);  // each length once
  lc.queries = 1024;
  lc.methods = {"fixed", "logn", "yarn", "article"};
  EXPECT_NE(refusal([&] { long_context(lc); }).find("queries = 1024"), std::string::npos);
  SaturationSweepParams s;
  s.dks.assign(16, 1);
  s.scales.assign(8, Scale{});
  s.seq_len = 8192;
  s.heads = 1;
  s.gradients = false;
  const std::string m = refusal([&] { saturation_sweep(s); });
  EXPECT_NE(m.find("dks.length = 16, scales.length = 8"), std::string::npos) << m;
}

TEST(Cost, TensorAndAttentionWorkIsCheckedWithoutTheTensors) {
  TensorStatsParams t;  // no tensors at all: the budget is checked first
  t.heads = 64;
  t.seq_len = 4096;
  t.dk = 2;
  EXPECT_NE(refusal([&] { check_tensor_stats_work(t); }).find("heads = 64, seqLen = 4096"), std::string::npos);
  AttentionParams a;
  a.heads = 1;
  a.seq_len = 2;
  a.dk = 2;
  EXPECT_NO_THROW(check_attention_work(a));
}

TEST(Cost, TrainingStepsAreCappedByTheBudget) {
  train::TrainConfig c;
  c.d_model = 320;
  c.layers = 1;
  c.mlp = 512;
  c.heads = 8;
  c.batch = 16;
  c.seq_len = 64;
  c.vocab = 256;
  c.steps = 20000;
  c.eval_size = 1;
  train::TrainingRun run(c);
  const std::string m = refusal([&] { run.step(20000); });
  EXPECT_NE(m.find("trainingRun.step: n = 20000"), std::string::npos) << m;
  EXPECT_NE(m.find("lower n"), std::string::npos) << m;
  EXPECT_EQ(run.steps_done(), 0);  // refused before any step (one step of this config is about 2 s)
}

TEST(Cost, AnEstimateNamesItsLargestTerm) {
  const std::string m = refusal([] {
    check_cost("f", {{1e9, "a = 1", "small"}, {9e9, "b = 2, c = 3", "the big part"}});
  });
  EXPECT_EQ(m, "f: this call would take about 10 s of work (cost model), more than the 8 s budget; most of it is the "
               "big part (b = 2, c = 3): lower b or c");
  EXPECT_EQ(refusal([] { check_cost("f", {{7.9e9, "a = 1", "x"}}); }), "");
}

}  // namespace
}  // namespace sqrtdk

namespace sqrtdk {
namespace {
TEST(Cost, MemoryRefusalsNameTheirParameters) {
  SaturationSweepParams s;
  s.dks = {1};
  s.scales = {Scale{}};
  s.seq_len = 8192;
  s.heads = 4;
  EXPECT_EQ(refusal([&] { saturation_sweep(s); }),
            "saturationSweep: this call would need 773 MiB of memory, more than the 512 MiB limit (heads = 4, "
            "seqLen = 8192, dks = 1 at most): lower heads, seqLen or dks");
}
// The soft-cap's Lanczos solve is ‖J D‖₂: a soft-capped call that does not ask for ‖J‖₂ (spectral
// false) is not charged for it; asked for, the solve is costed by the steps its rows take
// (softcap_lanczos_steps). Gemma 2's cap 50 on logits of standard deviation 1 (1/√d_k) at L = 4096
// takes about 20 steps a row (1–2 s in all, measured): accepted, where the former worst-case bound
// (160 steps a row, 14 s) refused it; flat rows that bend under cap 1 take every step and are refused.
TEST(Cost, TheSoftCapsLanczosSolveIsCostedOnlyWhenSpectralIsAskedFor) {
  AttentionStatsParams p;
  p.heads = 1;
  p.seq_len = 4096;
  p.dk = 256;
  p.softcap = 50.0;
  p.gradients = false;
  p.per_row = false;
  p.heatmap_size = 1;
  p.spectral = false;
  CostEstimate off, on, uncapped;
  ASSERT_TRUE(estimate_cost(off, [&] { attention_stats(p); }));
  p.spectral = true;
  ASSERT_TRUE(estimate_cost(on, [&] { attention_stats(p); }));
  p.softcap = 0.0;
  ASSERT_TRUE(estimate_cost(uncapped, [&] { attention_stats(p); }));
  const double L = 4096.0;
  const double S = softcap_lanczos_steps(4096, 1.0, 50.0);  // logits' std: (1/16) · 1 · √256 = 1
  const double lanczos = L * (L * S * cost::kNsPerLanczosLS + S * S * cost::kNsPerLanczosS2);
  EXPECT_DOUBLE_EQ(off.ns, uncapped.ns);  // spectral off: the capped call costs what an uncapped one does
  EXPECT_EQ(off.terms.size(), uncapped.terms.size());
  EXPECT_NEAR(on.ns - off.ns, lanczos, 1e-6 * lanczos);  // spectral on: one more term, the solve
  EXPECT_EQ(on.terms.size(), off.terms.size() + 1);
  EXPECT_LT(on.ns, kBudgetSeconds * 1e9);
  p.softcap = 50.0;
  EXPECT_EQ(refusal([&] { attention_stats(p); }).find("this call would take"), std::string::npos);
  p.softcap = 1.0;  // logits' std 1 under cap 1: every row takes every step
  p.scale = scale_value(0.5 / 16.0);
  EXPECT_NE(refusal([&] { attention_stats(p); }).find("the soft-capped Jacobian norms of 4096 rows"), std::string::npos);

  SaturationSweepParams w;  // the sweep: the same rule per (d_k, scale) pass, each with its logits' spread
  w.dks = {128, 256};
  w.scales = {Scale{}};
  w.heads = 1;
  w.seq_len = 2048;
  w.softcap = 30.0;
  w.gradients = false;
  w.spectral = false;
  CostEstimate soff, son;
  ASSERT_TRUE(estimate_cost(soff, [&] { saturation_sweep(w); }));
  w.spectral = true;
  ASSERT_TRUE(estimate_cost(son, [&] { saturation_sweep(w); }));
  const double L2 = 2048.0;
  double want = 0.0;
  for (double dk : {128.0, 256.0}) {
    const double s = softcap_lanczos_steps(2048, std::sqrt(dk) / std::sqrt(dk), 30.0);  // 1/√d_k · √d_k = 1
    want += L2 * (L2 * s * cost::kNsPerLanczosLS + s * s * cost::kNsPerLanczosS2);
  }
  EXPECT_NEAR(son.ns - soff.ns, want, 1.0);
  EXPECT_EQ(son.terms.size(), soff.terms.size() + 1);
}

// The steps of the soft-capped Lanczos solve per row: the measured table (cost.cpp) at its grid
// points, log-linear between them, clamped to its ranges and to min(L, 160).
TEST(Cost, SoftCapStepsFollowTheMeasuredTable) {
  EXPECT_NEAR(softcap_lanczos_steps(256, 0.5, 1.0), 160.0, 1e-9);    // flat rows bending under cap 1: every step
  EXPECT_NEAR(softcap_lanczos_steps(1024, 1.0, 50.0), 22.7, 1e-9);   // Gemma 2's cap on unit logits
  EXPECT_NEAR(softcap_lanczos_steps(64, 100.0 * 5.0, 5.0), 11.5, 1e-9);  // saturated rows
  // between grid points: the geometric mean at the logarithmic midpoint of x (0.2 and 0.35 at L 64, cap 1)
  EXPECT_NEAR(softcap_lanczos_steps(64, std::sqrt(0.2 * 0.35), 1.0), std::sqrt(47.0 * 62.6), 1e-9);
  // and of L (64 and 256, cap 50, x 0.02)
  EXPECT_NEAR(softcap_lanczos_steps(128, 50.0 * 0.02, 50.0), std::sqrt(17.0 * 19.9), 1e-9);
  // beyond the table: its last L, cap and x
  EXPECT_NEAR(softcap_lanczos_steps(8192, 1.0, 50.0), softcap_lanczos_steps(1024, 1.0, 50.0), 1e-9);
  EXPECT_NEAR(softcap_lanczos_steps(1024, 0.001, 0.5), softcap_lanczos_steps(1024, 0.02, 1.0), 1e-9);
  EXPECT_NEAR(softcap_lanczos_steps(1024, 1e6, 1e3), softcap_lanczos_steps(1024, 5000.0, 50.0), 1e-9);
  // never more than the solve may take: min(L, 160)
  EXPECT_LE(softcap_lanczos_steps(16, 0.5, 1.0), 16.0);
  // a row's nanoseconds: the two terms of its steps
  const double S = softcap_lanczos_steps(512, 2.0, 5.0);
  EXPECT_DOUBLE_EQ(softcap_row_ns(512, 2.0, 5.0), 512.0 * S * cost::kNsPerLanczosLS + S * S * cost::kNsPerLanczosS2);
}
}  // namespace
}  // namespace sqrtdk
