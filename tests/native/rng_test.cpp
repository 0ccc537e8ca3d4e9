// The project's generator and normal sampler: golden values from an independent Python
// implementation of SplitMix64 + xoshiro256** + Marsaglia's polar method (scripts/golden_rng.py),
// so the native build and the wasm build (the same suite runs under node) must draw them exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "rng.hpp"
#include "stats.hpp"

namespace sqrtdk {
namespace {

TEST(Rng, IntegerStreamMatchesGoldenValues) {
  Rng r(0);
  EXPECT_EQ(r.next_u64(), 0x99ec5f36cb75f2b4ULL);
  EXPECT_EQ(r.next_u64(), 0xbf6e1f784956452aULL);
  EXPECT_EQ(r.next_u64(), 0x1a5f849d4933e6e0ULL);
  EXPECT_EQ(r.next_u64(), 0x6aa594f1262d2d2cULL);
  Rng s(20261129);
  EXPECT_EQ(s.next_u64(), 0x15d7390b8b413d9dULL);
  EXPECT_EQ(s.next_u64(), 0x96422cb3f1d75970ULL);
  EXPECT_EQ(s.next_u64(), 0x41ac321f02d76416ULL);
}

TEST(Rng, StreamsAreSeedPlusGoldenRatioMultiples) {
  Rng r = Rng::stream(7, 3);
  EXPECT_EQ(r.next_u64(), 0x10b88053a5f9aa29ULL);
  EXPECT_EQ(r.next_u64(), 0x0537b974f13d0117ULL);
}

TEST(Rng, UniformMatchesGoldenValues) {
  Rng r(0);
  EXPECT_EQ(r.uniform(), 0.6012629994179048);
  EXPECT_EQ(r.uniform(), 0.7477740925472398);
  EXPECT_EQ(r.uniform(), 0.10301998939503632);
}

TEST(Rng, NormalsMatchGoldenValues) {
  // Relative 1e-15: only log may differ by an ulp between C libraries.
  const double golden0[] = {0.5981026483626094, 1.4634599192204392, -0.8950525532379914,
                            -0.1880627660388742, -2.415606685712082, 1.1072094167289706};
  Rng r(0);
  for (double g : golden0) EXPECT_NEAR(r.normal(), g, 1e-15 * std::fabs(g));
  const double golden1[] = {0.38264563425510895, -0.5806264204407383, 0.02769454206835323, -0.24557531478482358};
  Rng s(12345);
  for (double g : golden1) EXPECT_NEAR(s.normal(), g, 1e-15 * std::fabs(g));
}

TEST(Rng, NormalMomentsAreStandard) {
  // 1e6 draws: the sample mean has std 1e-3 and the sample variance std √2·1e-3; allow 5σ.
  Rng r(99);
  MomentAccumulator acc;
  for (int i = 0; i < 1000000; ++i) acc.add(r.normal());
  const Moments m = acc.moments();
  EXPECT_NEAR(m.mean, 0.0, 5e-3);
  EXPECT_NEAR(m.variance, 1.0, 5 * 1.415e-3);
}

TEST(Rng, UniformStaysInUnitInterval) {
  Rng r(1);
  for (int i = 0; i < 100000; ++i) {
    const double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

}  // namespace
}  // namespace sqrtdk
