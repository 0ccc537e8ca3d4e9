// Single-core WebAssembly SIMD128 multiply+add peak, for `npm run bench` only (not part of the
// shipped app; built by the bench-only CMake target sqrtdk_peak, a standalone module without imports).
//
// muladd_f32x4_<A>x<B>(iters, d) runs `iters` steps of A·B independent accumulator chains
//     s[a][b] ← s[a][b] + x[a] · y[b]        (one f32x4.mul + one f32x4.add = 8 flop each)
// entirely in registers: no loads or stores in the loop. After each step every y[b] flips its sign
// (one v128.xor per y, not counted as flop), which keeps the products from being hoisted out of the
// loop and the sums bounded (no overflow, no subnormals). d is a runtime value, so nothing folds.
// V8 gives wasm 15 xmm registers: too many chains spill, too few leave the add latency uncovered.
// muladd_l1_f32x4_<R>x8 (below) feeds the chains from L1 as a GEMM micro-kernel does. The bench
// times every variant, keeps the fastest (on Node 20 / x64: the L1 4x8 one) and reports it as the peak.
#include <wasm_simd128.h>

#include "../src/peak_kernel.hpp"

namespace {

template <int A, int B>
float muladd(int iters, float d) {
  v128_t x[A], y[B], s[A][B];
  for (int a = 0; a < A; ++a) x[a] = wasm_f32x4_splat(1.0f + d * static_cast<float>(a + 1));
  for (int b = 0; b < B; ++b) y[b] = wasm_f32x4_splat(1.0f - d * static_cast<float>(b + 1));
  for (int a = 0; a < A; ++a)
    for (int b = 0; b < B; ++b) s[a][b] = wasm_f32x4_splat(0.0f);
  const v128_t sign = wasm_f32x4_splat(-0.0f);
#pragma clang loop unroll(disable)
  for (int it = 0; it < iters; ++it) {
#pragma clang loop unroll(full)
    for (int b = 0; b < B; ++b) {
#pragma clang loop unroll(full)
      for (int a = 0; a < A; ++a) s[a][b] = wasm_f32x4_add(s[a][b], wasm_f32x4_mul(x[a], y[b]));
      y[b] = wasm_v128_xor(y[b], sign);
    }
  }
  v128_t t = wasm_f32x4_splat(0.0f);
  for (int a = 0; a < A; ++a)
    for (int b = 0; b < B; ++b) t = wasm_f32x4_add(t, s[a][b]);
  return wasm_f32x4_extract_lane(t, 0) + wasm_f32x4_extract_lane(t, 1) + wasm_f32x4_extract_lane(t, 2) +
         wasm_f32x4_extract_lane(t, 3);
}

// muladd_l1<R> (wasm/src/peak_kernel.hpp, the core's simdPeak kernel): the same chains fed from L1
// as a GEMM micro-kernel feeds them, over R rows of a and an 8-wide panel of b.
alignas(16) float g_a[8 * sqrtdk::peak::kDepth];   // R ≤ 8 rows of kDepth
alignas(16) float g_b[sqrtdk::peak::kDepth * 8];   // panel [kDepth][8]

template <int R>
float muladd_l1(int iters, float d) {
  sqrtdk::peak::fill_operands(g_a, 8, g_b, d);
  return sqrtdk::peak::muladd_l1<R>(g_a, g_b, iters);
}

}  // namespace

#define SQRTDK_PEAK(A, B)                                                                           \
  __attribute__((export_name("muladd_f32x4_" #A "x" #B))) float muladd_f32x4_##A##x##B(int iters, \
                                                                                     float d) {     \
    return muladd<A, B>(iters, d);                                                                  \
  }
extern "C" {
SQRTDK_PEAK(6, 1)
SQRTDK_PEAK(3, 2)
SQRTDK_PEAK(4, 2)
SQRTDK_PEAK(2, 4)
SQRTDK_PEAK(3, 3)
}
// muladd_l1_f32x4_<R>x8(iters, d): R·2 chains, flop = 16 · R · 256 · iters.
#define SQRTDK_PEAK_L1(R)                                                                            \
  __attribute__((export_name("muladd_l1_f32x4_" #R "x8"))) float muladd_l1_f32x4_##R##x8(int iters, \
                                                                                       float d) {    \
    return muladd_l1<R>(iters, d);                                                                   \
  }
extern "C" {
SQRTDK_PEAK_L1(4)
SQRTDK_PEAK_L1(5)
SQRTDK_PEAK_L1(6)
}
