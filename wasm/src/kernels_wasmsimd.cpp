// f32 *__wasmsimd kernels: WebAssembly SIMD128 (wasm_simd128.h), compiled only with -msimd128.
//
// Products: B is first packed into panels of 8 columns ([panel, K, 8], zero-padded), then a
// 4-row × 8-column register tile (8 accumulators of f32x4) walks K: per step two panel loads,
// four splat loads of A, 8 mul + 8 add. wasm SIMD128 has no fused multiply-add, so mul then add
// rounds twice, exactly as the scalar kernel does; each c[m, n] sums its products in p order,
// so the results are bit-identical to f32_matmul_*__scalar.
#include <wasm_simd128.h>

#include <cstring>
#include <limits>
#include <vector>

#include "kernels.hpp"

namespace sqrtdk {

namespace {

constexpr int kNr = 8;  // columns per panel (two f32x4)
constexpr int kMr = 4;  // rows per register tile

// packed[panel][p][0..7] = column (panel·8 + c) of B at depth p, 0 past N.
// `b_is_nk`: B stored [N, K] (the Bᵀ of Q Kᵀ); otherwise [K, N].
std::vector<float> pack_panels(const float* b, int N, int K, bool b_is_nk) {
  const int panels = (N + kNr - 1) / kNr;
  std::vector<float> packed(static_cast<size_t>(panels) * K * kNr, 0.0f);
  for (int jp = 0; jp < panels; ++jp) {
    float* dst = packed.data() + static_cast<size_t>(jp) * K * kNr;
    const int n0 = jp * kNr;
    const int cols = N - n0 < kNr ? N - n0 : kNr;
    if (b_is_nk) {
      for (int c = 0; c < cols; ++c) {
        const float* src = b + static_cast<size_t>(n0 + c) * K;
        for (int p = 0; p < K; ++p) dst[static_cast<size_t>(p) * kNr + c] = src[p];
      }
    } else {
      for (int p = 0; p < K; ++p) std::memcpy(dst + static_cast<size_t>(p) * kNr, b + static_cast<size_t>(p) * N + n0,
                                              sizeof(float) * cols);
    }
  }
  return packed;
}

inline void store_cols(float* c, v128_t lo, v128_t hi, int cols) {
  if (cols == kNr) {
    wasm_v128_store(c, lo);
    wasm_v128_store(c + 4, hi);
  } else {
    alignas(16) float tmp[kNr];
    wasm_v128_store(tmp, lo);
    wasm_v128_store(tmp + 4, hi);
    std::memcpy(c, tmp, sizeof(float) * cols);
  }
}

// c[0..3][0..cols) = alpha · a[0..3][:] · panel
void tile_4x8(const float* a, size_t lda, const float* panel, int K, float* c, size_t ldc, int cols, float alpha) {
  v128_t c0l = wasm_f32x4_splat(0.0f), c0h = c0l, c1l = c0l, c1h = c0l;
  v128_t c2l = c0l, c2h = c0l, c3l = c0l, c3h = c0l;
  const float* a0 = a;
  const float* a1 = a + lda;
  const float* a2 = a + 2 * lda;
  const float* a3 = a + 3 * lda;
  for (int p = 0; p < K; ++p) {
    const v128_t bl = wasm_v128_load(panel);
    const v128_t bh = wasm_v128_load(panel + 4);
    panel += kNr;
    const v128_t x0 = wasm_v128_load32_splat(a0 + p);
    const v128_t x1 = wasm_v128_load32_splat(a1 + p);
    const v128_t x2 = wasm_v128_load32_splat(a2 + p);
    const v128_t x3 = wasm_v128_load32_splat(a3 + p);
    c0l = wasm_f32x4_add(c0l, wasm_f32x4_mul(x0, bl));
    c0h = wasm_f32x4_add(c0h, wasm_f32x4_mul(x0, bh));
    c1l = wasm_f32x4_add(c1l, wasm_f32x4_mul(x1, bl));
    c1h = wasm_f32x4_add(c1h, wasm_f32x4_mul(x1, bh));
    c2l = wasm_f32x4_add(c2l, wasm_f32x4_mul(x2, bl));
    c2h = wasm_f32x4_add(c2h, wasm_f32x4_mul(x2, bh));
    c3l = wasm_f32x4_add(c3l, wasm_f32x4_mul(x3, bl));
    c3h = wasm_f32x4_add(c3h, wasm_f32x4_mul(x3, bh));
  }
  const v128_t va = wasm_f32x4_splat(alpha);
  store_cols(c, wasm_f32x4_mul(va, c0l), wasm_f32x4_mul(va, c0h), cols);
  store_cols(c + ldc, wasm_f32x4_mul(va, c1l), wasm_f32x4_mul(va, c1h), cols);
  store_cols(c + 2 * ldc, wasm_f32x4_mul(va, c2l), wasm_f32x4_mul(va, c2h), cols);
  store_cols(c + 3 * ldc, wasm_f32x4_mul(va, c3l), wasm_f32x4_mul(va, c3h), cols);
}

// One row: the M % 4 tail.
void tile_1x8(const float* a, const float* panel, int K, float* c, int cols, float alpha) {
  v128_t cl = wasm_f32x4_splat(0.0f), ch = cl;
  for (int p = 0; p < K; ++p) {
    const v128_t x = wasm_v128_load32_splat(a + p);
    cl = wasm_f32x4_add(cl, wasm_f32x4_mul(x, wasm_v128_load(panel)));
    ch = wasm_f32x4_add(ch, wasm_f32x4_mul(x, wasm_v128_load(panel + 4)));
    panel += kNr;
  }
  const v128_t va = wasm_f32x4_splat(alpha);
  store_cols(c, wasm_f32x4_mul(va, cl), wasm_f32x4_mul(va, ch), cols);
}

void matmul_packed(const float* a, const std::vector<float>& packed, float* c, int M, int N, int K, float alpha) {
  const int panels = (N + kNr - 1) / kNr;
  for (int jp = 0; jp < panels; ++jp) {
    const float* panel = packed.data() + static_cast<size_t>(jp) * K * kNr;
    const int n0 = jp * kNr;
    const int cols = N - n0 < kNr ? N - n0 : kNr;
    int m = 0;
    for (; m + kMr <= M; m += kMr)
      tile_4x8(a + static_cast<size_t>(m) * K, K, panel, K, c + static_cast<size_t>(m) * N + n0, N, cols, alpha);
    for (; m < M; ++m) tile_1x8(a + static_cast<size_t>(m) * K, panel, K, c + static_cast<size_t>(m) * N + n0, cols, alpha);
  }
}

// Lane-wise copy of f32_exp_nonpositive: the same operations in the same order.
inline v128_t exp_nonpositive_f32x4(v128_t x) {
  const v128_t under = wasm_f32x4_lt(x, wasm_f32x4_splat(-87.3f));
  const v128_t n = wasm_f32x4_floor(
      wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)), wasm_f32x4_splat(0.5f)));
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  const v128_t r2 = wasm_f32x4_mul(r, r);
  v128_t y = wasm_f32x4_splat(1.9875691500e-4f);
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(1.3981999507e-3f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(8.3334519073e-3f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(4.1665795894e-2f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(1.6666665459e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(5.0000001201e-1f));
  y = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(y, r2), r), wasm_f32x4_splat(1.0f));
  const v128_t pow2n = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  // Lanes under the threshold (and −∞, whose reduction is NaN) become +0.
  return wasm_v128_andnot(wasm_f32x4_mul(y, pow2n), under);
}

}  // namespace

void f32_matmul_abt__wasmsimd_4x8(const float* a, const float* b, float* c, int M, int N, int K, float alpha) {
  matmul_packed(a, pack_panels(b, N, K, /*b_is_nk=*/true), c, M, N, K, alpha);
}

void f32_matmul_ab__wasmsimd_4x8(const float* a, const float* b, float* c, int M, int N, int K, float alpha) {
  matmul_packed(a, pack_panels(b, N, K, /*b_is_nk=*/false), c, M, N, K, alpha);
}

void f32_softmax_rows__wasmsimd(float* x, int rows, int cols) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const int cols4 = cols & ~3;
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<size_t>(r) * cols;
    v128_t vmax = wasm_f32x4_splat(-kInf);
    int j = 0;
    for (; j < cols4; j += 4) vmax = wasm_f32x4_max(vmax, wasm_v128_load(row + j));
    float mx = wasm_f32x4_extract_lane(vmax, 0);
    mx = wasm_f32x4_extract_lane(vmax, 1) > mx ? wasm_f32x4_extract_lane(vmax, 1) : mx;
    mx = wasm_f32x4_extract_lane(vmax, 2) > mx ? wasm_f32x4_extract_lane(vmax, 2) : mx;
    mx = wasm_f32x4_extract_lane(vmax, 3) > mx ? wasm_f32x4_extract_lane(vmax, 3) : mx;
    for (; j < cols; ++j) mx = row[j] > mx ? row[j] : mx;
    if (mx == -kInf || mx == kInf) {  // all masked, or +∞ present: the scalar rules (rare)
      f32_softmax_rows__scalar(row, 1, cols);
      continue;
    }
    // exp(x − max) in f32x4; the row sum in two f64x2 accumulators (L up to 8192 terms).
    const v128_t vm = wasm_f32x4_splat(mx);
    v128_t s0 = wasm_f64x2_splat(0.0), s1 = s0;
    for (j = 0; j < cols4; j += 4) {
      const v128_t e = exp_nonpositive_f32x4(wasm_f32x4_sub(wasm_v128_load(row + j), vm));
      wasm_v128_store(row + j, e);
      s0 = wasm_f64x2_add(s0, wasm_f64x2_promote_low_f32x4(e));
      s1 = wasm_f64x2_add(s1, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(e, e, 2, 3, 0, 1)));
    }
    const v128_t s = wasm_f64x2_add(s0, s1);
    double sum = wasm_f64x2_extract_lane(s, 0) + wasm_f64x2_extract_lane(s, 1);
    for (; j < cols; ++j) {
      const float e = f32_exp_nonpositive(row[j] - mx);
      row[j] = e;
      sum += e;
    }
    const v128_t inv = wasm_f32x4_splat(static_cast<float>(1.0 / sum));
    for (j = 0; j < cols4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), inv));
    const float invs = static_cast<float>(1.0 / sum);
    for (; j < cols; ++j) row[j] *= invs;
  }
}

}  // namespace sqrtdk
