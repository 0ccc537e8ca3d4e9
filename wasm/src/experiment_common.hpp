// The checks and draws the experiments share (internal to the core: the bindings and the tests use
// the experiments' own headers). Each throws std::invalid_argument naming the bad value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sqrtdk::detail {

// σ² of a draw: positive, finite, ≤ 1e6.
void check_variance(const char* what, double variance);
// A list of head dimensions: 1..64 of them, each 1..16384.
void check_dks(const char* what, const std::vector<int>& dks);
// heads, seq_len and dk each in their range.
void check_shape(const char* what, int heads, int seq_len, int dk);
// The max-weight threshold of share_above, in (0, 1).
void check_threshold(const char* what, double t);
// n draws N(0, σ²) as float32 from stream (seed, stream).
std::vector<float> draw_tensor(uint32_t seed, uint64_t stream, size_t n, double sigma);
// heads_kv = 0 means heads; otherwise it must divide heads.
int resolve_heads_kv(const char* what, int heads, int heads_kv);
// out[i] = c · qk[i] in float32 (n values): the logits of a scale from the shared products Q Kᵀ.
void scale_products(const float* qk, float c, float* out, size_t n);
// Throws unless t holds n finite values of magnitude ≤ 1e6, naming the tensor and the first bad index.
void check_tensor(const char* what, const char* name, std::span<const float> t, size_t n, const char* shape);

}  // namespace sqrtdk::detail
