// Notation used by every header of the core (declared once, here):
//
//   heads    number of attention heads                      (1..64)
//   seq_len  L, sequence length: queries = keys = L         (1..8192)
//   dk       d_k, the per-head query/key dimension           (1..16384)
//   d_model  heads · dk
//
//   [a, b, c]  a row-major array of that shape; the last index varies fastest.
//   Tensors crossing the API are float32 unless the name says f64.
//   scores (logits) = scale · q·k; attention weights = softmax(scores) over the key axis;
//   entropy is in nats (natural logarithm).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// The lab's shape bounds: attentionStats' declared ranges, as core.js's LIMITS (checks.js) reads them.
inline constexpr int kMaxDk = ranges::attention_stats::dk.hi;
inline constexpr int kMaxSeqLen = ranges::attention_stats::seq_len.hi;
inline constexpr int kMaxHeads = ranges::attention_stats::heads.hi;
static_assert(kMaxDk == 16384 && kMaxSeqLen == 8192 && kMaxHeads == 64, "the notation above states these bounds");
// The largest explicit scale factor, and the largest |entry| of a caller-supplied q, k or v: beyond
// them float32 logits or gradients can overflow.
inline constexpr double kMaxScale = 1e4;
inline constexpr double kMaxTensorEntry = 1e6;
// Memory a single call may need, in bytes (512 MiB).
inline constexpr double kMaxWorkBytes = 512.0 * 1024.0 * 1024.0;
// The work a call may spend is bounded by the cost model of cost.hpp (kBudgetSeconds).

std::string format_number(double v);

// Throws std::invalid_argument "<what>: <name> = <value> is outside <lo>..<hi>".
void check_int_range(const char* what, const char* name, long long value, long long lo, long long hi);

}  // namespace sqrtdk
