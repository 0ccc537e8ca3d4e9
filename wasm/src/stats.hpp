// Statistics of scores and attention rows, all accumulated in double.
// Notation: see shapes.hpp. p is one attention row (a probability vector of length L).
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <vector>

namespace sqrtdk {

// Sample moments: mean, unbiased variance (n − 1 in the denominator) and its square root.
struct Moments {
  double mean = 0.0;
  double variance = 0.0;
  double std = 0.0;
};

// Welford's one-pass accumulation (Welford 1962), in double.
class MomentAccumulator {
 public:
  void add(double x);
  Moments moments() const;  // n < 2 gives variance 0
  long long count() const { return n_; }

 private:
  long long n_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;
};

// Counts of `values` in the bins [edges[i], edges[i+1]) (the last bin closed on the right);
// values outside [edges.front(), edges.back()] are counted in `below` / `above`.
struct Histogram {
  std::vector<double> edges;   // [bins + 1], ascending
  std::vector<double> counts;  // [bins]
  double below = 0.0;
  double above = 0.0;
};
std::vector<double> uniform_edges(double lo, double hi, int bins);
Histogram histogram(const std::vector<double>& values, std::vector<double> edges);

// Quantile q ∈ [0, 1] by linear interpolation between order statistics (Hyndman & Fan 1996,
// type 7, numpy's default). Empty input gives NaN.
double quantile(std::vector<double> values, double q);

// The distribution of a per-row quantity: means alone mislead on heavy-tailed quantities.
struct Summary {
  double mean = 0.0;
  double median = 0.0;
  double p10 = 0.0;  // 10 % quantile
  double p90 = 0.0;  // 90 % quantile
};
Summary summarize(const std::vector<double>& values);

// Per-row quantities of one attention row p [n] (computed after renormalising p in double).
struct RowStats {
  double entropy = 0.0;      // H = −Σ p ln p in nats, 0·ln 0 = 0
  double max_weight = 0.0;   // max_j p_j
  double eff_support = 0.0;  // exp(H): the number of keys a uniform row with this entropy would cover
  double jac_fro = 0.0;      // ‖J‖_F of J = diag(p) − p pᵀ
  double jac_spec = 0.0;     // ‖J‖₂, the largest eigenvalue of J (J is symmetric positive semi-definite)
};
// All of the above in O(n). 1 − p_max is computed as Σ_{j≠argmax} p_j, so a saturated row keeps
// its (tiny) Jacobian norms and entropy instead of rounding them to 0. A zero row (all keys
// masked) gives all zeros.
RowStats row_stats(const double* p, int n);
// The statistics a caller needs (bit flags): the others are left 0 and not computed. Each one
// computed is bit for bit the full row_stats' (the same operations in the same order); the
// secular solve of ‖J‖₂ is most of the full pass's work, ‖J‖_F a pass more.
enum RowStatsWant : unsigned {
  kRowEntropy = 1u,    // entropy, eff_support and max_weight (one pass for the top, one for the logs)
  kRowJacFro = 2u,     // ‖J‖_F
  kRowJacSpec = 4u,    // ‖J‖₂ (secular equation)
  kRowAll = 7u,
};
RowStats row_stats(const double* p, int n, unsigned want);

// ---- The fast path: statistics of a float32 attention row, as the experiments compute them ----
// The relative tolerance at which the per-row summaries' iterative solves (the secular equation of
// ‖J‖₂, the Lanczos method of the soft-capped ‖J D‖₂) stop: the page shows 4 significant digits,
// and a step below 1e-7 leaves an error far under that (tests/native/stats_test.cpp holds the
// results to the double reference within 1e-6 relatively).
inline constexpr double kRowSolveRelTol = 1e-7;
// row_stats of the float32 row p [n] (p ≥ 0, no NaN; renormalised as row_stats does), computed from
// the float32 values without a double copy by the passes of a kernel family (kernels.hpp):
// entropy from Σ p ln p with a float32 ln (f32_log_nonnegative) summed in double, ‖J‖_F from
// Σ p², Σ p³ (expanded form of row_stats' sums), ‖J‖₂ by row_stats' secular iteration stopped at
// rel_tol. Accuracy against row_stats of the same values in double: entropy and ‖J‖₂ within 1e-6
// relatively, max weight and ‖J‖_F within 1e-12 (stats_test.cpp). The families give the same bits.
struct F32RowKernels;
RowStats f32_row_stats(const float* p, int n, unsigned want, const F32RowKernels& k, double rel_tol = kRowSolveRelTol);
// The same with the fastest family of the build (f32_row_kernels_best).
RowStats f32_row_stats(const float* p, int n, unsigned want);

// The softmax Jacobian J = ∂p/∂s = diag(p) − p pᵀ [n, n] (Bridle 1990; any deep-learning text).
Eigen::MatrixXd softmax_jacobian_matrix(const double* p, int n);
// ‖J‖₂ by the secular equation of the rank-one downdate diag(p) − p pᵀ (Golub 1973): its largest
// eigenvalue λ lies in [p₍₂₎, p₍₁₎] and solves 1 − Σ pᵢ² / (pᵢ − λ) = 0; safeguarded Newton.
double softmax_jacobian_spectral_norm(const double* p, int n);
// ‖J D‖_F and ‖J D‖₂ for J = diag(p) − p pᵀ and D = diag(d), d ≥ 0: the Jacobian of a softmax
// whose logits went through an elementwise map with derivative d (soft-capping). The Frobenius
// norm in O(n) as in row_stats; the spectral norm by the Lanczos method on (J D)ᵀ (J D), with
// products J u = p ⊙ Σ_j p_j (u_i − u_j) computed without the cancellation of 1 − p_max; it stops
// when the largest Ritz value (‖J D‖₂²) changes by < rel_tol relatively over 4 steps (at most
// min(n, 160) steps): 1e-13 by default, which the experiments use (stopped at 1e-7, near-uniform rows, whose spectrum
// clusters, came out 2.4e-4 off).
struct JacobianNorms {
  double frobenius = 0.0;
  double spectral = 0.0;
};
JacobianNorms softmax_jacobian_scaled_norms(const double* p, const double* d, int n, bool spectral = true,
                                            double rel_tol = 1e-13);  // !spectral: Frobenius only
// J g = p ⊙ (g − (p·g)): the gradient of a scalar loss through softmax, given g = ∂ℓ/∂p
// (J is symmetric, so Jᵀ g = J g). Writes out [n].
void softmax_jacobian_vector(const double* p, const double* g, double* out, int n);

}  // namespace sqrtdk
