// The work budget (cost.hpp): the reproductions of issue 12 are refused before any work, naming
// the parameters that drive their cost; calls inside the budget run as before.
#include <gtest/gtest.h>

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
  lc.seq_lens.assign(16, 16384);
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
// false) is not charged for it, so Gemma 2's and Grok-1's entropy at L = 4096 (one head, the page's
// "Scales in the wild") fits the budget; asked for, the solve is costed (and refused) as before.
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
  const double L = 4096.0, S = 160.0;
  const double lanczos = L * (L * S * cost::kNsPerLanczosLS + S * S * cost::kNsPerLanczosS2);
  EXPECT_DOUBLE_EQ(off.ns, uncapped.ns);  // spectral off: the capped call costs what an uncapped one does
  EXPECT_EQ(off.terms.size(), uncapped.terms.size());
  EXPECT_NEAR(on.ns - off.ns, lanczos, 1e-6 * lanczos);  // spectral on: one more term, the solve
  EXPECT_EQ(on.terms.size(), off.terms.size() + 1);
  EXPECT_LT(off.ns, kBudgetSeconds * 1e9);
  p.softcap = 50.0;
  EXPECT_NE(refusal([&] { attention_stats(p); }).find("the soft-capped Jacobian norms of 4096 rows"), std::string::npos);

  SaturationSweepParams w;  // the sweep: the same rule per (d_k, scale) pass
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
  EXPECT_NEAR(son.ns - soff.ns, 2.0 * L2 * (L2 * S * cost::kNsPerLanczosLS + S * S * cost::kNsPerLanczosS2), 1.0);
  EXPECT_EQ(son.terms.size(), soff.terms.size() + 1);
}
}  // namespace
}  // namespace sqrtdk
