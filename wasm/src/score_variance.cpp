// scoreVariance (score_variance.hpp): the scores' draws, moments and histograms.
#include "score_variance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "cost.hpp"
#include "experiment_common.hpp"
#include "rng.hpp"
#include "shapes.hpp"

namespace sqrtdk {

using namespace detail;

namespace {

// Draws `samples` scores q·k (components N(0, σ²), in double) for one d_k from stream (seed, dk);
// with ρ ≠ 0 each key is k_i = ρ q_i + √(1 − ρ²) z_i from the same draws z_i (see check_correlation).
std::vector<double> draw_scores(uint32_t seed, int dk, int samples, double sigma, double rho) {
  Rng rng = Rng::stream(seed, static_cast<uint64_t>(dk));
  std::vector<double> q(static_cast<size_t>(dk));
  std::vector<double> scores(static_cast<size_t>(samples));
  const double rest = std::sqrt(1.0 - rho * rho);
  for (int s = 0; s < samples; ++s) {
    for (int i = 0; i < dk; ++i) q[i] = sigma * rng.normal();
    double dot = 0.0;
    if (rho == 0.0)
      for (int i = 0; i < dk; ++i) dot += q[i] * (sigma * rng.normal());
    else
      for (int i = 0; i < dk; ++i) dot += q[i] * (rho * q[i] + rest * (sigma * rng.normal()));
    scores[s] = dot;
  }
  return scores;
}

Moments scaled(const Moments& m, double c) { return Moments{m.mean * c, m.variance * c * c, m.std * c}; }
Moments normal_moments(double variance) { return Moments{0.0, variance, std::sqrt(variance)}; }
// Of q·k for a pair correlated by ρ (see check_correlation): mean ρ d_k σ², variance d_k σ⁴ (1 + ρ²).
Moments correlated_moments(int dk, double variance, double rho) {
  const double var = dk * variance * variance * (1.0 + rho * rho);
  return Moments{rho * dk * variance, var, std::sqrt(var)};
}

}  // namespace

ScoreVarianceResult score_variance(const ScoreVarianceParams& p) {
  constexpr const char* what = "scoreVariance";
  check_dks(what, p.dks);
  check_int_range(what, "samples", p.samples, 2, 1000000);
  check_int_range(what, "histDk", p.hist_dk, 1, kMaxDk);
  check_int_range(what, "bins", p.bins, 4, 400);
  check_variance(what, p.variance);
  check_correlation(what, p.correlation);
  {
    double sum_dk = 0.0;
    for (int dk : p.dks) sum_dk += dk;
    std::vector<CostTerm> terms{{draws_ns(2.0 * p.samples * sum_dk),
                                 "samples = " + std::to_string(p.samples) + ", dks = " + format_number(sum_dk) + " in sum",
                                 "drawing samples · Σ dks pairs of normals"}};
    if (std::find(p.dks.begin(), p.dks.end(), p.hist_dk) == p.dks.end())  // drawn apart only if not in dks
      terms.push_back({draws_ns(2.0 * p.samples * p.hist_dk),
                       "histDk = " + std::to_string(p.hist_dk) + ", samples = " + std::to_string(p.samples),
                       "drawing the histogram's samples · histDk pairs of normals"});
    check_work_bytes(what, 3.0 * 8.0 * p.samples, "samples = " + std::to_string(p.samples));
    check_cost(what, terms);
  }

  const double sigma = std::sqrt(p.variance);
  const double s4 = p.variance * p.variance;
  ScoreVarianceResult r;
  std::vector<double> hist_scores;
  for (int dk : p.dks) {
    std::vector<double> scores = draw_scores(p.seed, dk, p.samples, sigma, p.correlation);
    MomentAccumulator acc;
    for (double s : scores) acc.add(s);
    ScoreVarianceRow row;
    row.dk = dk;
    row.raw = acc.moments();
    row.inv_sqrt_dk = scaled(row.raw, 1.0 / std::sqrt(double(dk)));
    row.inv_dk = scaled(row.raw, 1.0 / double(dk));
    if (p.correlation == 0.0) {
      row.theory_raw = normal_moments(dk * s4);
      row.theory_inv_sqrt_dk = normal_moments(s4);
      row.theory_inv_dk = normal_moments(s4 / dk);
    } else {
      const Moments m = correlated_moments(dk, p.variance, p.correlation);
      row.theory_raw = m;
      row.theory_inv_sqrt_dk = scaled(m, 1.0 / std::sqrt(double(dk)));
      row.theory_inv_dk = scaled(m, 1.0 / double(dk));
    }
    r.rows.push_back(row);
    if (dk == p.hist_dk && hist_scores.empty()) hist_scores = std::move(scores);
  }
  if (hist_scores.empty()) hist_scores = draw_scores(p.seed, p.hist_dk, p.samples, sigma, p.correlation);
  r.hist_dk = p.hist_dk;
  const Moments th = correlated_moments(p.hist_dk, p.variance, p.correlation);
  const double sd = p.correlation == 0.0 ? std::sqrt(p.hist_dk * s4) : th.std;
  const double mu = th.mean;  // 0 when ρ = 0: the edges are today's
  r.hist_raw = histogram(hist_scores, uniform_edges(mu - 5.0 * sd, mu + 5.0 * sd, p.bins));
  const double c = 1.0 / std::sqrt(double(p.hist_dk));
  for (double& s : hist_scores) s *= c;
  r.hist_inv_sqrt_dk = histogram(hist_scores, uniform_edges((mu - 5.0 * sd) * c, (mu + 5.0 * sd) * c, p.bins));
  return r;
}
}  // namespace sqrtdk
