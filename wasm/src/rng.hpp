// The project's own random numbers, identical natively and in WebAssembly for a given seed.
//
// Generator: xoshiro256** 1.0 (Blackman & Vigna, "Scrambled Linear Pseudorandom Number
// Generators", ACM TOMS 2021), its 256-bit state filled by four successive outputs of
// SplitMix64 (Steele, Lea & Flood 2014) started at the seed, as the authors recommend.
// Uniform doubles take the top 53 bits: (x >> 11) · 2^-53, in [0, 1).
// Normals: Marsaglia's polar method (Marsaglia & Bray 1964): draw u, v uniform in (-1, 1)
// until 0 < s = u² + v² < 1, then u·√(−2 ln s / s) and v·√(−2 ln s / s) are two independent
// N(0, 1) values; the second is kept for the next call. Only +, ×, /, sqrt (exact in IEEE 754)
// and log are used, so every build with a faithful log gives the same normals.
#pragma once

#include <cstdint>

namespace sqrtdk {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();

 private:
  uint64_t state_;
};

class Rng {
 public:
  // A generator whose stream is fixed by `seed` alone.
  explicit Rng(uint64_t seed);
  // An independent stream for sub-experiment `stream` of a seed: seeds SplitMix64 with
  // seed + stream · 0x9E3779B97F4A7C15 (the golden-ratio increment), so streams never alias.
  static Rng stream(uint64_t seed, uint64_t stream);

  uint64_t next_u64();
  double uniform();         // [0, 1), 53 random bits
  double normal();          // N(0, 1), Marsaglia polar method
  float normal_f32() { return static_cast<float>(normal()); }

 private:
  uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace sqrtdk
