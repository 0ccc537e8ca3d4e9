// The SIMD128 mul+add micro-kernel fed from L1 (muladd_l1), shared by the core's simdPeak
// (peak_wasmsimd.cpp) and the bench's standalone peak module (wasm/bench/peak.cpp): one copy.
// Needs wasm_simd128.h (SIMD128 builds only).
#pragma once

#include <wasm_simd128.h>

namespace sqrtdk::peak {

inline constexpr int kDepth = 256;  // rows and panel depth: 12 KiB in all at R = 4, L1-resident

// The operands: `rows` rows of a [rows, kDepth] with alternating signs and the panel b [kDepth, 8],
// so the sums stay bounded; d is a runtime value, so nothing folds.
inline void fill_operands(float* a, int rows, float* b, float d) {
  for (int j = 0; j < rows * kDepth; ++j) a[j] = (j & 1 ? 1.0f : -1.0f) * (1.0f + d * static_cast<float>(j & 63));
  for (int j = 0; j < 8 * kDepth; ++j) b[j] = 1.0f - d * static_cast<float>(j & 63);
}

// The chains fed the way a GEMM micro-kernel feeds them: per step, R scalars of a (each one
// load32_splat, from R rows) times 2 f32x4 of b (two loads from an 8-wide panel), into R·2
// accumulators. Loads do not use the floating-point pipes, so this form can issue more mul+add per
// cycle than a register-only one. The rows and the panel are walked again and again; nothing is
// stored. FLOPs: 16 · R · kDepth · iters. Returns the accumulators' sum (nothing is optimised away).
template <int R>
float muladd_l1(const float* a_in, const float* b_in, int iters) {
  const float* volatile a_v = a_in;  // opaque to the optimiser
  const float* volatile b_v = b_in;
  const float* const a = a_v;
  const float* const b = b_v;
  v128_t s[R][2];
  for (int r = 0; r < R; ++r) s[r][0] = s[r][1] = wasm_f32x4_splat(0.0f);
  for (int it = 0; it < iters; ++it) {
    const float* panel = b;
    for (int p = 0; p < kDepth; ++p) {
      const v128_t b0 = wasm_v128_load(panel);
      const v128_t b1 = wasm_v128_load(panel + 4);
      panel += 8;
#pragma clang loop unroll(full)
      for (int r = 0; r < R; ++r) {
        const v128_t x = wasm_v128_load32_splat(a + r * kDepth + p);
        s[r][0] = wasm_f32x4_add(s[r][0], wasm_f32x4_mul(x, b0));
        s[r][1] = wasm_f32x4_add(s[r][1], wasm_f32x4_mul(x, b1));
      }
    }
  }
  v128_t t = wasm_f32x4_splat(0.0f);
  for (int r = 0; r < R; ++r) t = wasm_f32x4_add(t, wasm_f32x4_add(s[r][0], s[r][1]));
  return wasm_f32x4_extract_lane(t, 0) + wasm_f32x4_extract_lane(t, 1) + wasm_f32x4_extract_lane(t, 2) +
         wasm_f32x4_extract_lane(t, 3);
}

}  // namespace sqrtdk::peak
