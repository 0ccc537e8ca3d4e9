// normalDraws: n draws N(0, σ²) from the core's own generator and normal sampler (rng.hpp), in double,
// for the page's own random tensors (the GQA view's logit check, the device benchmark's inputs, the
// example files), so that they are the same bits in every engine: the sampler is compiled into the
// wasm core with its own log, never the engine's Math.log/cos/sqrt.
#pragma once

#include <cstdint>
#include <vector>

#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// The most draws of one call: 2^24 (128 MiB of doubles, about 0.4 s on the calibration machine).
inline constexpr int kMaxNormalDraws = ranges::normal_draws::n.hi;  // 2^24 (experiments.js)
// The largest σ: σ² ≤ 1e6, the variance bound of every other experiment.
inline constexpr double kMaxNormalSigma = ranges::normal_draws::sigma.hi;  // 1e3 (experiments.js)

struct NormalDrawsParams {
  int n = 1;                                          // draws, 1..kMaxNormalDraws
  uint32_t seed = defaults::normal_draws::seed;      // the seed of the stream
  int stream = defaults::normal_draws::stream;       // which stream of the seed, 0..2^31−1 (Rng::stream)
  double sigma = defaults::normal_draws::sigma;      // σ, the standard deviation, in (0, kMaxNormalSigma]
};

struct NormalDrawsResult {
  std::vector<double> values;  // [n]: σ · z_i, z_i the successive Rng::stream(seed, stream).normal() draws
};

// values[i] = σ · normal_i of Rng::stream(seed, stream), in order; converted to float32 they are exactly
// draw_tensor(seed, stream, n, σ) (experiment_common.hpp), the core's own Q, K, V of that stream.
// Throws std::invalid_argument naming n, stream or sigma when out of range.
NormalDrawsResult normal_draws(const NormalDrawsParams& p);

}  // namespace sqrtdk
