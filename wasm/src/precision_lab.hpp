// precisionLab: the softmax of the same rows in float64/float32/bfloat16/float16 with the naive,
// safe and online algorithms, on logits, random rows, or q and k whose products are formed in each format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "logit_options.hpp"
#include "shapes.hpp"
#include "precision.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// ---------------------------------------------------------------------------------------------
// precisionLab: softmax of the same rows in float64/float32/bfloat16/float16 (emulated, see
// precision.hpp) with the naive, safe and online algorithms, against the float64 safe softmax
// (computed with the same masked-row rule, so a fully masked row's reference is NaN under 'nan').
// Rows: the explicit `logits` if given (one row); or the caller's q [queries, dk] and k [keys, dk]
// (float32): one row per query, one key per column, the products formed in each format (below);
// else `rows` random rows of scores c · q·k_j with q, k_j iid N(0, 1) of dimension dk (in double;
// each format rounds them on entry).
//
// q and k in a format (issue 19: the fp16 failure in which q·kᵀ overflows before the scale): q and k
// are rounded to the format, each product q_d k_d and each partial sum is rounded to the
// accumulation format (the format itself, or float32 for float16/bfloat16 under accumulate =
// 'float32', as tensor cores accumulate), the dot product is stored in the format, then
//   scale_at Scores  s = c · (q·k), the product rounded to the format (what softmax(q kᵀ · c) computes);
//   scale_at Query   q is scaled first, q' = c · q rounded to the format, then s = q'·k (what kernels
//                    that fold c into q do: FlashAttention's softmax_scale applied to Q's tile, or
//                    scaling the query projection);
//   scale_at Both    √c on q and on k, q' = √c · q and k' = √c · k each rounded to the format, then
//                    s = q'·k' (PyTorch's math backend of scaled_dot_product_attention,
//                    _scaled_dot_product_attention_math in aten/src/ATen/native/transformers/attention.cpp,
//                    before pytorch/pytorch#163508).
// The constant (c, or √c under Both) is held as scale_rounding says: Float32 (the default) keeps it a
// float32 constant and forms each product x · c in float32, then rounds it to the format, as PyTorch
// multiplies a bfloat16/float16 tensor by a Python float (pytorch/pytorch#147134) and FlashAttention
// keeps softmax_scale in float32; Cell rounds c to the format first and the product to the
// accumulation format, then the format (core 0.3.0's rule, kept for comparison). Float32 cells are
// the same either way. Each cell reports the c its logits carry (PrecisionCell::scale_applied).
// d_k 128, bfloat16, safe, accumulate 'float32', q = e₀, keys 227·e₀ and 226·e₀, at the scores:
// Float32 gives the logits [20.125, 20] and p = [0.53125, 0.46875] (float64: [0.5220827, 0.4779173]);
// Cell rounds c = 0.0883883 to 0.08837890625 and gives [20, 20] and [0.5, 0.5].
// A product or logit that overflows counts as an input overflow of its row. The float64 reference
// and the float64 cells use the products in double. d_k 128, q = 24·𝟏, keys 24·𝟏, 12·𝟏, 0, float16,
// c = 1/√128: at the scores the products are [∞, 36864, 0] and the row is NaN; at the query the
// logits are [6516.6, 3258.3, 0] and the weights [1, 0, 0].
ScaleAt parse_scale_at(const std::string& name);  // "scores" | "query" | "both"; throws naming the value
ScaleRounding parse_scale_rounding(const std::string& name);  // "float32" | "cell"; throws naming the value
struct PrecisionLabParams {
  std::vector<double> logits;  // one explicit row (1..8192 values, −∞ allowed), or empty
  int rows = defaults::precision_lab::rows;               // random rows, 1..1024
  int seq_len = defaults::precision_lab::seq_len;
  int dk = defaults::precision_lab::dk;
  Scale scale = defaults::precision_lab::scale;
  int heads = defaults::precision_lab::heads;               // only to resolve 'inv_sqrt_d_model'
  uint32_t seed = defaults::precision_lab::seed;
  int block_size = defaults::precision_lab::block_size;         // online softmax key block, 1..8192
  Accumulate accumulate = defaults::precision_lab::accumulate;  // see precision.hpp
  MaskedRow masked_row = defaults::precision_lab::masked_row;     // a row with a zero normaliser: NaN (its formula) or zeros
  double softcap = defaults::precision_lab::softcap;        // > 0: logits s ↦ cap · tanh(s / cap) in double before each format rounds
                               // them (Gemma 2); −∞ (a masked key) stays −∞; 0 = off
  std::vector<float> q, k;     // both empty, or q [queries, dk] (queries 1..1024) and k [keys, dk] (keys
                               // 1..8192), finite with |x| ≤ 1e6; with them rows, seq_len and seed are unused
  ScaleAt scale_at = defaults::precision_lab::scale_at;  // q/k only: where c is applied (above)
  ScaleRounding scale_rounding = defaults::precision_lab::scale_rounding;  // q/k only: how c is held (above)
  bool row_sums = defaults::precision_lab::row_sums;        // check every row's sum Σ_j p_j: each cell's row_sum and the cause sum_stall
                               // (always on with q and k). On by default (a row whose weights sum to 2 is
                               // broken even with every weight finite); false leaves out those two fields
                               // and nothing else: every other number is the same, bit for bit
};
// The cause of each broken row, as shares of the rows. A row counts under the first of these that
// happened in it (so the shares add up to the share of broken rows):
struct PrecisionCauses {
  double input_overflow = 0;  // a finite logit rounded to ±∞ in the format, whatever follows
  double exp_overflow = 0;    // a term exp(·) overflowed to +∞ (the naive softmax above ln(max finite))
  double sum_overflow = 0;    // every term fit, their sum overflowed (weights e/∞ = 0)
  double nan = 0;             // NaN with no overflow: 0/0 of a fully masked or fully underflowed row
  double underflow = 0;       // a weight came out 0 where float64 has it positive, no overflow or NaN
  double sum_stall = 0;       // (row_sums) every weight finite, but Σ_j p_j is off that of the float64 row by
                              // more than the format's rounding allows, u (2 + 2√n) + n · (smallest
                              // subnormal), u = 2^−(m+1): 2u for the outputs' own rounding and twice the √n·u
                              // that independent roundings of n terms typically leave (Higham 2002, §4.2).
                              // 4096 zero logits summed in float16 stall at 2048: p_j = 1/2048, Σ = 2.0
};
// The range of Σ_j p_j over the rows of a cell whose sum is not NaN (NaN if none).
struct RowSumRange {
  double min = 0.0;
  double max = 0.0;
};
struct PrecisionCell {
  std::string format;          // "float64" | "float32" | "bfloat16" | "float16"
  std::string algorithm;       // "naive" | "safe" | "online"
  double share_nonfinite = 0;  // rows whose result holds ±∞ or NaN
  double share_nan = 0;        // rows whose result holds NaN
  PrecisionCauses causes;
  double max_abs_error = 0;    // max |p − p_f64| over the rows where both are finite (NaN if none)
  double mean_abs_error = 0;   // mean over those rows of max_j |p − p_f64|
  double jac_fro_median = 0;   // median ‖J‖_F of the finite rows' p (computed in double)
  std::vector<double> probs;   // the first row's result [seq_len]
  RowSumRange row_sum;         // (row_sums) min and max of Σ_j p_j over the rows
  double scale_applied = 0.0;  // (q and k) the c this cell's logits carry, as held: in double (float64
                               // cells), float32(c), or c rounded to the cell's format under
                               // ScaleRounding::Cell; under ScaleAt::Both the square of the √c so held
};
// The logits precisionLab forms from p.q and p.k in format f (rows [queries][keys]), before the
// soft-cap; float64 gives the products in double, scaled. *applied (if given): the c they carry
// (PrecisionCell::scale_applied).
std::vector<std::vector<double>> precision_qk_logits(const PrecisionLabParams& p, Format f, double* applied = nullptr);
struct PrecisionLabResult {
  int rows = 0;
  int seq_len = 0;
  double scale = 0.0;              // resolved c (random rows), 1 for explicit logits
  double max_abs_logit = 0.0;
  double jac_fro_median_f64 = 0.0; // of the float64 safe softmax
  std::vector<double> reference;   // first row, float64 safe [seq_len]
  std::vector<PrecisionCell> cells;  // format-major: float64, float32, bfloat16, float16 × naive, safe, online
  // max |online − safe| per format (float64, float32, bfloat16, float16): equal up to rounding
  std::vector<double> online_vs_safe;
};
PrecisionLabResult precision_lab(const PrecisionLabParams& p);

}  // namespace sqrtdk
