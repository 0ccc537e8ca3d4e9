// f32x4_muladd_peak (peak.hpp): the muladd_l1_f32x4_4x8 kernel of wasm/bench/peak.cpp, in the core
// so that the page can time it in its worker. Compiled only into the SIMD128 build.
#include <wasm_simd128.h>

#include <stdexcept>
#include <string>

#include "peak.hpp"

namespace sqrtdk {

namespace {
constexpr int kDepth = 256;
constexpr int kRows = 4;
alignas(16) float g_a[kRows * kDepth];  // kRows rows of kDepth
alignas(16) float g_b[kDepth * 8];      // panel [kDepth][8]
}  // namespace

float f32x4_muladd_peak(int iters) {
  if (iters < 1 || iters > 1000000)
    throw std::invalid_argument("simdPeak: iters = " + std::to_string(iters) + " is outside 1..1000000");
  const float d = 1e-3f;
  for (int j = 0; j < kRows * kDepth; ++j) g_a[j] = (j & 1 ? 1.0f : -1.0f) * (1.0f + d * static_cast<float>(j & 63));
  for (int j = 0; j < 8 * kDepth; ++j) g_b[j] = 1.0f - d * static_cast<float>(j & 63);
  const float* volatile a_v = g_a;  // opaque to the optimiser
  const float* volatile b_v = g_b;
  const float* const a = a_v;
  const float* const b = b_v;
  v128_t s[kRows][2];
  for (int r = 0; r < kRows; ++r) s[r][0] = s[r][1] = wasm_f32x4_splat(0.0f);
  for (int it = 0; it < iters; ++it) {
    const float* panel = b;
    for (int p = 0; p < kDepth; ++p) {
      const v128_t b0 = wasm_v128_load(panel);
      const v128_t b1 = wasm_v128_load(panel + 4);
      panel += 8;
#pragma clang loop unroll(full)
      for (int r = 0; r < kRows; ++r) {
        const v128_t x = wasm_v128_load32_splat(a + r * kDepth + p);
        s[r][0] = wasm_f32x4_add(s[r][0], wasm_f32x4_mul(x, b0));
        s[r][1] = wasm_f32x4_add(s[r][1], wasm_f32x4_mul(x, b1));
      }
    }
  }
  v128_t t = wasm_f32x4_splat(0.0f);
  for (int r = 0; r < kRows; ++r) t = wasm_f32x4_add(t, wasm_f32x4_add(s[r][0], s[r][1]));
  return wasm_f32x4_extract_lane(t, 0) + wasm_f32x4_extract_lane(t, 1) + wasm_f32x4_extract_lane(t, 2) +
         wasm_f32x4_extract_lane(t, 3);
}

}  // namespace sqrtdk
