// Issue 19: where the iid argument ends (2 of 2; science_test.cpp holds the first). The scales real models compute,
// the long-context temperatures of Llama 4 and Scalable-Softmax, DeepSeek's YaRN mscale, the precision lab's q·kᵀ
// and row-sum checks, and the errors of the new parameters. The values asserted are the issue's; tolerances are
// stated beside each assertion.
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
using test::expect_message;
using test::stream_tensor;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// ---- modelScales ------------------------------------------------------------------------------

const ModelScale& model(const std::vector<ModelScale>& all, const std::string& name) {
  for (const auto& m : all)
    if (m.model == name) return m;
  throw std::runtime_error("no model " + name);
}

TEST(ModelScales, TheIssuesNumbersComputedFromEachModelsParameters) {
  const std::vector<ModelScale> all = model_scales();
  ASSERT_GE(all.size(), 13u);
  EXPECT_DOUBLE_EQ(model(all, "GPT-2 (124M)").scale, 0.125);
  EXPECT_EQ(model(all, "GPT-2 (124M)").d_head, 64);
  EXPECT_NEAR(model(all, "Llama 3 8B").scale, 0.0883883, 1e-7);
  EXPECT_FALSE(model(all, "Qwen2.5 7B").qk_norm);
  EXPECT_TRUE(model(all, "Qwen3 8B").qk_norm);
  EXPECT_DOUBLE_EQ(model(all, "Gemma 2 9B").scale, 0.0625);
  EXPECT_EQ(model(all, "Gemma 2 9B").softcap, 50.0);
  EXPECT_NEAR(model(all, "Gemma 2 27B").scale, 1.0 / 12.0, 1e-15);
  EXPECT_EQ(model(all, "Gemma 2 27B").d_head, 128);
  const ModelScale& g3 = model(all, "Gemma 3 27B");
  EXPECT_NEAR(g3.scale, 0.077152, 5e-7);  // 1/√168, not 1/√128 = 0.088388
  EXPECT_NEAR(g3.inv_sqrt_d_head, 0.088388, 5e-7);
  EXPECT_TRUE(g3.qk_norm);
  EXPECT_EQ(g3.softcap, 0.0);
  const ModelScale& ds = model(all, "DeepSeek-V3");
  EXPECT_EQ(ds.d_head, 192);
  EXPECT_NEAR(std::pow(yarn_get_mscale(40.0, 1.0), 2.0), 1.873854, 5e-7);
  EXPECT_NEAR(ds.scale, 0.135234, 5e-7);
  const ModelScale& oss = model(all, "gpt-oss-120b / 20b");
  EXPECT_NEAR(std::pow(yarn_get_mscale(32.0, 1.0), 2.0), 1.8133, 5e-5);
  EXPECT_NEAR(oss.scale, 0.125 * 1.81326, 5e-6);  // ≈ 0.2267
  EXPECT_TRUE(oss.sinks);
  EXPECT_EQ(model(all, "Grok-1").softcap, 30.0);
  EXPECT_NEAR(model(all, "Grok-1").scale, 0.0883883, 1e-7);
  EXPECT_EQ(model(all, "Granite 3.0 8B").scale, 1.0 / 128.0);
  EXPECT_EQ(model(all, "T5-base").scale, 1.0);
  EXPECT_NEAR(model(all, "T5-base").params.back().value, 1.0 / std::sqrt(768.0 * 64.0), 1e-15);
  const ModelScale& l4 = model(all, "Llama 4 Scout");
  EXPECT_NEAR(l4.params.back().value, 1.28332, 5e-6);
  EXPECT_DOUBLE_EQ(model(all, "μP attention (microsoft/mup)").scale, 0.125);
  for (const auto& m : all) {
    EXPECT_NO_THROW(scale_value(m.scale)) << m.model;  // every entry is usable as an explicit scale
    EXPECT_FALSE(m.source.empty()) << m.model;
    EXPECT_FALSE(m.formula.empty()) << m.model;
    EXPECT_DOUBLE_EQ(m.inv_sqrt_d_head, 1.0 / std::sqrt(double(m.d_head))) << m.model;
  }
}

// ---- long context: Llama 4, SSMax, YaRN's m-scales ---------------------------------------------

TEST(LongContextTemperatures, Llama4SsmaxAndYarnMscaleValues) {
  EXPECT_NEAR(llama4_temperature(131072, 8192, 0.1), 1.28332, 5e-6);  // 1 + 0.1 ln 17
  EXPECT_EQ(llama4_temperature(8191, 8192, 0.1), 1.0);
  EXPECT_NEAR(llama4_temperature(8192, 8192, 0.1), 1.0 + 0.1 * std::log(2.0), 1e-15);
  // SSMax, the paper's check: n = 1000 logits, all −2 but one +3, s = 0.43
  std::vector<double> z(1000, -2.0), p(1000);
  z[0] = 3.0;
  f64_softmax__reference(z.data(), p.data(), 1000);
  EXPECT_NEAR(p[0], 0.12935, 5e-6);
  const double m = ssmax_multiplier(1000, 0.43);
  for (double& x : z) x *= m;
  f64_softmax__reference(z.data(), p.data(), 1000);
  EXPECT_NEAR(p[0], 0.99965, 5e-6);
  EXPECT_DOUBLE_EQ(long_context_multiplier("ssmax", 1000, 512), m);
  // YaRN: the defaults are Peng et al.'s (0.1 ln s + 1)², bit for bit; DeepSeek's form with both m-scales
  EXPECT_EQ(long_context_multiplier("yarn", 4096, 512), std::pow(0.1 * std::log(8.0) + 1.0, 2.0));
  LongContextOptions o;
  o.mscale = o.mscale_all_dim = 1.0;
  EXPECT_NEAR(long_context_multiplier("yarn", 40 * 512, 512, o), 1.873854, 5e-7);
  o.mscale = o.mscale_all_dim = 0.707;  // equal m-scales: (0.1 · mscale · ln s + 1)²
  EXPECT_NEAR(yarn_multiplier(40.0, 0.707, 0.707), std::pow(0.1 * 0.707 * std::log(40.0) + 1.0, 2.0), 1e-14);
  // in general the ratio of the two m-scales squared, times DeepSeek's softmax factor
  EXPECT_NEAR(yarn_multiplier(16.0, 1.0, 0.5),
              std::pow(yarn_get_mscale(16, 1.0) / yarn_get_mscale(16, 0.5), 2.0) * std::pow(yarn_get_mscale(16, 0.5), 2.0),
              1e-14);
  EXPECT_EQ(yarn_multiplier(0.5, 1.0, 1.0), 1.0);  // s ≤ 1: no change
}

TEST(LongContextTemperatures, TheNewMethodsInLongContext) {
  LongContextParams p;
  p.dk = 16;
  p.seq_lens = {64, 1024, 4096};
  p.train_len = 256;
  p.queries = 16;
  p.methods = {"fixed", "llama4", "ssmax"};
  p.options.floor_scale = 512;  // so that the temperature moves within these lengths
  const LongContextResult r = long_context(p);
  EXPECT_EQ(r.points[1][0].multiplier, 1.0);
  EXPECT_NEAR(r.points[1][2].multiplier, 1.0 + 0.1 * std::log(9.0), 1e-15);
  EXPECT_NEAR(r.points[2][1].multiplier, 0.43 * std::log(1024.0), 1e-15);
  // SSMax keeps the entropy ratio from creeping up with L as the fixed scale's does: sharper rows
  EXPECT_LT(r.points[2][2].entropy, r.points[0][2].entropy);
  EXPECT_LT(r.points[2][2].max_weight - r.points[2][0].max_weight, 1.0);
  // the fixed method is unchanged by the new options
  LongContextParams q = p;
  q.options = {};
  EXPECT_EQ(long_context(q).points[0][2].entropy, r.points[0][2].entropy);
}

// A method named twice is refused, naming the repeat (it would be computed twice and drawn as one curve).
TEST(LongContextTemperatures, ARepeatedMethodIsRefusedNamingIt) {
  LongContextParams p;
  p.seq_lens = {64};
  p.queries = 2;
  p.methods = {"fixed", "llama4", "ssmax", "llama4"};
  try {
    long_context(p);
    FAIL() << "a repeated method was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "longContext: methods[3] = 'llama4' repeats methods[1]; give each method at most once");
  }
  p.methods = {"fixed", "llama4", "ssmax"};
  EXPECT_NO_THROW(long_context(p));
}

TEST(LongContextTemperatures, ARepeatedLengthIsRefusedNamingIt) {
  LongContextParams p;
  p.seq_lens = {16, 64, 32, 64};
  p.queries = 2;
  p.methods = {"fixed"};
  try {
    long_context(p);
    FAIL() << "a repeated length was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "longContext: seqLens[3] = 64 repeats seqLens[1]; give each length at most once");
  }
  p.seq_lens = {16, 64, 32};
  EXPECT_NO_THROW(long_context(p));
}

TEST(LongContextTemperatures, ASinkOnEveryRowAgainstTheDoubleReference) {
  LongContextParams p;
  p.dk = 8;
  p.seq_lens = {5, 40};
  p.train_len = 4;
  p.queries = 3;
  p.methods = {"fixed", "ssmax"};
  p.seed = 6;
  for (Kernel kf : families()) {
    p.kernel = kf;
    p.sink = std::numeric_limits<double>::quiet_NaN();
    const LongContextResult none = long_context(p);
    p.sink = kNegInf;  // no sink, bit for bit
    const LongContextResult minf = long_context(p);
    EXPECT_EQ(minf.points[1][1].entropy, none.points[1][1].entropy);
    EXPECT_EQ(minf.points[0][0].max_weight, none.points[0][0].max_weight);
    EXPECT_EQ(minf.points[0][0].sink_mass, 0.0);
    p.sink = 1.5;
    const LongContextResult r = long_context(p);
    // the reference: Q (stream 1) and the first L keys (stream 2), logits m · q·k / √d_k, then the sink
    const std::vector<float> K = stream_tensor(6, 2, 40 * 8), Q = stream_tensor(6, 1, 3 * 8);
    for (size_t m = 0; m < 2; ++m)
      for (size_t li = 0; li < 2; ++li) {
        const int L = p.seq_lens[li];
        const double mult = long_context_multiplier(p.methods[m], L, p.train_len);
        double mass = 0.0, H = 0.0, mw = 0.0;
        for (int i = 0; i < 3; ++i) {
          std::vector<double> z(L), w(L);
          for (int j = 0; j < L; ++j) {
            double dot = 0.0;
            for (int d = 0; d < 8; ++d) dot += double(Q[i * 8 + d]) * K[j * 8 + d];
            z[j] = mult / std::sqrt(8.0) * dot;
          }
          const double ws = f64_softmax_sink__reference(z.data(), 1.5, w.data(), L);
          mass += ws / 3;
          double h = -ws * std::log(ws), top = 0.0;
          for (double x : w) {
            h -= x * std::log(x);
            top = std::max(top, x);
          }
          H += h / 3;
          mw += top / 3;
        }
        EXPECT_NEAR(r.points[m][li].sink_mass, mass, 1e-6) << kernel_name(kf);
        EXPECT_NEAR(r.points[m][li].entropy, H, 1e-5) << kernel_name(kf);
        EXPECT_NEAR(r.points[m][li].max_weight, mw, 1e-6) << kernel_name(kf);
        EXPECT_NEAR(r.points[m][li].entropy_ratio, H / std::log(L + 1.0), 1e-5);
      }
  }
  p.sink = std::numeric_limits<double>::infinity();
  expect_message([&] { long_context(p); }, "sink = inf");
}

// ---- the precision lab: q·kᵀ in the format, row sums ------------------------------------------

// d_k 128, one query 24·𝟏, keys 24·𝟏, 12·𝟏 and 0.
PrecisionLabParams overflow_case(ScaleAt at, Scale scale) {
  PrecisionLabParams p;
  p.dk = 128;
  p.q.assign(128, 24.0f);
  p.k.assign(3 * 128, 0.0f);
  for (int d = 0; d < 128; ++d) {
    p.k[d] = 24.0f;
    p.k[128 + d] = 12.0f;
  }
  p.scale = scale;
  p.scale_at = at;
  return p;
}

const PrecisionCell& cell(const PrecisionLabResult& r, const std::string& format, const std::string& algorithm) {
  for (const auto& c : r.cells)
    if (c.format == format && c.algorithm == algorithm) return c;
  throw std::runtime_error("no cell " + format + " " + algorithm);
}

TEST(PrecisionQk, Float16ProductsOverflowBeforeTheScaleUnlessQIsScaledFirst) {
  // Raw products in float16: 24·24·128 = 73728 > 65504 → ∞; 12·24·128 = 36864; 0.
  const auto raw = precision_qk_logits(overflow_case(ScaleAt::Scores, parse_scale("none")), Format::Float16);
  EXPECT_EQ(raw[0][0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(raw[0][1], 36864.0);
  EXPECT_EQ(raw[0][2], 0.0);
  // With c = 1/√128 at the scores the row is [∞, 3258.3, 0]: NaN in every algorithm, cause input overflow.
  const PrecisionLabResult at_scores = precision_lab(overflow_case(ScaleAt::Scores, parse_scale("inv_sqrt_dk")));
  for (const char* a : {"naive", "safe", "online"}) {
    const PrecisionCell& c = cell(at_scores, "float16", a);
    EXPECT_EQ(c.share_nan, 1.0) << a;
    EXPECT_EQ(c.causes.input_overflow, 1.0) << a;
    EXPECT_TRUE(std::isnan(c.probs[0])) << a;
  }
  EXPECT_EQ(cell(at_scores, "float32", "safe").share_nonfinite, 0.0);  // float32 holds 73728
  // Scaling q first: 24/√128 = 2.1213 in float16, logits [6516.6, 3258.3, 0] with float32 accumulation (to
  // float16's spacing 4 and 2 at those sizes); summed in float16 itself the rounding drifts them to [6532, 3266, 0].
  PrecisionLabParams f32acc = overflow_case(ScaleAt::Query, parse_scale("inv_sqrt_dk"));
  f32acc.accumulate = Accumulate::Float32;
  const auto q_first = precision_qk_logits(f32acc, Format::Float16);
  EXPECT_NEAR(q_first[0][0], 6516.6, 4.0);
  EXPECT_NEAR(q_first[0][1], 3258.3, 2.0);
  EXPECT_EQ(q_first[0][2], 0.0);
  const auto q_same = precision_qk_logits(overflow_case(ScaleAt::Query, parse_scale("inv_sqrt_dk")), Format::Float16);
  EXPECT_EQ(q_same[0][0], 6532.0);
  EXPECT_EQ(q_same[0][1], 3266.0);
  const PrecisionLabResult at_query = precision_lab(overflow_case(ScaleAt::Query, parse_scale("inv_sqrt_dk")));
  const PrecisionCell& safe = cell(at_query, "float16", "safe");
  EXPECT_EQ(safe.share_nonfinite, 0.0);
  EXPECT_EQ(safe.probs, (std::vector<double>{1.0, 0.0, 0.0}));
  EXPECT_EQ(safe.causes.input_overflow, 0.0);
  // float64 is the reference in both modes: [1, 0, 0] to within e^{−3258}
  EXPECT_EQ(at_scores.reference, at_query.reference);
  EXPECT_NEAR(at_scores.reference[0], 1.0, 1e-300);
  EXPECT_EQ(at_scores.rows, 1);
  EXPECT_EQ(at_scores.seq_len, 3);
  EXPECT_NEAR(at_scores.max_abs_logit, 24.0 * 24.0 * 128.0 / std::sqrt(128.0), 1e-9);
}

TEST(PrecisionQk, Float32ProductsMatchTheDoubleProductsToRounding) {
  PrecisionLabParams p;
  p.dk = 16;
  p.q = test::randn(4 * 16, 3);
  p.k = test::randn(9 * 16, 4);
  const auto f32 = precision_qk_logits(p, Format::Float32);
  const auto f64 = precision_qk_logits(p, Format::Float64);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 9; ++j) EXPECT_NEAR(f32[i][j], f64[i][j], 1e-5 * (1.0 + std::fabs(f64[i][j])));
  const PrecisionLabResult r = precision_lab(p);
  EXPECT_EQ(r.rows, 4);
  EXPECT_EQ(r.seq_len, 9);
  EXPECT_LT(cell(r, "float32", "safe").max_abs_error, 1e-6);
  EXPECT_NEAR(cell(r, "float32", "safe").row_sum.min, 1.0, 1e-6);
}

// Issue 27's bfloat16 example: d_k 128, q = e₀, keys 227·e₀ and 226·e₀, accumulate 'float32'.
PrecisionLabParams bf16_scale_case(ScaleAt at, ScaleRounding rounding) {
  PrecisionLabParams p;
  p.dk = 128;
  p.q.assign(128, 0.0f);
  p.q[0] = 1.0f;
  p.k.assign(2 * 128, 0.0f);
  p.k[0] = 227.0f;
  p.k[128] = 226.0f;
  p.accumulate = Accumulate::Float32;
  p.scale_at = at;
  p.scale_rounding = rounding;
  return p;
}

TEST(PrecisionQk, TheScaleOfABfloat16CellIsAFloat32ConstantAsInPyTorch) {
  // PyTorch multiplies a bf16 tensor by a Python float in float32 (pytorch/pytorch#147134):
  // 227 · float32(1/√128) = 20.0641 → 20.125, 226 · c = 19.9758 → 20 in bfloat16 (spacing 0.125).
  const double c = 1.0 / std::sqrt(128.0);
  double applied = 0.0;
  const auto logits = precision_qk_logits(bf16_scale_case(ScaleAt::Scores, ScaleRounding::Float32), Format::BFloat16, &applied);
  EXPECT_EQ(logits[0], (std::vector<double>{20.125, 20.0}));
  EXPECT_EQ(applied, double(float(c)));
  const PrecisionLabResult r = precision_lab(bf16_scale_case(ScaleAt::Scores, ScaleRounding::Float32));
  EXPECT_EQ(cell(r, "bfloat16", "safe").probs, (std::vector<double>{0.53125, 0.46875}));
  EXPECT_EQ(cell(r, "bfloat16", "safe").scale_applied, double(float(c)));
  EXPECT_EQ(cell(r, "float64", "safe").scale_applied, c);
  // float64: 1 / (1 + e^{∓c}) = [0.5220827, 0.4779173]
  EXPECT_NEAR(r.reference[0], 1.0 / (1.0 + std::exp(-c)), 1e-15);
  EXPECT_NEAR(r.reference[0], 0.5220827, 1e-7);
  EXPECT_NEAR(r.reference[1], 0.4779173, 1e-7);
  // The old rule (c rounded to bfloat16 first: 0.08837890625) gives [20, 20] and [0.5, 0.5].
  const auto old = precision_qk_logits(bf16_scale_case(ScaleAt::Scores, ScaleRounding::Cell), Format::BFloat16, &applied);
  EXPECT_EQ(old[0], (std::vector<double>{20.0, 20.0}));
  EXPECT_EQ(applied, 0.08837890625);
  const PrecisionLabResult rc = precision_lab(bf16_scale_case(ScaleAt::Scores, ScaleRounding::Cell));
  EXPECT_EQ(cell(rc, "bfloat16", "safe").probs, (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(cell(rc, "bfloat16", "safe").scale_applied, 0.08837890625);
  // float16 rounds c to the same 0.08837890625 (1448 · 2^−14) under 'cell'.
  EXPECT_EQ(cell(rc, "float16", "safe").scale_applied, 0.08837890625);
  // float32 and float64 cells are the same under both rules, bit for bit.
  for (size_t i = 0; i < r.cells.size(); ++i)
    if (r.cells[i].format == "float32" || r.cells[i].format == "float64") {
      EXPECT_EQ(r.cells[i].probs, rc.cells[i].probs) << r.cells[i].format << " " << r.cells[i].algorithm;
      EXPECT_EQ(r.cells[i].scale_applied, rc.cells[i].scale_applied);
    }
}

TEST(PrecisionQk, BothPutsTheSquareRootOfTheScaleOnQAndOnK) {
  // PyTorch's math backend before pytorch/pytorch#163508: q' = √c · q, k' = √c · k, each rounded to the format
  // (√c a float32 constant): √(1/√128) = 0.29730177 → q'₀ = 0.296875 in bfloat16, k' = [67.5, 67], logits
  // [20.0, 19.875] (checked by an independent emulation in Python: round to 8 significant bits, ties to even).
  double applied = 0.0;
  const auto logits = precision_qk_logits(bf16_scale_case(ScaleAt::Both, ScaleRounding::Float32), Format::BFloat16, &applied);
  EXPECT_EQ(logits[0], (std::vector<double>{20.0, 19.875}));
  const double held = double(float(std::sqrt(1.0 / std::sqrt(128.0))));
  EXPECT_EQ(applied, held * held);
  const PrecisionLabResult r = precision_lab(bf16_scale_case(ScaleAt::Both, ScaleRounding::Float32));
  EXPECT_EQ(cell(r, "bfloat16", "safe").probs, (std::vector<double>{0.53125, 0.46875}));
  // In float32 'both' is the scores' c · (q·k) to float32's rounding; float64 is the reference itself.
  PrecisionLabParams p;
  p.dk = 16;
  p.q = test::randn(4 * 16, 3);
  p.k = test::randn(9 * 16, 4);
  const auto at_scores = precision_qk_logits(p, Format::Float32);
  p.scale_at = ScaleAt::Both;
  const auto both = precision_qk_logits(p, Format::Float32);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 9; ++j) EXPECT_NEAR(both[i][j], at_scores[i][j], 1e-5 * (1.0 + std::fabs(at_scores[i][j])));
  expect_message([] { parse_scale_rounding("bf16"); }, "scaleRounding = 'bf16' is not one of 'float32', 'cell'");
}

TEST(PrecisionRowSums, Float16SumOf4096ZerosStallsAt2048) {
  PrecisionLabParams p;
  p.logits.assign(4096, 0.0);
  p.row_sums = true;
  const PrecisionLabResult r = precision_lab(p);
  for (const char* a : {"naive", "safe", "online"}) {
    const PrecisionCell& c = cell(r, "float16", a);
    EXPECT_EQ(c.probs[0], 1.0 / 2048.0) << a;  // 2048 + 1 rounds to 2048 in float16
    EXPECT_EQ(c.row_sum.min, 2.0) << a;
    EXPECT_EQ(c.row_sum.max, 2.0) << a;
    EXPECT_EQ(c.causes.sum_stall, 1.0) << a;
    EXPECT_EQ(c.share_nonfinite, 0.0) << a;
    EXPECT_NEAR(c.max_abs_error, 1.0 / 2048 - 1.0 / 4096, 1e-12) << a;  // the 2.4e-4 that looked harmless
    const PrecisionCell& b = cell(r, "bfloat16", a);  // 8 significant bits: 256 + 1 rounds to 256
    EXPECT_EQ(b.row_sum.max, 16.0) << a;
    EXPECT_EQ(b.causes.sum_stall, 1.0) << a;
    EXPECT_EQ(cell(r, "float32", a).causes.sum_stall, 0.0) << a;
    EXPECT_NEAR(cell(r, "float32", a).row_sum.max, 1.0, 1e-6) << a;
  }
  // Accumulated in float32, as kernels do: no stall.
  p.accumulate = Accumulate::Float32;
  const PrecisionLabResult f = precision_lab(p);
  EXPECT_EQ(cell(f, "float16", "safe").causes.sum_stall, 0.0);
  EXPECT_NEAR(cell(f, "float16", "safe").row_sum.max, 1.0, 1e-3);
}

TEST(PrecisionRowSums, OnByDefaultAndTheOptOutChangesNothingElse) {
  PrecisionLabParams p;
  EXPECT_TRUE(p.row_sums);
  p.rows = 32;
  p.seq_len = 512;
  p.dk = 64;
  p.seed = 9;
  const PrecisionLabResult on = precision_lab(p);
  p.row_sums = false;
  const PrecisionLabResult off = precision_lab(p);
  ASSERT_EQ(off.cells.size(), on.cells.size());
  for (size_t i = 0; i < off.cells.size(); ++i) {
    EXPECT_EQ(off.cells[i].causes.sum_stall, 0.0);
    EXPECT_EQ(off.cells[i].share_nonfinite, on.cells[i].share_nonfinite);
    EXPECT_EQ(off.cells[i].causes.underflow, on.cells[i].causes.underflow);
    EXPECT_EQ(off.cells[i].max_abs_error, on.cells[i].max_abs_error);
    EXPECT_EQ(off.cells[i].probs, on.cells[i].probs);
    EXPECT_EQ(off.cells[i].share_nan, on.cells[i].share_nan);
    EXPECT_EQ(off.cells[i].mean_abs_error, on.cells[i].mean_abs_error);
    EXPECT_EQ(off.cells[i].jac_fro_median, on.cells[i].jac_fro_median);
  }
  // A fully masked row under the zero rule sums to 0 like its reference: not a stall.
  PrecisionLabParams m;
  m.logits.assign(8, -std::numeric_limits<double>::infinity());
  m.masked_row = MaskedRow::Zero;
  m.row_sums = true;
  for (const auto& c : precision_lab(m).cells) {
    EXPECT_EQ(c.causes.sum_stall, 0.0) << c.format << " " << c.algorithm;
    EXPECT_EQ(c.row_sum.max, 0.0);
  }
}

// ---- errors -----------------------------------------------------------------------------------

TEST(ScienceErrors, NewParametersNameTheBadValue) {
  expect_message([] { scale_power(2.5); }, "scale.power = 2.5");
  expect_message([] { scale_power(-0.1); }, "scale.power = -0.1");
  expect_message([] { scale_power(std::nan("")); }, "scale.power = NaN");
  expect_message([] {
    ScoreVarianceParams p;
    p.dks = {8};
    p.correlation = 1.5;
    score_variance(p);
  }, "correlation = 1.5");
  expect_message([] {
    AttentionStatsParams p;
    p.correlation = std::nan("");
    attention_stats(p);
  }, "correlation = NaN");
  expect_message([] {
    SaturationSweepParams p;
    p.dks = {8};
    p.scales = {parse_scale("none")};
    p.correlation = -2;
    saturation_sweep(p);
  }, "correlation = -2");
}

TEST(ScienceErrors, LongContextOptionsNameTheBadValue) {
  LongContextParams p;
  p.seq_lens = {64};
  p.methods = {"llama4"};
  p.options.floor_scale = 0.5;
  expect_message([&] { long_context(p); }, "floorScale = 0.5");
  p.options = {};
  p.options.attn_scale = -1;
  expect_message([&] { long_context(p); }, "attnScale = -1");
  p.options = {};
  p.options.ssmax_s = 0;
  expect_message([&] { long_context(p); }, "s = 0 must be");
  p.options = {};
  p.options.mscale = std::nan("");
  expect_message([&] { long_context(p); }, "mscale = NaN");
  p.options = {};
  p.options.mscale_all_dim = -3;
  expect_message([&] { long_context(p); }, "mscaleAllDim = -3");
  p.options = {};
  p.methods = {"temperature"};
  expect_message([&] { long_context(p); }, "'llama4', 'ssmax'");
}

TEST(ScienceErrors, PrecisionQkNamesTheBadValue) {
  PrecisionLabParams p = overflow_case(ScaleAt::Scores, parse_scale("none"));
  p.k.pop_back();
  expect_message([&] { precision_lab(p); }, "k.length = 383 is not keys · dk for dk = 128");
  p = overflow_case(ScaleAt::Scores, parse_scale("none"));
  p.q[5] = std::numeric_limits<float>::quiet_NaN();
  expect_message([&] { precision_lab(p); }, "q[5] = NaN");
  p = overflow_case(ScaleAt::Scores, parse_scale("none"));
  p.logits = {1, 2};
  expect_message([&] { precision_lab(p); }, "logits cannot go with q and k");
  p = overflow_case(ScaleAt::Scores, parse_scale("none"));
  p.k.clear();
  expect_message([&] { precision_lab(p); }, "k.length = 0");
  expect_message([] { parse_scale_at("keys"); }, "scaleAt = 'keys'");
  // the cost model counts the emulated products: refused before any tensor is read
  PrecisionLabParams big;
  big.dk = 64;
  big.q.assign(1024 * 64, 0.0f);
  big.k.assign(8192 * 64, 0.0f);
  expect_message([&] { precision_lab(big); }, "the products queries · keys · dk emulated in float32, bfloat16 and float16 "
                                              "(queries = 1024, keys = 8192, dk = 64): lower queries, keys or dk");
}

TEST(ScienceErrors, SinksNameTheBadValue) {
  AttentionStatsParams p;
  p.heads = 2;
  p.sinks = {1.0};
  expect_message([&] { attention_stats(p); }, "sinks.length = 1 does not match heads = 2");
  p.sinks = {1.0, std::nan("")};
  expect_message([&] { attention_stats(p); }, "sinks[1] = NaN");
  p.sinks = {std::numeric_limits<double>::infinity(), 0.0};
  expect_message([&] { attention_stats(p); }, "sinks[0] = inf");
  p.sinks = {0.0, 2e6};
  expect_message([&] { attention_stats(p); }, "sinks[1] = 2000000");
  SaturationSweepParams s;
  s.dks = {4};
  s.scales = {parse_scale("none")};
  s.heads = 1;
  s.sinks = {0.0, 0.0};
  expect_message([&] { saturation_sweep(s); }, "sinks.length = 2 does not match heads = 1");
  const std::vector<float> q = test::randn(8, 1), k = test::randn(8, 2), v = test::randn(8, 3);  // [1, 4, 2] each
  AttentionParams a = test::attention_params(q, k, v, 1, 4, 2, Kernel::Scalar);
  const std::vector<double> bad{std::nan("")};
  a.sinks = bad;
  expect_message([&] { attention(a); }, "sinks[0] = NaN");
}

}  // namespace
}  // namespace sqrtdk