// normalDraws: σ · the core's normal draws of one stream (normal_draws.hpp).
#include "normal_draws.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "cost.hpp"
#include "rng.hpp"
#include "shapes.hpp"

namespace sqrtdk {

NormalDrawsResult normal_draws(const NormalDrawsParams& p) {
  const char* what = "normalDraws";
  check_int_range(what, "n", p.n, 1, kMaxNormalDraws);
  check_int_range(what, "stream", p.stream, 0, 2147483647);
  if (!(p.sigma > 0.0) || !std::isfinite(p.sigma) || p.sigma > kMaxNormalSigma)
    throw std::invalid_argument(std::string(what) + ": sigma = " + format_number(p.sigma) +
                                " must be a positive finite number ≤ 1000");
  check_work_bytes(what, 8.0 * p.n, "n = " + std::to_string(p.n));  // the values, in double
  Rng rng = Rng::stream(p.seed, static_cast<uint64_t>(p.stream));
  NormalDrawsResult r;
  r.values.resize(static_cast<size_t>(p.n));
  for (double& x : r.values) x = p.sigma * rng.normal();
  return r;
}

}  // namespace sqrtdk
