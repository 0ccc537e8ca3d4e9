// normalDraws: the core's normal draws of one stream, as the page's own random tensors take them — the
// stream's own sampler bit for bit, the golden values of the generator, draw_tensor's Q and K after the
// float32 conversion, σ as an exact factor, and every bad value named.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "experiment_common.hpp"
#include "normal_draws.hpp"
#include "rng.hpp"
#include "stats.hpp"

namespace sqrtdk {
namespace {

NormalDrawsResult draws(int n, uint32_t seed, int stream = 0, double sigma = 1.0) {
  NormalDrawsParams p;
  p.n = n;
  p.seed = seed;
  p.stream = stream;
  p.sigma = sigma;
  return normal_draws(p);
}

TEST(NormalDraws, AreTheStreamsOwnNormalsInOrder) {
  for (const auto& [seed, stream, n] : {std::tuple{0u, 0, 1}, {7u, 3, 2}, {4294967295u, 2147483647, 7}, {12345u, 1, 1001}}) {
    const NormalDrawsResult r = draws(n, seed, stream);
    ASSERT_EQ(r.values.size(), static_cast<size_t>(n));
    Rng rng = Rng::stream(seed, static_cast<uint64_t>(stream));
    for (int i = 0; i < n; ++i) EXPECT_EQ(r.values[i], rng.normal()) << "seed " << seed << " stream " << stream << " draw " << i;
  }
}

TEST(NormalDraws, StreamZeroIsTheSeedsGenerator) {
  // rng_test.cpp's golden normals of Rng(0) (scripts/golden_rng.py); relative 1e-15: only log may differ by an ulp
  // between C libraries (the wasm core has one log, the same in every engine)
  const double golden0[] = {0.5981026483626094, 1.4634599192204392, -0.8950525532379914,
                            -0.1880627660388742, -2.415606685712082, 1.1072094167289706};
  const NormalDrawsResult r = draws(6, 0);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(r.values[i], golden0[i], 1e-15 * std::fabs(golden0[i]));
}

TEST(NormalDraws, InFloat32AreDrawTensorsQAndK) {
  // attentionStats draws Q from stream 1 and K from stream 2 of its seed as float32(σ · normal())
  for (const double sigma : {1.0, 0.5, 3.0}) {
    const size_t n = 2 * 33 * 17;
    for (const int stream : {1, 2}) {
      const std::vector<float> t = detail::draw_tensor(9, static_cast<uint64_t>(stream), n, sigma);
      const NormalDrawsResult r = draws(static_cast<int>(n), 9, stream, sigma);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<float>(r.values[i]), t[i]) << "sigma " << sigma << " stream " << stream << " at " << i;
    }
  }
}

TEST(NormalDraws, SigmaIsAFactorOfTheSameDraws) {
  const NormalDrawsResult one = draws(512, 5, 4), two = draws(512, 5, 4, 2.0), tenth = draws(512, 5, 4, 0.1);
  for (size_t i = 0; i < one.values.size(); ++i) {
    EXPECT_EQ(two.values[i], 2.0 * one.values[i]);  // × 2 is exact
    EXPECT_EQ(tenth.values[i], 0.1 * one.values[i]);
  }
}

TEST(NormalDraws, MomentsAreThoseOfNZeroSigmaSquared) {
  // 200 000 draws of σ = 3: the sample mean has std 3/√2e5 = 0.0067, the sample variance std 9·√(2/2e5) = 0.028; 5σ
  MomentAccumulator acc;
  for (double x : draws(200000, 2026, 6, 3.0).values) acc.add(x);
  const Moments m = acc.moments();
  EXPECT_NEAR(m.mean, 0.0, 5 * 0.0068);
  EXPECT_NEAR(m.variance, 9.0, 5 * 0.029);
}

TEST(NormalDraws, BadValuesAreNamed) {
  const auto message = [](auto f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no throw)");
  };
  EXPECT_NE(message([] { draws(0, 1); }).find("n = 0"), std::string::npos);
  EXPECT_NE(message([] { draws(kMaxNormalDraws + 1, 1); }).find("n = 16777217"), std::string::npos);
  EXPECT_NE(message([] { draws(4, 1, -1); }).find("stream = -1"), std::string::npos);
  EXPECT_NE(message([] { draws(4, 1, 0, 0.0); }).find("sigma = 0"), std::string::npos);
  EXPECT_NE(message([] { draws(4, 1, 0, -1.0); }).find("sigma"), std::string::npos);
  EXPECT_NE(message([] { draws(4, 1, 0, 1001.0); }).find("sigma"), std::string::npos);
  EXPECT_NE(message([] { draws(4, 1, 0, std::numeric_limits<double>::quiet_NaN()); }).find("sigma"), std::string::npos);
  EXPECT_NE(message([] { draws(4, 1, 0, std::numeric_limits<double>::infinity()); }).find("sigma"), std::string::npos);
  EXPECT_EQ(draws(3, 1, 2147483647, 1000.0).values.size(), 3u);  // the bounds themselves pass
}

}  // namespace
}  // namespace sqrtdk
