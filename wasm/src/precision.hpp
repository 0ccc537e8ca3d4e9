// Floating-point formats emulated in double, and softmax computed in each of them (issue:
// "Precision lab"). Every arithmetic result is rounded to the format, so a float16 softmax
// behaves like one computed on a float16 unit: round-to-nearest-even, gradual underflow
// (subnormals), overflow to ±∞, NaN propagation. Double has 53 significand bits ≥ 2p + 2 for
// p ≤ 24, so computing +, −, ×, ÷ in double and rounding once is exactly the format's correctly
// rounded result (no double-rounding error; Figueroa 1995). exp is computed in double and
// rounded once (a correctly rounded exp up to the rare ties of double's own exp).
#pragma once

#include <string>
#include <vector>

namespace sqrtdk {

enum class Format { Float64, Float32, BFloat16, Float16 };

struct FormatInfo {
  const char* name;  // "float64" | "float32" | "bfloat16" | "float16"
  int mantissa_bits; // stored fraction bits (52, 23, 7, 10)
  int emin;          // exponent of the smallest normal number (−1022, −126, −126, −14)
  int emax;          // exponent of the largest finite number (1023, 127, 127, 15)
  double max_finite; // (2 − 2^−m) · 2^emax
  double min_normal; // 2^emin
  double min_subnormal;  // 2^(emin − m)
};
const FormatInfo& format_info(Format f);
// "float64" | "float32" | "bfloat16" | "float16"; throws std::invalid_argument naming the value.
Format parse_format(const std::string& name);

// x rounded to the nearest value of the format (ties to even), with subnormals, ±∞ past the
// largest finite value (from the midpoint up), and NaN kept NaN.
double round_to(Format f, double x);

enum class SoftmaxAlgorithm {
  Naive,   // p_j = exp(x_j) / Σ exp(x_k): overflows once some x_j > ln(max_finite)
  Safe,    // p_j = exp(x_j − m) / Σ exp(x_k − m), m = max x: never overflows
  Online,  // one pass over key blocks with a running max m and running sum d, rescaled by
           // exp(m_old − m_new) when the max grows (Milakov & Gimelshein 2018, "Online normalizer
           // calculation for softmax", Alg. 3; the softmax of FlashAttention, Dao et al. 2022)
};
// "naive" | "safe" | "online"
SoftmaxAlgorithm parse_softmax_algorithm(const std::string& name);

// Softmax of logits x [n] in format f: inputs are first rounded to f, every operation is
// rounded to f. block_size (≥ 1) is the key-block length of the online algorithm.
// All −∞ gives all zeros, as everywhere in the core.
std::vector<double> softmax_in_format(const std::vector<double>& x, Format f, SoftmaxAlgorithm a, int block_size);

}  // namespace sqrtdk
