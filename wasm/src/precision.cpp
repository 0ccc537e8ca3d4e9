// Floating-point formats emulated in double, and softmax computed in each of them (precision.hpp).
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

Accumulate parse_accumulate(const std::string& name) {
  if (name == "same") return Accumulate::Same;
  if (name == "float32") return Accumulate::Float32;
  throw std::invalid_argument("accumulate = '" + name + "' is not one of 'same', 'float32'");
}

MaskedRow parse_masked_row(const std::string& name) {
  if (name == "nan") return MaskedRow::Nan;
  if (name == "zero") return MaskedRow::Zero;
  throw std::invalid_argument("maskedRow = '" + name + "' is not one of 'nan', 'zero'");
}

std::vector<double> softmax_in_format(const std::vector<double>& x_in, Format f, SoftmaxAlgorithm a,
                                      const SoftmaxOptions& o, SoftmaxTrace* trace) {
  const size_t n = x_in.size();
  // The accumulation format: float32 unless the storage format is wider.
  const Format acc = (o.accumulate == Accumulate::Float32 && (f == Format::Float16 || f == Format::BFloat16))
                         ? Format::Float32
                         : f;
  auto S = [f](double v) { return round_to(f, v); };      // storage
  auto A = [acc](double v) { return round_to(acc, v); };  // arithmetic
  SoftmaxTrace t;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> x(n), p(n, 0.0);
  for (size_t j = 0; j < n; ++j) {
    x[j] = S(x_in[j]);
    if (std::isfinite(x_in[j]) && std::isinf(x[j])) t.input_overflow = true;
  }
  // exp of a finite argument, rounded; records an overflow to +∞.
  auto E = [&](double arg) {
    const double e = A(std::exp(arg));
    if (std::isfinite(arg) && e == kInf) t.exp_overflow = true;
    return e;
  };
  // sum + e, rounded; records an overflow of the sum while its terms are finite.
  auto add = [&](double sum, double e) {
    const double r = A(sum + e);
    if (r == kInf && std::isfinite(sum) && std::isfinite(e)) t.sum_overflow = true;
    return r;
  };
  const bool zero_rule = o.masked_row == MaskedRow::Zero;
  auto finish = [&](std::vector<double>& out) {
    if (trace != nullptr) *trace = t;
    return out;
  };
  switch (a) {
    case SoftmaxAlgorithm::Naive: {
      double sum = 0.0;
      for (size_t j = 0; j < n; ++j) {
        p[j] = E(x[j]);
        sum = add(sum, p[j]);
      }
      if (sum == 0.0) {
        t.zero_normaliser = true;
        if (zero_rule) return finish(p);  // p is all zeros here
      }
      for (size_t j = 0; j < n; ++j) p[j] = S(A(p[j] / sum));  // ∞/∞ and 0/0 are NaN; e/∞ = 0
      return finish(p);
    }
    case SoftmaxAlgorithm::Safe: {
      double m = -kInf;
      for (double v : x) m = std::max(m, v);
      if (m == -kInf) {
        t.zero_normaliser = true;
        if (zero_rule) return finish(p);
      }
      double sum = 0.0;
      for (size_t j = 0; j < n; ++j) {
        p[j] = E(A(x[j] - m));  // −∞ − (−∞) = NaN for a fully masked row
        sum = add(sum, p[j]);
      }
      if (sum == 0.0) t.zero_normaliser = true;
      for (size_t j = 0; j < n; ++j) p[j] = S(A(p[j] / sum));
      return finish(p);
    }
    case SoftmaxAlgorithm::Online: {
      const size_t b = static_cast<size_t>(std::max(o.block_size, 1));
      double m = -kInf, d = 0.0;
      for (size_t start = 0; start < n; start += b) {
        const size_t end = std::min(n, start + b);
        double mb = -kInf;
        for (size_t j = start; j < end; ++j) mb = std::max(mb, x[j]);
        const double m_new = std::max(m, mb);
        // Nothing but −∞ so far: the block is skipped (as kernels do: FlashAttention uses a −∞ max
        // as 0), so a leading masked key does not turn d_0 · exp(−∞ − (−∞)) into NaN.
        if (m_new == -kInf) continue;
        // Rescale the running sum to the new max (exp(−∞) = 0 on the first block).
        d = A(d * E(A(m - m_new)));
        for (size_t j = start; j < end; ++j) d = add(d, E(A(x[j] - m_new)));
        m = m_new;
      }
      if (m == -kInf || d == 0.0) {
        t.zero_normaliser = true;
        if (zero_rule) return finish(p);
      }
      for (size_t j = 0; j < n; ++j) p[j] = S(A(E(A(x[j] - m)) / d));
      return finish(p);
    }
  }
  return finish(p);
}

std::vector<double> softmax_in_format(const std::vector<double>& x, Format f, SoftmaxAlgorithm a, int block_size) {
  SoftmaxOptions o;
  o.block_size = block_size;
  return softmax_in_format(x, f, a, o);
}

}  // namespace sqrtdk
