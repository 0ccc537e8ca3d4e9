// Finite-difference gradient checks shared by the train_*_test.cpp files, all in double.
//
// Derivative: the five-point central stencil f'(x) ≈ (f(x−2h) − 8 f(x−h) + 8 f(x+h) − f(x+2h)) / 12h
// with h = 1e-4 · max(1, |x|): truncation error O(h⁴) ≈ 1e-16, rounding error ≈ 1e-16 · |f| / h ≈ 1e-12 · |f|.
// Error of an entry: |analytic − numeric| / max(|analytic|, |numeric|, floor), the floor being
// 1e-3 · max_j |numeric_j|, so entries a thousand times below the tensor's largest are judged
// against that scale rather than against their own (near-zero) size. Tolerance: 1e-6.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace sqrtdk::train::fd {

inline constexpr double kTolerance = 1e-6;

struct FdError {
  double max_rel = 0.0;   // max over entries of the error above
  double norm_rel = 0.0;  // ‖analytic − numeric‖₂ / ‖numeric‖₂
  size_t worst = 0;
  double max_abs_grad = 0.0;
};

// Numerical gradient of f with respect to x[0..n) (x is restored afterwards).
template <typename T>
std::vector<double> numeric_gradient(T* x, size_t n, const std::function<double()>& f) {
  std::vector<double> g(n);
  for (size_t i = 0; i < n; ++i) {
    const T x0 = x[i];
    const double h = 1e-4 * std::max(1.0, std::fabs(static_cast<double>(x0)));
    double fs[4];
    const double off[4] = {-2, -1, 1, 2};
    for (int k = 0; k < 4; ++k) {
      x[i] = x0 + off[k] * h;
      fs[k] = f();
    }
    x[i] = x0;
    g[i] = (fs[0] - 8.0 * fs[1] + 8.0 * fs[2] - fs[3]) / (12.0 * h);
  }
  return g;
}

inline FdError compare(const double* analytic, const std::vector<double>& numeric) {
  FdError e;
  for (double v : numeric) e.max_abs_grad = std::max(e.max_abs_grad, std::fabs(v));
  const double floor = std::max(1e-3 * e.max_abs_grad, 1e-300);
  double d2 = 0.0, n2 = 0.0;
  for (size_t i = 0; i < numeric.size(); ++i) {
    const double a = analytic[i], n = numeric[i];
    const double rel = std::fabs(a - n) / std::max({std::fabs(a), std::fabs(n), floor});
    if (!(rel <= e.max_rel)) e.max_rel = rel, e.worst = i;  // NaN counts as worst
    d2 += (a - n) * (a - n);
    n2 += n * n;
  }
  e.norm_rel = n2 > 0 ? std::sqrt(d2 / n2) : std::sqrt(d2);
  return e;
}

inline void report(const std::string& what, const FdError& e) {
  std::printf("[ fd-check ] %-44s max rel %.2e  norm rel %.2e  (max |g| %.2e)\n", what.c_str(), e.max_rel, e.norm_rel,
              e.max_abs_grad);
}

}  // namespace sqrtdk::train::fd
