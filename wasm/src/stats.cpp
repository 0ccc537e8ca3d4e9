// Statistics of scores and attention rows, accumulated in double (stats.hpp).
#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernels.hpp"

namespace sqrtdk {

void MomentAccumulator::add(double x) {
  ++n_;
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
}

Moments MomentAccumulator::moments() const {
  Moments m;
  m.mean = mean_;
  m.variance = n_ > 1 ? m2_ / static_cast<double>(n_ - 1) : 0.0;
  m.std = std::sqrt(m.variance);
  return m;
}

std::vector<double> uniform_edges(double lo, double hi, int bins) {
  std::vector<double> edges(static_cast<size_t>(bins) + 1);
  for (int i = 0; i <= bins; ++i) edges[i] = lo + (hi - lo) * static_cast<double>(i) / bins;
  return edges;
}

Histogram histogram(const std::vector<double>& values, std::vector<double> edges) {
  if (edges.size() < 2) throw std::invalid_argument("histogram: needs at least 2 edges");
  Histogram h;
  h.edges = std::move(edges);
  h.counts.assign(h.edges.size() - 1, 0.0);
  for (double x : values) {
    if (x < h.edges.front()) {
      h.below += 1;
    } else if (x > h.edges.back()) {
      h.above += 1;
    } else {
      auto it = std::upper_bound(h.edges.begin(), h.edges.end(), x);
      size_t bin = static_cast<size_t>(it - h.edges.begin());
      bin = bin == 0 ? 0 : bin - 1;
      if (bin >= h.counts.size()) bin = h.counts.size() - 1;  // x == last edge
      h.counts[bin] += 1;
    }
  }
  return h;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double pos = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
  const double vlo = values[lo];
  double vhi = vlo;
  if (hi != lo) vhi = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lo) + 1, values.end());
  return vlo + (pos - static_cast<double>(lo)) * (vhi - vlo);
}

Summary summarize(const std::vector<double>& values) {
  Summary s;
  double sum = 0.0;
  for (double v : values) sum += v;
  s.mean = values.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(values.size());
  s.median = quantile(values, 0.5);
  s.p10 = quantile(values, 0.1);
  s.p90 = quantile(values, 0.9);
  return s;
}

namespace {

// The rest mass R = Σ_{j≠imax} p_j (= 1 − p_max without the cancellation) and imax.
struct Top {
  int imax = 0;
  double pmax = 0.0;
  double rest = 0.0;
  double second = 0.0;  // the second largest p
};

Top top_of(const double* p, int n) {
  Top t;
  for (int j = 1; j < n; ++j)
    if (p[j] > p[t.imax]) t.imax = j;
  t.pmax = p[t.imax];
  for (int j = 0; j < n; ++j) {
    if (j == t.imax) continue;
    t.rest += p[j];
    t.second = std::max(t.second, p[j]);
  }
  return t;
}

// The largest eigenvalue of J = diag(q) − q qᵀ for a distribution q (Σ q = 1) with largest entry
// p₁, second largest d₂, R = Σ_{i≠imax} qᵢ and rest2 = R − d₂ summed directly; psi_at(x, ψ, ψ')
// gives ψ(x) = Σ_{i≠imax} qᵢ²/(qᵢ − x) and its derivative. Stops when a step changes the root by
// ≤ rel_tol relatively (or the bracket is that narrow).
template <class Psi>
double secular_top(double p1, double d2, double rest, double rest2, double rel_tol, Psi&& psi_at) {
  // a one-hot row (R = 0): J = diag(e₁) − e₁e₁ᵀ = 0 (the bracket (d₂, p₁R) is empty: bisecting it
  // ran every iteration and returned 2⁻¹⁰¹, above ‖J‖_F = 0)
  if (rest == 0.0) return 0.0;
  if (p1 == d2) return p1;  // (e₁ − e₂) is an eigenvector with eigenvalue p₁, and J ≤ diag(p)
  // Secular equation of the rank-one downdate diag(p) − p pᵀ: the largest eigenvalue is the root
  // in (d₂, p₁) of f(x) = 1 − p₁²/(p₁ − x) − ψ(x), ψ(x) = Σ_{i≠imax} pᵢ²/(pᵢ − x), with
  // 1 − p₁²/(p₁ − x) = (p₁R − x)/(p₁ − x) (R = 1 − p₁ = Σ_{i≠imax} pᵢ, no cancellation).
  // Each step models ψ by r + s/(d₂ − x) (value and slope at the iterate, Bunch, Nielsen & Sorensen
  // 1978) and solves the model exactly: a quadratic in τ = x − d₂, so 3–6 steps suffice; a step
  // that leaves the bracket falls back to bisection. The terms equal to d₂ are kept in ψ's sum.
  const double D = p1 - d2;
  // p₁R − d₂ = p₁(R − d₂) − d₂R, with R − d₂ summed directly.
  const double c0 = p1 * rest2 - d2 * rest;  // p₁R − d₂
  double lo = 0.0, hi = D;                   // bracket on τ
  double tau = 0.5 * D;
  for (int it = 0; it < 100; ++it) {
    const double x = d2 + tau;
    double psi = 0.0, dpsi = 0.0;
    psi_at(x, psi, dpsi);
    const double f = (c0 - tau) / (D - tau) - psi;  // (p₁R − x)/(p₁ − x) − ψ(x)
    if (f == 0.0) return x;
    if (f > 0.0) lo = tau; else hi = tau;  // f decreases on the bracket
    // Model: (p₁R − x)/(p₁ − x) − r − s/(d₂ − x) = 0 with s = ψ'·(d₂ − x)², r = ψ − s/(d₂ − x).
    // In τ: (1 − r)τ² + (rD + s − c0)τ − sD = 0; the root in (0, D) is the positive one.
    const double s = dpsi * tau * tau;
    const double r = psi + s / tau;
    const double A = 1.0 - r, B = r * D + s - c0, C = -s * D;
    double next = -1.0;
    const double disc = B * B - 4.0 * A * C;
    if (disc >= 0.0 && A != 0.0) {
      const double sq = std::sqrt(disc);
      next = B > 0.0 ? (2.0 * -C) / (B + sq) : (-B + sq) / (2.0 * A);  // the root that avoids cancellation
    }
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::fabs(next - tau) <= rel_tol * (d2 + next) || hi - lo <= rel_tol * (d2 + hi)) return d2 + next;
    tau = next;
  }
  return d2 + tau;
}

double spectral_normalised(const double* p, int n, const Top& t) {
  if (n < 2 || t.pmax <= 0.0) return 0.0;
  const double d2 = t.second;
  double rest2 = 0.0;
  bool second_seen = false;
  for (int i = 0; i < n; ++i) {
    if (i == t.imax) continue;
    if (!second_seen && p[i] == d2) { second_seen = true; continue; }
    rest2 += p[i];
  }
  return secular_top(t.pmax, d2, t.rest, rest2, 4e-16, [&](double x, double& psi, double& dpsi) {
    for (int i = 0; i < n; ++i) {
      if (i == t.imax || p[i] == 0.0) continue;
      const double d = p[i] - x;
      psi += p[i] * p[i] / d;
      dpsi += p[i] * p[i] / (d * d);
    }
  });
}

// Renormalise in double so that J = diag(p) − p pᵀ is the Jacobian of a true distribution.
std::vector<double> normalised(const double* p, int n, double& total) {
  total = 0.0;
  for (int j = 0; j < n; ++j) total += p[j];
  std::vector<double> q(p, p + n);
  if (total > 0.0)
    for (double& v : q) v /= total;
  return q;
}

}  // namespace

RowStats row_stats(const double* p_in, int n) { return row_stats(p_in, n, kRowAll); }

RowStats row_stats(const double* p_in, int n, unsigned want) {
  RowStats s;
  double total;
  const std::vector<double> pv = normalised(p_in, n, total);
  if (n <= 0 || total <= 0.0) return s;  // all keys masked: nothing attended
  const double* p = pv.data();
  const Top t = top_of(p, n);
  s.max_weight = t.pmax;
  if (want & kRowEntropy) {
    // Entropy: the max entry uses ln p_max = log1p(−R), accurate when p_max → 1.
    double h = t.pmax > 0.0 ? -t.pmax * std::log1p(-t.rest) : 0.0;
    for (int j = 0; j < n; ++j)
      if (j != t.imax && p[j] > 0.0) h -= p[j] * std::log(p[j]);
    s.entropy = h < 0.0 ? 0.0 : h;
    s.eff_support = std::exp(s.entropy);
  }
  if (want & kRowJacSpec) s.jac_spec = spectral_normalised(p, n, t);
  if (!(want & kRowJacFro)) return s;
  // ‖J‖_F² = Σᵢ pᵢ²(1 − pᵢ)² + Σ_{i≠j} pᵢ² pⱼ², with 1 − p_max = R and
  // Σ_{j≠i} pⱼ² = T + p_max² − pᵢ² for i ≠ imax, T = Σ_{j≠imax} pⱼ².
  double T = 0.0;
  for (int j = 0; j < n; ++j)
    if (j != t.imax) T += p[j] * p[j];
  const double p1sq = t.pmax * t.pmax;
  double fro2 = p1sq * t.rest * t.rest + p1sq * T;
  for (int j = 0; j < n; ++j) {
    if (j == t.imax) continue;
    const double pj2 = p[j] * p[j];
    fro2 += pj2 * (1.0 - p[j]) * (1.0 - p[j]) + pj2 * (T - pj2 + p1sq);
  }
  s.jac_fro = std::sqrt(fro2);
  return s;
}

RowStats f32_row_stats(const float* p, int n, unsigned want, const F32RowKernels& k, double rel_tol) {
  RowStats s;
  if (n <= 0) return s;
  const F32Top2 t = k.top2(p, n);
  if (!(t.pmax > 0.0f)) return s;  // all keys masked: nothing attended
  const F32RowSums sums = k.sums(p, n, t.imax, t.i2, (want & kRowEntropy) != 0, (want & kRowJacFro) != 0);
  // The row is q = p / T; R' = Σ_{j≠imax} p_j and T = p_max + R' (1 − q_max = R'/T, no cancellation).
  const double p1 = t.pmax, p2 = t.p2;
  const double rest = sums.rest + p2;
  const double T = p1 + rest;
  const double q1 = p1 / T, R = rest / T;
  s.max_weight = q1;
  if (want & kRowEntropy) {
    // H = −Σ_{j≠imax} q_j ln q_j − q_max ln q_max, with Σ_{j≠imax} q_j ln q_j = (S' − R' ln T) / T,
    // S' = Σ_{j≠imax} p_j ln p_j, ln T = log1p((p_max − 1) + R') and ln q_max = log1p(−R).
    const double S = sums.plogp + p2 * static_cast<double>(f32_log_nonnegative(t.p2));
    const double lnT = std::log1p((p1 - 1.0) + rest);
    const double h = (rest * lnT - S) / T - q1 * std::log1p(-R);
    // within [0, ln n]: the float32 ln can put a uniform row's entropy a few ulps above ln n
    const double hmax = std::log(static_cast<double>(n));
    s.entropy = h < 0.0 ? 0.0 : h > hmax ? hmax : h;
    s.eff_support = std::exp(s.entropy);
  }
  if ((want & kRowJacSpec) && n >= 2) {
    // ψ(x) = Σ q²/(q − x) = Σ p²/(p − y) / T and ψ'(x) = Σ (p/(p − y))² at y = x·T.
    s.jac_spec = secular_top(q1, p2 / T, R, sums.rest / T, rel_tol, [&](double x, double& psi, double& dpsi) {
      k.secular(p, n, t.imax, x * T, &psi, &dpsi);
      psi /= T;
    });
  }
  if (want & kRowJacFro) {
    // ‖J‖_F² = q₁²R² + T₂(1 + T₂ + 2q₁²) − 2T₃, T_k = Σ_{j≠imax} q_j^k (row_stats' two sums, expanded).
    const double T2 = (sums.sq + p2 * p2) / (T * T);
    const double T3 = (sums.cube + p2 * p2 * p2) / (T * T * T);
    const double q1sq = q1 * q1;
    const double fro2 = q1sq * R * R + T2 * (1.0 + T2 + 2.0 * q1sq) - 2.0 * T3;
    s.jac_fro = std::sqrt(fro2 > 0.0 ? fro2 : 0.0);
  }
  return s;
}

RowStats f32_row_stats(const float* p, int n, unsigned want) { return f32_row_stats(p, n, want, f32_row_kernels_best()); }

Eigen::MatrixXd softmax_jacobian_matrix(const double* p, int n) {
  const Eigen::Map<const Eigen::VectorXd> pv(p, n);
  Eigen::MatrixXd J = -pv * pv.transpose();
  if (n == 0) return J;
  // J_ii = p_i (1 − p_i); for the largest p, 1 − p is taken as Σ_{j≠i} p_j (no cancellation).
  const Top t = top_of(p, n);
  for (int i = 0; i < n; ++i) J(i, i) = p[i] * (i == t.imax ? t.rest : 1.0 - p[i]);
  return J;
}

double softmax_jacobian_spectral_norm(const double* p_in, int n) {
  double total;
  const std::vector<double> pv = normalised(p_in, n, total);
  if (n <= 0 || total <= 0.0) return 0.0;
  return spectral_normalised(pv.data(), n, top_of(pv.data(), n));
}

namespace {
// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal a [k] and off-diagonal
// b [k − 1], by bisection on Sturm counts (the number of negative pivots of T − xI is the number of
// eigenvalues below x), from a lower bound `lo` to the Gershgorin upper bound, to ~1e-15 relative.
double tridiagonal_top_eigenvalue(const std::vector<double>& a, const std::vector<double>& b, double lo) {
  const size_t k = a.size();
  double hi = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < k; ++i) {
    const double r = (i > 0 ? std::fabs(b[i - 1]) : 0.0) + (i + 1 < k ? std::fabs(b[i]) : 0.0);
    hi = std::max(hi, a[i] + r);
    lo = std::max(lo, a[i]);  // a Rayleigh quotient of T: a lower bound of its largest eigenvalue
  }
  auto all_below = [&](double x) {
    double q = a[0] - x;
    size_t neg = q < 0.0;
    for (size_t i = 1; i < k; ++i) {
      if (q == 0.0) q = -1e-300;
      q = a[i] - x - b[i - 1] * b[i - 1] / q;
      neg += q < 0.0;
    }
    return neg == k;
  };
  for (int it = 0; it < 200 && hi - lo > 1e-15 * std::fabs(hi); ++it) {
    const double mid = 0.5 * (lo + hi);
    if (all_below(mid)) hi = mid; else lo = mid;
  }
  return hi;
}
}  // namespace

JacobianNorms softmax_jacobian_scaled_norms(const double* p_in, const double* d, int n, bool spectral, double rel_tol) {
  JacobianNorms out;
  double total;
  const std::vector<double> pv = normalised(p_in, n, total);
  if (n <= 0 || total <= 0.0) return out;
  const double* p = pv.data();
  const Top t = top_of(p, n);
  // Column j of J: J_jj = p_j (1 − p_j) (1 − p_max = R), J_ij = −p_i p_j; its squared norm is
  // p_j² ((1 − p_j)² + Σ_{i≠j} p_i²), with Σ_{i≠j} p_i² = T + p_max² − p_j² (j ≠ imax) or T.
  double T = 0.0;
  for (int j = 0; j < n; ++j)
    if (j != t.imax) T += p[j] * p[j];
  const double p1sq = t.pmax * t.pmax;
  double fro2 = d[t.imax] * d[t.imax] * p1sq * (t.rest * t.rest + T);
  for (int j = 0; j < n; ++j) {
    if (j == t.imax) continue;
    const double pj2 = p[j] * p[j];
    fro2 += d[j] * d[j] * pj2 * ((1.0 - p[j]) * (1.0 - p[j]) + T - pj2 + p1sq);
  }
  out.frobenius = std::sqrt(fro2);
  if (!spectral) return out;
  // J u without 1 − p_max: (J u)_i = p_i (R u_i − Σ_{j≠imax} p_j u_j + p_max (u_i − u_imax)).
  std::vector<double> u(n), w(n);
  auto J = [&](const std::vector<double>& in, std::vector<double>& res) {
    double pu = 0.0;
    for (int j = 0; j < n; ++j)
      if (j != t.imax) pu += p[j] * in[j];
    for (int i = 0; i < n; ++i)
      res[i] = p[i] * (t.rest * in[i] - pu + (i == t.imax ? 0.0 : t.pmax * (in[i] - in[t.imax])));
  };
  // Lanczos on M = (J D)ᵀ (J D) = D J J D (three-term recurrence, no reorthogonalisation: lost
  // orthogonality only adds copies of converged Ritz values, never a value above the largest
  // eigenvalue). The largest Ritz value is checked every 4 steps; it stops when that changes by
  // < rel_tol relatively, after n steps, or after kMaxSteps.
  constexpr int kMaxSteps = 160;  // with the check every 4 steps
  const int steps = std::min(n, kMaxSteps);
  std::vector<double> v(n), v_prev(n, 0.0);
  for (int j = 0; j < n; ++j) v[j] = d[j] * p[j] + 1e-3 / n;  // weighted toward the large columns
  double vn = 0.0;
  for (double x : v) vn += x * x;
  vn = std::sqrt(vn);
  if (!(vn > 0.0)) return out;
  for (double& x : v) x /= vn;
  std::vector<double> alpha, beta;
  double sigma2 = 0.0, beta_prev = 0.0;
  for (int k = 0; k < steps; ++k) {
    for (int j = 0; j < n; ++j) u[j] = d[j] * v[j];
    J(u, w);
    J(w, u);
    for (int j = 0; j < n; ++j) u[j] *= d[j];  // u = M v
    double a = 0.0;
    for (int j = 0; j < n; ++j) a += u[j] * v[j];
    alpha.push_back(a);
    double bn = 0.0;
    for (int j = 0; j < n; ++j) {
      u[j] -= a * v[j] + beta_prev * v_prev[j];
      bn += u[j] * u[j];
    }
    bn = std::sqrt(bn);
    const bool last = k + 1 == steps || !(bn > 1e-300 * std::max(1.0, std::fabs(a)));
    if (k % 4 == 3 || last) {
      const double top = tridiagonal_top_eigenvalue(alpha, beta, sigma2);
      const bool done = std::fabs(top - sigma2) <= rel_tol * top;
      sigma2 = std::max(sigma2, top);
      if (done || last) break;
    }
    beta.push_back(bn);
    beta_prev = bn;
    v_prev.swap(v);
    for (int j = 0; j < n; ++j) v[j] = u[j] / bn;
  }
  out.spectral = std::sqrt(sigma2);
  return out;
}

void softmax_jacobian_vector(const double* p, const double* g, double* out, int n) {
  double pg = 0.0;
  for (int j = 0; j < n; ++j) pg += p[j] * g[j];
  for (int j = 0; j < n; ++j) out[j] = p[j] * (g[j] - pg);
}

}  // namespace sqrtdk
