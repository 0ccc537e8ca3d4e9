#include "precision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sqrtdk {

namespace {
FormatInfo make(const char* name, int m, int emin, int emax) {
  return FormatInfo{name, m, emin, emax, (2.0 - std::ldexp(1.0, -m)) * std::ldexp(1.0, emax), std::ldexp(1.0, emin),
                    std::ldexp(1.0, emin - m)};
}
}  // namespace

const FormatInfo& format_info(Format f) {
  static const FormatInfo f64 = make("float64", 52, -1022, 1023);
  static const FormatInfo f32 = make("float32", 23, -126, 127);
  static const FormatInfo bf16 = make("bfloat16", 7, -126, 127);
  static const FormatInfo f16 = make("float16", 10, -14, 15);
  switch (f) {
    case Format::Float64: return f64;
    case Format::Float32: return f32;
    case Format::BFloat16: return bf16;
    case Format::Float16: return f16;
  }
  return f64;
}

Format parse_format(const std::string& name) {
  if (name == "float64") return Format::Float64;
  if (name == "float32") return Format::Float32;
  if (name == "bfloat16") return Format::BFloat16;
  if (name == "float16") return Format::Float16;
  throw std::invalid_argument("format = '" + name + "' is not one of 'float64', 'float32', 'bfloat16', 'float16'");
}

SoftmaxAlgorithm parse_softmax_algorithm(const std::string& name) {
  if (name == "naive") return SoftmaxAlgorithm::Naive;
  if (name == "safe") return SoftmaxAlgorithm::Safe;
  if (name == "online") return SoftmaxAlgorithm::Online;
  throw std::invalid_argument("algorithm = '" + name + "' is not one of 'naive', 'safe', 'online'");
}

double round_to(Format f, double x) {
  if (f == Format::Float64 || std::isnan(x) || std::isinf(x) || x == 0.0) return x;
  const FormatInfo& fi = format_info(f);
  int e;
  std::frexp(x, &e);  // |x| = frac · 2^e, frac in [0.5, 1): the unbiased exponent is e − 1
  const int exp = std::max(e - 1, fi.emin);  // below emin the spacing stays that of the subnormals
  const double ulp = std::ldexp(1.0, exp - fi.mantissa_bits);
  // x / ulp is exact (a power-of-two scaling inside double's range); nearbyint rounds half to even
  // under the default rounding mode.
  const double r = std::nearbyint(x / ulp) * ulp;
  if (std::fabs(r) > fi.max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

std::vector<double> softmax_in_format(const std::vector<double>& x_in, Format f, SoftmaxAlgorithm a, int block_size) {
  const size_t n = x_in.size();
  auto R = [f](double v) { return round_to(f, v); };
  std::vector<double> x(n), p(n, 0.0);
  for (size_t j = 0; j < n; ++j) x[j] = R(x_in[j]);
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  switch (a) {
    case SoftmaxAlgorithm::Naive: {
      double sum = 0.0;
      for (size_t j = 0; j < n; ++j) {
        p[j] = R(std::exp(x[j]));
        sum = R(sum + p[j]);
      }
      if (sum == 0.0) return std::vector<double>(n, 0.0);  // all −∞ (or all underflowed): nothing attended
      for (size_t j = 0; j < n; ++j) p[j] = R(p[j] / sum);  // ∞/∞ = NaN: the overflow shows as NaN
      return p;
    }
    case SoftmaxAlgorithm::Safe: {
      double m = kNegInf;
      for (double v : x) m = std::max(m, v);
      if (m == kNegInf) return p;
      double sum = 0.0;
      for (size_t j = 0; j < n; ++j) {
        p[j] = R(std::exp(R(x[j] - m)));
        sum = R(sum + p[j]);
      }
      for (size_t j = 0; j < n; ++j) p[j] = R(p[j] / sum);
      return p;
    }
    case SoftmaxAlgorithm::Online: {
      const size_t b = static_cast<size_t>(std::max(block_size, 1));
      double m = kNegInf, d = 0.0;
      for (size_t start = 0; start < n; start += b) {
        const size_t end = std::min(n, start + b);
        double mb = kNegInf;
        for (size_t j = start; j < end; ++j) mb = std::max(mb, x[j]);
        const double m_new = std::max(m, mb);
        if (m_new == kNegInf) continue;  // nothing but −∞ so far
        // Rescale the running sum to the new max (exp(−∞) = 0 on the first block).
        d = R(d * R(std::exp(R(m - m_new))));
        for (size_t j = start; j < end; ++j) d = R(d + R(std::exp(R(x[j] - m_new))));
        m = m_new;
      }
      if (m == kNegInf) return p;
      for (size_t j = 0; j < n; ++j) p[j] = R(R(std::exp(R(x[j] - m))) / d);
      return p;
    }
  }
  return p;
}

}  // namespace sqrtdk
