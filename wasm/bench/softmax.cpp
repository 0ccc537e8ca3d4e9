// The SIMD128 family's row softmax alone, for `npm run bench` only (not part of the shipped app; built by
// the bench-only CMake target sqrtdk_softmax_bench, a standalone module linked from the core's SIMD128
// library). f32_softmax_rows__wasmsimd is the very function attention calls (on each row block of
// f32_attention_head__wasmsimd, and on each head's weights in the unfused path), so its time per
// weight is the softmax's share of an attention call, without the products, the tile writes or the
// call's fixed cost.
//
// softmax_setup(rows, cols, seed) fills a block of rows × cols logits with N(0, 1) draws (the logits
// c · q·k of N(0, 1) inputs at c = 1/√d_k), rows as attention's row block for that length;
// softmax_run(reps) copies the block into a work buffer and takes its softmax in place, reps times;
// softmax_copy(reps) does the copies alone, so (run − copy) / (reps · rows · cols) is the softmax per
// weight. Both return a value of the result, so nothing can be skipped.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels.hpp"

namespace {
std::vector<float> g_src, g_work;
int g_rows = 0, g_cols = 0;
}  // namespace

extern "C" {

__attribute__((export_name("softmax_setup"))) int softmax_setup(int rows, int cols, uint32_t seed) {
  if (rows < 1 || cols < 1 || static_cast<int64_t>(rows) * cols > (int64_t{1} << 24)) return 0;
  g_rows = rows;
  g_cols = cols;
  const size_t n = static_cast<size_t>(rows) * cols;
  g_src.resize(n);
  g_work.resize(n);
  uint32_t s = seed == 0 ? 1u : seed;
  const auto u = [&s] {  // xorshift32 in (0, 1)
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return (static_cast<double>(s) + 0.5) / 4294967296.0;
  };
  for (size_t i = 0; i < n; i += 2) {  // Box–Muller
    const double r = std::sqrt(-2.0 * std::log(u())), t = 6.283185307179586 * u();
    g_src[i] = static_cast<float>(r * std::cos(t));
    if (i + 1 < n) g_src[i + 1] = static_cast<float>(r * std::sin(t));
  }
  return 1;
}

__attribute__((export_name("softmax_run"))) float softmax_run(int reps) {
  float acc = 0.0f;
  for (int r = 0; r < reps; ++r) {
    std::memcpy(g_work.data(), g_src.data(), g_src.size() * sizeof(float));
    sqrtdk::f32_softmax_rows__wasmsimd(g_work.data(), g_rows, g_cols);
    acc += g_work[static_cast<size_t>(r) % g_work.size()];
  }
  return acc;
}

__attribute__((export_name("softmax_copy"))) float softmax_copy(int reps) {
  float acc = 0.0f;
  for (int r = 0; r < reps; ++r) {
    std::memcpy(g_work.data(), g_src.data(), g_src.size() * sizeof(float));
    acc += g_work[static_cast<size_t>(r) % g_work.size()];
  }
  return acc;
}

}  // extern "C"
