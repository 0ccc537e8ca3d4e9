// scoreVariance: Var(q·k) = d_k σ⁴ by Monte Carlo, with its theory rows and histograms (C1, C3).
#pragma once

#include <cstdint>
#include <vector>

#include "logit_options.hpp"
#include "shapes.hpp"
#include "stats.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// ---------------------------------------------------------------------------------------------
// scoreVariance: the law Var(q·k) = d_k σ⁴ for q, k with iid N(0, σ²) components (C1, C3); with a
// correlation ρ every drawn pair is correlated as above, and the theory rows are N(ρ d_k σ², d_k σ⁴ (1 + ρ²))
// (raw), N(ρ √d_k σ², σ⁴ (1 + ρ²)) (1/√d_k) and N(ρ σ², σ⁴ (1 + ρ²)/d_k) (1/d_k); the histograms are
// then centred on the theoretical mean, ±5 theoretical std.
struct ScoreVarianceParams {
  std::vector<int> dks;    // head dimensions, each 1..16384, at most 64 of them
  int samples = defaults::score_variance::samples;     // pairs (q, k) per d_k, 2..1000000
  uint32_t seed = defaults::score_variance::seed;       // stream: Rng::stream(seed, d_k), so a d_k's numbers do not depend on the list
  double variance = defaults::score_variance::variance;   // σ², the variance of each component (positive, finite, ≤ 1e6)
  int hist_dk = 64;        // the d_k whose scores are histogrammed, 1..16384
  int bins = defaults::score_variance::bins;           // histogram bins, 4..400
  double correlation = defaults::score_variance::correlation;  // ρ in [−1, 1]: each pair's key is drawn as k_i = ρ q_i + √(1 − ρ²) z_i (see below)
};
struct ScoreVarianceRow {
  int dk = 0;
  Moments raw;          // of s = q·k
  Moments inv_sqrt_dk;  // of s/√d_k (exactly raw rescaled: mean/√d_k, variance/d_k)
  Moments inv_dk;       // of s/d_k
  Moments theory_raw;   // mean 0, variance d_k σ⁴
  Moments theory_inv_sqrt_dk;  // mean 0, variance σ⁴
  Moments theory_inv_dk;       // mean 0, variance σ⁴ / d_k
};
struct ScoreVarianceResult {
  std::vector<ScoreVarianceRow> rows;  // one per entry of dks, same order
  int hist_dk = 0;
  Histogram hist_raw;          // of q·k at hist_dk, edges ±5 theoretical std
  Histogram hist_inv_sqrt_dk;  // of q·k/√d_k at hist_dk, edges ±5 theoretical std
};
ScoreVarianceResult score_variance(const ScoreVarianceParams& p);

}  // namespace sqrtdk
