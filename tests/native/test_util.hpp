// Shared helpers of the native / wasm GoogleTest suites: the kernel families this build can run,
// seeded N(0, σ²) float32 vectors from the project's own generator (the same on every platform),
// attentionStats' own draws, and the check that an error names the bad value.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "kernels.hpp"
#include "rng.hpp"

namespace sqrtdk::test {

/** Scalar always; SIMD128 where this build has it (wasm with -msimd128). */
inline std::vector<Kernel> families() {
  std::vector<Kernel> f{Kernel::Scalar};
  if (simd_available()) f.push_back(Kernel::Simd);
  return f;
}

/** n draws of σ·N(0, 1) as float32, from Rng(seed) (xoshiro256** + Marsaglia polar). */
inline std::vector<float> randn(size_t n, uint32_t seed, double sigma = 1.0) {
  Rng r(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(sigma * r.normal());
  return v;
}

/** The parameters of an attention call on q, k, v [heads, L, dk] with kernel family kf (masks off). */
inline AttentionParams attention_params(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                                        int heads, int L, int dk, Kernel kf) {
  AttentionParams p;
  p.q = q;
  p.k = k;
  p.v = v;
  p.heads = heads;
  p.seq_len = L;
  p.dk = dk;
  p.kernel = kf;
  return p;
}

// The draws of attentionStats, made here by hand: Q from stream 1, K from stream 2 (σ = 1).
inline std::vector<float> stream_tensor(uint32_t seed, uint64_t stream, size_t n) {
  Rng rng = Rng::stream(seed, stream);
  std::vector<float> t(n);
  for (auto& x : t) x = static_cast<float>(rng.normal());
  return t;
}

// Expects f to throw std::invalid_argument whose message holds needle.
inline void expect_message(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

}  // namespace sqrtdk::test
