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
           // calculation for softmax", Alg. 3). With float32 accumulation this is the softmax of
           // FlashAttention (Dao et al. 2022, Alg. 1), which keeps m and d in float32.
};
// "naive" | "safe" | "online"
SoftmaxAlgorithm parse_softmax_algorithm(const std::string& name);

// Where the max, the exps, the sum and the quotient are rounded:
//   Same     every operation in the storage format (a softmax computed on a float16 unit);
//   Float32  in float32 (or in the storage format when it is wider: float32, float64), with only
//            the inputs and the outputs rounded to the storage format: what half-precision kernels
//            do (PyTorch's softmax kernels use an accumulate type of float for Half/BFloat16;
//            FlashAttention keeps the running max and sum in float32).
enum class Accumulate { Same, Float32 };
// "same" | "float32"
Accumulate parse_accumulate(const std::string& name);

// A row whose normaliser is 0 (every logit −∞, or every exp underflowed to 0) has no softmax:
//   Nan   what the formula gives: 0/0 = NaN (and −∞ − (−∞) = NaN in the safe and online forms);
//   Zero  all zeros, the convention of fused kernels (FlashAttention's `sum == 0 → scale 1`,
//         PyTorch's scaled_dot_product_attention for fully masked rows since 2.5).
enum class MaskedRow { Nan, Zero };
// "nan" | "zero"
MaskedRow parse_masked_row(const std::string& name);

// Where precisionLab with q and k applies the scale c: to the products (Scores), to q first (Query),
// or √c to q and to k (Both); see PrecisionLabParams (precision_lab.hpp, with parse_scale_at).
enum class ScaleAt { Scores, Query, Both };
// How precisionLab with q and k stores the constant it multiplies by in a float16/bfloat16 cell:
// as a float32 constant, the product formed in float32 and rounded to the cell's format (Float32:
// PyTorch's bf16/fp16 tensor × Python float, pytorch/pytorch#147134; FlashAttention's softmax_scale),
// or rounded to the cell's format first (Cell: core 0.3.0's rule). See parse_scale_rounding.
enum class ScaleRounding { Float32, Cell };

// What happened inside one softmax, for naming the cause of a broken row.
struct SoftmaxTrace {
  bool input_overflow = false;  // a finite logit rounded to ±∞ in the storage format
  bool exp_overflow = false;    // a term exp(·) of a finite argument rounded to +∞
  bool sum_overflow = false;    // the sum (or running sum) rounded to +∞ while every term was finite
  bool zero_normaliser = false; // the normaliser was 0 (fully masked or fully underflowed row)
};

struct SoftmaxOptions {
  int block_size = 32;               // key-block length of the online algorithm (≥ 1)
  Accumulate accumulate = Accumulate::Same;
  MaskedRow masked_row = MaskedRow::Nan;
};

// Softmax of logits x [n] in storage format f: inputs are first rounded to f, every operation is
// rounded to the accumulation format (see Accumulate), outputs to f. A −∞ logit is a masked key.
// `trace` (optional) records overflows and a zero normaliser.
std::vector<double> softmax_in_format(const std::vector<double>& x, Format f, SoftmaxAlgorithm a,
                                      const SoftmaxOptions& o, SoftmaxTrace* trace = nullptr);
// The same with the default options and the given block size (every operation in f; a row with
// a zero normaliser gives NaN, as its formula does).
std::vector<double> softmax_in_format(const std::vector<double>& x, Format f, SoftmaxAlgorithm a, int block_size);

}  // namespace sqrtdk
