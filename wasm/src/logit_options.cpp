// The scale, soft-cap, correlation and sink options: their parsing, checks and resolution.
#include "logit_options.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "shapes.hpp"

namespace sqrtdk {

void check_softcap(const char* what, double cap) {
  if (cap == 0.0) return;  // off
  if (!(cap > 0.0) || !std::isfinite(cap) || cap > kMaxSoftcap)
    throw std::invalid_argument(std::string(what) + ": softcap = " + format_number(cap) +
                                " must be a positive number ≤ 1e6 (leave it out to turn soft-capping off)");
}

void check_correlation(const char* what, double rho) {
  if (!(rho >= -kMaxCorrelation && rho <= kMaxCorrelation))
    throw std::invalid_argument(std::string(what) + ": correlation = " + format_number(rho) +
                                " must be a number in -1..1");
}

void check_sinks(const char* what, std::span<const double> sinks, int heads) {
  if (sinks.empty()) return;
  if (static_cast<long long>(sinks.size()) != heads)
    throw std::invalid_argument(std::string(what) + ": sinks.length = " + std::to_string(sinks.size()) +
                                " does not match heads = " + std::to_string(heads) + " (one sink logit per head)");
  for (size_t i = 0; i < sinks.size(); ++i) {
    const double x = sinks[i];
    if (x == -std::numeric_limits<double>::infinity()) continue;  // no sink for this head
    if (!std::isfinite(x) || std::fabs(x) > kMaxSink)
      throw std::invalid_argument(std::string(what) + ": sinks[" + std::to_string(i) + "] = " + format_number(x) +
                                  " must be a finite number of magnitude ≤ 1e6, or -inf (no sink)");
  }
}

Scale parse_scale(const std::string& name) {
  if (name == "none") return Scale{Scale::Kind::None, 0.0};
  if (name == "inv_sqrt_dk") return Scale{Scale::Kind::InvSqrtDk, 0.0};
  if (name == "inv_dk") return Scale{Scale::Kind::InvDk, 0.0};
  if (name == "inv_sqrt_d_model") return Scale{Scale::Kind::InvSqrtDModel, 0.0};
  throw std::invalid_argument("scale = '" + name +
                              "' is not one of 'none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model' or a positive number");
}

Scale scale_value(double value) {
  // Above 1e4 float32 logits and gradients can overflow; no attention scale is anywhere near it.
  if (!(value > 0.0) || !std::isfinite(value) || value > kMaxScale)
    throw std::invalid_argument("scale = " + format_number(value) + " must be a positive number ≤ 10000");
  return Scale{Scale::Kind::Value, value};
}

Scale scale_power(double p) {
  if (!(p >= 0.0 && p <= kMaxScalePower))
    throw std::invalid_argument("scale.power = " + format_number(p) + " must be a number in 0..2 (c = d_k^-power)");
  return Scale{Scale::Kind::Power, p};
}

std::string scale_name(const Scale& s) {
  switch (s.kind) {
    case Scale::Kind::None: return "none";
    case Scale::Kind::InvSqrtDk: return "inv_sqrt_dk";
    case Scale::Kind::InvDk: return "inv_dk";
    case Scale::Kind::InvSqrtDModel: return "inv_sqrt_d_model";
    case Scale::Kind::Value: return format_number(s.value);
    case Scale::Kind::Power: return "d_k^-" + format_number(s.value);
  }
  return "?";
}

double resolve_scale(const Scale& s, int dk, int heads) {
  switch (s.kind) {
    case Scale::Kind::None: return 1.0;
    case Scale::Kind::InvSqrtDk: return 1.0 / std::sqrt(static_cast<double>(dk));
    case Scale::Kind::InvDk: return 1.0 / static_cast<double>(dk);
    case Scale::Kind::InvSqrtDModel: return 1.0 / std::sqrt(static_cast<double>(dk) * heads);
    case Scale::Kind::Value: return scale_value(s.value).value;
    case Scale::Kind::Power: {
      const double pw = scale_power(s.value).value;
      const double d = static_cast<double>(dk);
      // The named exponents give the named scales' very numbers (pow may differ in the last bit).
      if (pw == 0.0) return 1.0;
      if (pw == 0.5) return 1.0 / std::sqrt(d);
      if (pw == 1.0) return 1.0 / d;
      return std::pow(d, -pw);
    }
  }
  return 1.0;
}
std::vector<double> alibi_slopes(int heads) {
  if (heads < 1 || heads > 64)
    throw std::invalid_argument("alibi: heads = " + std::to_string(heads) + " is outside 1..64");
  // get_slopes_power_of_2(n) of the reference code: start = 2^(−2^−(log₂ n − 3)) = 2^(−8/n), slopes start^(i+1)
  auto power_of_two = [](int n) {
    std::vector<double> m(n);
    for (int i = 0; i < n; ++i) m[i] = std::exp2(-8.0 * (i + 1) / n);
    return m;
  };
  int c = 1;
  while (c * 2 <= heads) c *= 2;
  std::vector<double> m = power_of_two(c);
  if (c == heads) return m;
  const std::vector<double> twice = power_of_two(2 * c);  // get_slopes(2c)[0::2][:heads − c]
  for (int t = 0; t < heads - c; ++t) m.push_back(twice[2 * t]);
  return m;
}

void check_alibi(const char* what, std::span<const float> slopes, int heads) {
  if (slopes.empty()) return;
  if (static_cast<long long>(slopes.size()) != heads)
    throw std::invalid_argument(std::string(what) + ": alibi.length = " + std::to_string(slopes.size()) +
                                " does not match heads = " + std::to_string(heads) + " (one ALiBi slope per head)");
  for (size_t i = 0; i < slopes.size(); ++i)
    if (!std::isfinite(slopes[i]) || std::fabs(slopes[i]) > kMaxAlibiSlope)
      throw std::invalid_argument(std::string(what) + ": alibi[" + std::to_string(i) + "] = " + format_number(slopes[i]) +
                                  " must be a finite slope of magnitude ≤ 1e4");
}

}  // namespace sqrtdk
