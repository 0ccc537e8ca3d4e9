// Emulated float16 / bfloat16 / float32 rounding against exact tables, and softmax in each
// format against the float64 reference (issue: precision lab).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>
#include <vector>

#include "experiments.hpp"
#include "precision.hpp"
#include "rng.hpp"

namespace sqrtdk {
namespace {

const double inf = std::numeric_limits<double>::infinity();
double p2(int e) { return std::ldexp(1.0, e); }

TEST(Float16, ExactTable) {
  const Format f = Format::Float16;
  const std::vector<std::pair<double, double>> table = {
      {1.0, 1.0},
      {0.1, 0.0999755859375},                  // 1638 · 2^-14
      {65504.0, 65504.0},                      // largest finite
      {65519.99, 65504.0},                     // below the midpoint to 65536
      {65520.0, inf},                          // the midpoint rounds to even = 65536: overflow
      {-70000.0, -inf},
      {1.0 + p2(-11), 1.0},                    // tie: to the even neighbour 1
      {1.0 + 3 * p2(-11), 1.0 + p2(-9)},       // tie: 1 + 2^-10 is odd, 1 + 2^-9 even
      {p2(-14), p2(-14)},                      // smallest normal
      {1023 * p2(-24), 1023 * p2(-24)},        // largest subnormal
      {p2(-24), p2(-24)},                      // smallest subnormal
      {p2(-25), 0.0},                          // tie between 0 and 2^-24: to even (0)
      {3 * p2(-26), p2(-24)},                  // 0.75 · 2^-24 rounds up
      {1.5 * p2(-24), 2 * p2(-24)},            // tie between 1 and 2 ulps: to even (2)
      {p2(-30), 0.0},                          // underflow to zero
  };
  for (const auto& [x, want] : table) EXPECT_EQ(round_to(f, x), want) << "x = " << x;
  EXPECT_TRUE(std::isnan(round_to(f, std::nan(""))));
  EXPECT_EQ(round_to(f, -inf), -inf);
  EXPECT_TRUE(std::signbit(round_to(f, -0.0)));
  EXPECT_EQ(format_info(f).max_finite, 65504.0);
  EXPECT_EQ(format_info(f).min_subnormal, p2(-24));
}

TEST(BFloat16, ExactTable) {
  const Format f = Format::BFloat16;
  const double maxf = (2.0 - p2(-7)) * p2(127);  // 3.3895313892515355e38
  const std::vector<std::pair<double, double>> table = {
      {1.0, 1.0},
      {1.0 / 3.0, 0.333984375},             // 0x3EAB
      {1.0 + p2(-8), 1.0},                  // tie to even
      {1.0 + 3 * p2(-8), 1.0 + p2(-6)},     // tie to even (upwards)
      {maxf, maxf},
      {(2.0 - p2(-8)) * p2(127), inf},      // the midpoint above the largest finite: overflow
      {(2.0 - 1.5 * p2(-8)) * p2(127), maxf},
      {p2(-126), p2(-126)},                 // smallest normal
      {p2(-133), p2(-133)},                 // smallest subnormal
      {p2(-134), 0.0},                      // tie to even: 0
      {100000.0, 99840.0},                  // 195 · 2^9
  };
  for (const auto& [x, want] : table) EXPECT_EQ(round_to(f, x), want) << "x = " << x;
  EXPECT_EQ(format_info(f).max_finite, maxf);
}

TEST(Float32, MatchesHardwareConversion) {
  // round_to(Float32, x) against the IEEE double → float conversion, bit for bit, over normals,
  // subnormals (x · 2^-140), huge values (overflow) and ties.
  Rng r(17);
  for (int i = 0; i < 200000; ++i) {
    const double base = r.normal();
    for (int e : {0, -140, -149, 120, 128}) {
      const double x = std::ldexp(base, e);
      const float hw = static_cast<float>(x);
      EXPECT_EQ(round_to(Format::Float32, x), static_cast<double>(hw)) << x;
    }
  }
  EXPECT_EQ(round_to(Format::Float32, 1.0 + p2(-24)), 1.0);
  EXPECT_EQ(round_to(Format::Float32, 1.0 + 3 * p2(-24)), 1.0 + p2(-22));
  EXPECT_EQ(round_to(Format::Float64, 0.1), 0.1);
}

TEST(SoftmaxInFormat, PresetsOverflowWhereTheFormatsRangeEnds) {
  const std::vector<double> big{100.0, 90.0, 80.0};
  // exp(100) ≈ 2.7e43 overflows float32 and float16 (and bfloat16 does not: its range is float32's
  // up to 3.4e38 — it overflows too); the naive quotient ∞/∞ is NaN.
  for (Format f : {Format::Float32, Format::BFloat16, Format::Float16}) {
    const auto naive = softmax_in_format(big, f, SoftmaxAlgorithm::Naive, 32);
    EXPECT_TRUE(std::isnan(naive[0])) << format_info(f).name;
    const auto safe = softmax_in_format(big, f, SoftmaxAlgorithm::Safe, 32);
    EXPECT_NEAR(safe[0], 1.0 / (1.0 + std::exp(-10.0) + std::exp(-20.0)), f == Format::Float32 ? 1e-7 : 4e-3);
  }
  EXPECT_FALSE(std::isnan(softmax_in_format(big, Format::Float64, SoftmaxAlgorithm::Naive, 32)[0]));
  // [11, 11] in float16: each exp(11) ≈ 59874 fits, their sum does not: the naive weights become
  // 59874 / ∞ = 0, not NaN — a silent wrong answer.
  const auto eleven = softmax_in_format({11.0, 11.0}, Format::Float16, SoftmaxAlgorithm::Naive, 32);
  EXPECT_EQ(eleven, (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(softmax_in_format({11.0, 11.0}, Format::Float16, SoftmaxAlgorithm::Safe, 32), (std::vector<double>{0.5, 0.5}));
  // [10, 0]: fine everywhere.
  const auto ten = softmax_in_format({10.0, 0.0}, Format::Float16, SoftmaxAlgorithm::Naive, 32);
  EXPECT_NEAR(ten[0], 0.99995, 1e-3);
}

TEST(SoftmaxInFormat, EachAlgorithmMatchesFloat64WithinTheFormatsPrecision) {
  Rng r(3);
  for (int n : {1, 2, 7, 64, 513}) {
    std::vector<double> x(n);
    for (double& v : x) v = 3.0 * r.normal();
    const auto ref = softmax_in_format(x, Format::Float64, SoftmaxAlgorithm::Safe, 32);
    double xmax = 0.0;
    for (double v : x) xmax = std::max(xmax, std::fabs(v));
    // Rounding the logits to the format moves exp(x_j − m) by about (|x_j| + |m|)·u relatively
    // (u = 2^-(m+1), the unit roundoff), and each of the few operations adds u: the bound below.
    // Float16 and bfloat16 also flush weights under their smallest subnormal (absolute term).
    const std::tuple<Format, double, double> formats[] = {{Format::Float64, p2(-53), 0.0},
                                                          {Format::Float32, p2(-24), 0.0},
                                                          {Format::BFloat16, p2(-8), p2(-133)},
                                                          {Format::Float16, p2(-11), p2(-24)}};
    for (const auto& [f, u, tiny] : formats)
      for (auto a : {SoftmaxAlgorithm::Naive, SoftmaxAlgorithm::Safe, SoftmaxAlgorithm::Online}) {
        const auto out = softmax_in_format(x, f, a, 16);
        for (int j = 0; j < n; ++j) {
          const double bound = (8.0 + 2.0 * (std::fabs(x[j]) + xmax)) * u * ref[j] + tiny;
          ASSERT_NEAR(out[j], ref[j], bound) << format_info(f).name << " n=" << n << " j=" << j << " algo=" << int(a);
        }
      }
  }
}

TEST(SoftmaxInFormat, OnlineEqualsSafeUpToRoundingAtSeveralBlockSizes) {
  Rng r(4);
  std::vector<double> x(1000);
  for (double& v : x) v = 5.0 * r.normal();
  for (int block : {1, 3, 16, 64, 1000, 4096}) {
    const auto safe64 = softmax_in_format(x, Format::Float64, SoftmaxAlgorithm::Safe, block);
    const auto online64 = softmax_in_format(x, Format::Float64, SoftmaxAlgorithm::Online, block);
    const auto safe32 = softmax_in_format(x, Format::Float32, SoftmaxAlgorithm::Safe, block);
    const auto online32 = softmax_in_format(x, Format::Float32, SoftmaxAlgorithm::Online, block);
    for (size_t j = 0; j < x.size(); ++j) {
      // The rescaling by exp(m_old − m_new) adds a few roundings per block: ≤ 1e-13 (float64),
      // ≤ 2e-5 relative (float32, ~1000 terms in the running sum).
      ASSERT_NEAR(online64[j], safe64[j], 1e-13 * safe64[j] + 1e-300) << "block " << block;
      ASSERT_NEAR(online32[j], safe32[j], 2e-5 * safe32[j] + 1e-40) << "block " << block;
    }
  }
}

TEST(SoftmaxInFormat, MaskedRowsAreNanByTheirFormulasOrZerosByTheKernelConvention) {
  for (auto a : {SoftmaxAlgorithm::Naive, SoftmaxAlgorithm::Safe, SoftmaxAlgorithm::Online}) {
    const auto nan = softmax_in_format({-inf, -inf}, Format::Float16, a, 1);
    EXPECT_TRUE(std::isnan(nan[0]) && std::isnan(nan[1]));
    SoftmaxOptions zero;
    zero.block_size = 1;
    zero.masked_row = MaskedRow::Zero;
    EXPECT_EQ(softmax_in_format({-inf, -inf}, Format::Float16, a, zero), (std::vector<double>{0.0, 0.0}));
    const auto part = softmax_in_format({-inf, 0.0, -inf, 0.0}, Format::Float32, a, 1);
    EXPECT_EQ(part, (std::vector<double>{0.0, 0.5, 0.0, 0.5}));
  }
}

TEST(PrecisionLab, SaturationIsNotAPrecisionProblem) {
  // No scale at d_k = 512: the float64 and float32 Jacobians are equally tiny (C11).
  PrecisionLabParams p;
  p.rows = 64;
  p.seq_len = 128;
  p.dk = 512;
  p.scale = parse_scale("none");
  const PrecisionLabResult r = precision_lab(p);
  ASSERT_EQ(r.cells.size(), 12u);
  const PrecisionCell& f64_safe = r.cells[1];
  const PrecisionCell& f32_safe = r.cells[4];
  EXPECT_EQ(f64_safe.format, "float64");
  EXPECT_EQ(f32_safe.format, "float32");
  EXPECT_EQ(f32_safe.algorithm, "safe");
  EXPECT_NEAR(f32_safe.jac_fro_median, r.jac_fro_median_f64, 1e-3 * r.jac_fro_median_f64 + 1e-9);
  EXPECT_LT(r.jac_fro_median_f64, 0.05);  // saturated in float64 too
  // Logits reach |s| ≈ 3.3 · 22.6 ≈ 75: the naive float16 softmax overflows (exp(11.1) > 65504).
  EXPECT_GT(r.cells[9].share_nonfinite, 0.9);   // float16 naive
  EXPECT_EQ(r.cells[10].share_nonfinite, 0.0);  // float16 safe
  EXPECT_LT(r.online_vs_safe[0], 1e-13);
}

TEST(PrecisionLab, ExplicitLogitsAndErrors) {
  PrecisionLabParams p;
  p.logits = {100.0, 90.0, 80.0};
  const PrecisionLabResult r = precision_lab(p);
  EXPECT_EQ(r.rows, 1);
  EXPECT_EQ(r.seq_len, 3);
  EXPECT_EQ(r.cells[3].algorithm, "naive");
  EXPECT_EQ(r.cells[3].share_nan, 1.0);        // float32 naive
  EXPECT_TRUE(std::isnan(r.cells[3].max_abs_error));
  EXPECT_EQ(r.cells[4].share_nonfinite, 0.0);  // float32 safe
  p.logits = {1.0, std::nan("")};
  EXPECT_THROW(precision_lab(p), std::invalid_argument);
  p.logits = {};
  p.rows = 0;
  EXPECT_THROW(precision_lab(p), std::invalid_argument);
}

}  // namespace
}  // namespace sqrtdk
