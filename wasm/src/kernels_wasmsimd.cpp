// f32 *__wasmsimd kernels: WebAssembly SIMD128 (wasm_simd128.h), compiled only with -msimd128.
//
// Products: B is packed once into panels of 8 columns ([panel, K, 8], zero-padded). The rows of A
// are taken 4 at a time and packed [K, 4] (zero rows past M), and that tile meets every panel in
// a 4-row × 8-column register tile (8 accumulators of f32x4) that walks K: per step two panel
// loads, four splat loads of A (one pointer, constant offsets), 8 mul + 8 add. Row tiles outside,
// panels inside, so A is read once (for P·V, A is the L×L weight matrix) and the packed B is
// streamed from L2. 4×8 is the largest tile that fits V8's 15 xmm registers for wasm values
// (5×8 and 6×8 spill accumulators to the stack and run at half speed; measured with Node 20).
// wasm SIMD128 has no fused multiply-add, so mul then add rounds twice, exactly as the scalar
// kernel does; each c[m, n] sums its products in p order, so the results are bit-identical to
// f32_matmul_*__scalar.
//
// Softmax: max (four pmax chains), then exp and sum in one pass (four f32x4 exps in flight, the
// family's own exponential — XNNPACK's rr2_p5, not the scalar exp's operations — and the sum in
// float32 block sums added in double), then the scale: three passes over a row that stays in L1.
// The weights differ from the scalar family's by rounding and the exp's error: within the bound
// written beside softmax_row_simd (tests/native/kernels_test.cpp holds both to the double reference).
#include <wasm_simd128.h>

#include <cstring>
#include <limits>
#include <memory>

#include "kernels.hpp"

namespace sqrtdk {

namespace {

constexpr int kNr = 8;  // columns per panel (two f32x4)
constexpr int kMr = 4;  // rows per register tile

// The 4×4 transpose of the rows x0..x3 (as columns).
inline void transpose4(v128_t& x0, v128_t& x1, v128_t& x2, v128_t& x3) {
  const v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5);
  const v128_t t2 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
  x0 = wasm_i64x2_shuffle(t0, t1, 0, 2);
  x1 = wasm_i64x2_shuffle(t0, t1, 1, 3);
  x2 = wasm_i64x2_shuffle(t2, t3, 0, 2);
  x3 = wasm_i64x2_shuffle(t2, t3, 1, 3);
}

// A float buffer without the zero-fill of std::vector (every element is written before use),
// kept from call to call and grown only when a larger one is asked for: an attention call makes
// 2·heads product calls, and a fresh allocation each (megabytes at L = 1024) costs more than the
// small shapes' arithmetic. The core is single-threaded (no wasm threads), so one scratch per use
// is enough; the two uses (packed B, packed A tile) never alias.
class Scratch {
 public:
  float* get(size_t n) {
    if (n > cap_) {
      data_.reset(new float[n]);
      cap_ = n;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<float[]> data_;
  size_t cap_ = 0;
};
Scratch g_packed_b;   // B of a product (Kᵀ for Q Kᵀ)
Scratch g_packed_v;   // V of the fused attention head (packed while g_packed_b holds K)
Scratch g_packed_a;
Scratch g_scores;     // one row block of the fused attention head's scores

// packed[panel][p][0..7] = column (panel·8 + c) of B at depth p, 0 past N.
// `b_is_nk`: B stored [N, K] (the Bᵀ of Q Kᵀ); otherwise [K, N].
const float* pack_panels(const float* b, int N, int K, bool b_is_nk, Scratch& into = g_packed_b) {
  const int panels = (N + kNr - 1) / kNr;
  float* const packed = into.get(static_cast<size_t>(panels) * K * kNr);
  for (int jp = 0; jp < panels; ++jp) {
    float* dst = packed + static_cast<size_t>(jp) * K * kNr;
    const int n0 = jp * kNr;
    const int cols = N - n0 < kNr ? N - n0 : kNr;
    if (cols < kNr) std::memset(dst, 0, sizeof(float) * static_cast<size_t>(K) * kNr);
    if (b_is_nk) {
      int p = 0;
      if (cols == kNr) {  // two 4×4 transposes per 4 steps of depth
        const float* src = b + static_cast<size_t>(n0) * K;
        for (; p + 4 <= K; p += 4) {
          v128_t x[8];
          for (int c = 0; c < 8; ++c) x[c] = wasm_v128_load(src + static_cast<size_t>(c) * K + p);
          transpose4(x[0], x[1], x[2], x[3]);
          transpose4(x[4], x[5], x[6], x[7]);
          float* d = dst + static_cast<size_t>(p) * kNr;
          for (int q = 0; q < 4; ++q) {
            wasm_v128_store(d + q * kNr, x[q]);
            wasm_v128_store(d + q * kNr + 4, x[4 + q]);
          }
        }
      }
      for (int c = 0; c < cols; ++c) {
        const float* src = b + static_cast<size_t>(n0 + c) * K;
        for (int q = p; q < K; ++q) dst[static_cast<size_t>(q) * kNr + c] = src[q];
      }
    } else if (cols == kNr) {  // two vector moves per depth step (a memcpy call of 32 bytes costs more)
      const float* src = b + n0;
      for (int p = 0; p < K; ++p) {
        wasm_v128_store(dst + static_cast<size_t>(p) * kNr, wasm_v128_load(src + static_cast<size_t>(p) * N));
        wasm_v128_store(dst + static_cast<size_t>(p) * kNr + 4, wasm_v128_load(src + static_cast<size_t>(p) * N + 4));
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

// packed[p][r] = a[r][p] for the `rows` (≤ 4) rows of one tile, 0 for the rows past M: one
// pointer then reaches the four A values of a step at constant offsets (each splat is a single
// load, with no address arithmetic of its own), and every tile, the last included, is 4 × 8.
void pack_rows4(const float* a, size_t lda, int rows, int K, float* packed) {
  const float* r0 = a;
  const float* r1 = rows > 1 ? a + lda : nullptr;
  const float* r2 = rows > 2 ? a + 2 * lda : nullptr;
  const float* r3 = rows > 3 ? a + 3 * lda : nullptr;
  int p = 0;
  if (rows == kMr) {
    for (; p + 4 <= K; p += 4) {  // 4×4 transposes
      v128_t x0 = wasm_v128_load(r0 + p), x1 = wasm_v128_load(r1 + p);
      v128_t x2 = wasm_v128_load(r2 + p), x3 = wasm_v128_load(r3 + p);
      transpose4(x0, x1, x2, x3);
      wasm_v128_store(packed + 4 * p, x0);
      wasm_v128_store(packed + 4 * p + 4, x1);
      wasm_v128_store(packed + 4 * p + 8, x2);
      wasm_v128_store(packed + 4 * p + 12, x3);
    }
  }
  for (; p < K; ++p) {
    packed[4 * p] = r0[p];
    packed[4 * p + 1] = r1 ? r1[p] : 0.0f;
    packed[4 * p + 2] = r2 ? r2[p] : 0.0f;
    packed[4 * p + 3] = r3 ? r3[p] : 0.0f;
  }
}

// c[0..rows)[0..cols) = alpha · (packed A tile [K][4]) · (panel [K][8]). Each accumulator lane
// sums its products in p order, mul then add (no FMA), as the scalar kernel does.
void tile_4x8(const float* ap, const float* panel, int K, float* c, size_t ldc, int rows, int cols, float alpha) {
  v128_t c0l = wasm_f32x4_splat(0.0f), c0h = c0l, c1l = c0l, c1h = c0l;
  v128_t c2l = c0l, c2h = c0l, c3l = c0l, c3h = c0l;
  for (int p = 0; p < K; ++p) {
    const v128_t bl = wasm_v128_load(panel);
    const v128_t bh = wasm_v128_load(panel + 4);
    const v128_t x0 = wasm_v128_load32_splat(ap);
    const v128_t x1 = wasm_v128_load32_splat(ap + 1);
    const v128_t x2 = wasm_v128_load32_splat(ap + 2);
    const v128_t x3 = wasm_v128_load32_splat(ap + 3);
    panel += kNr;
    ap += kMr;
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
  if (rows > 1) store_cols(c + ldc, wasm_f32x4_mul(va, c1l), wasm_f32x4_mul(va, c1h), cols);
  if (rows > 2) store_cols(c + 2 * ldc, wasm_f32x4_mul(va, c2l), wasm_f32x4_mul(va, c2h), cols);
  if (rows > 3) store_cols(c + 3 * ldc, wasm_f32x4_mul(va, c3l), wasm_f32x4_mul(va, c3h), cols);
}

// Row tiles outside, panels inside: the packed A tile (16·K bytes) is reused by every panel, and
// the packed B (all panels, 4·K·N bytes, L2-sized for the shapes of the benchmark) is streamed
// once per row tile. A itself is then read exactly once, which matters for P·V, where A is the
// L×L weight matrix (4 MiB at L = 1024).
void matmul_packed(const float* a, const float* packed, float* c, int M, int N, int K, float alpha) {
  const int panels = (N + kNr - 1) / kNr;
  float* const apack = g_packed_a.get(static_cast<size_t>(K) * kMr);
  for (int m = 0; m < M; m += kMr) {
    const int rows = M - m < kMr ? M - m : kMr;
    pack_rows4(a + static_cast<size_t>(m) * K, K, rows, K, apack);
    float* crow = c + static_cast<size_t>(m) * N;
    for (int jp = 0; jp < panels; ++jp) {
      const int n0 = jp * kNr;
      const int cols = N - n0 < kNr ? N - n0 : kNr;
      tile_4x8(apack, packed + static_cast<size_t>(jp) * K * kNr, K, crow + n0, N, rows, cols, alpha);
    }
  }
}

// exp(x) on four lanes for x ≤ 0 (the SIMD128 family's own exponential; the scalar family's
// f32_exp_nonpositive stays the readable reference). XNNPACK's rr2_p5 scheme
// (google/XNNPACK, f32-raddstoreexpminusmax/wasmsimd-rr2-p5): n = round(x / ln2) by adding a magic
// bias 1.5·2^23 + 127, whose low mantissa bits then hold n + 127, so 2^n is that value shifted left
// by 23 (no float→int conversion, no floor); r = x − n·ln2 with ln2 in two parts (Cody–Waite: the
// high part has 9 trailing zero bits, so n·ln2_hi is exact for |n| ≤ 126), |r| ≤ ln2/2; then
// e^r ≈ 1 + r·p(r), p of degree 4 (a minimax fit of (e^r − 1)/r), and e^x = s + (r·s)·p(r), s = 2^n.
// 21 operations where the Cephes form of the scalar exp takes 26, all on f32x4; the four-vector
// form below runs four such chains side by side.
// Error: at most 1.85e-7 relative (3.1·2^-24) on [−87.3, 0], measured on every float32 there
// against exp in double; kSimdExpRelError = 1.9e-7 is the bound the tests hold it and the softmax
// to (tests/native/kernels_test.cpp). The scalar exp's is about 2 ulp as well. Below −87.3 (and at −∞) the result is +0, as the scalar exp's.
// The reference in double beside it: std::exp(static_cast<double>(x)).
constexpr float kExpMagic = 12583039.0f;  // 1.5·2^23 + 127
inline v128_t exp_nonpositive_f32x4(v128_t x) {
  const v128_t under = wasm_f32x4_lt(x, wasm_f32x4_splat(-87.3f));
  v128_t n = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)), wasm_f32x4_splat(kExpMagic));
  const v128_t s = wasm_i32x4_shl(n, 23);  // 2^n
  n = wasm_f32x4_sub(n, wasm_f32x4_splat(kExpMagic));
  v128_t r = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(-0x1.62E400p-1f)), x);  // − n·ln2_hi, exact
  r = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(-0x1.7F7D1Cp-20f)), r);        // − n·ln2_lo
  v128_t p = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(0x1.0F9F9Cp-7f), r), wasm_f32x4_splat(0x1.573A1Ap-5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.555A80p-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.FFFDC6p-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.FFFFF6p-1f));
  r = wasm_f32x4_mul(r, s);
  // Lanes under the threshold (and −∞, whose reduction is NaN) become +0.
  return wasm_v128_andnot(wasm_f32x4_add(wasm_f32x4_mul(r, p), s), under);
}

// exp_nonpositive_f32x4 on U vectors at once, step by step (the same operations per lane): each
// exp is a chain of ~18 dependent operations, and independent chains side by side let the core
// overlap their latencies.
template <int U>
inline void exp_nonpositive_f32x4_xU(v128_t (&v)[U]) {
  v128_t under[U], n[U], s[U], r[U], p[U];
#define SQRTDK_EACH for (int u = 0; u < U; ++u)
  SQRTDK_EACH under[u] = wasm_f32x4_lt(v[u], wasm_f32x4_splat(-87.3f));
  SQRTDK_EACH n[u] = wasm_f32x4_add(wasm_f32x4_mul(v[u], wasm_f32x4_splat(1.44269504088896341f)), wasm_f32x4_splat(kExpMagic));
  SQRTDK_EACH s[u] = wasm_i32x4_shl(n[u], 23);
  SQRTDK_EACH n[u] = wasm_f32x4_sub(n[u], wasm_f32x4_splat(kExpMagic));
  SQRTDK_EACH r[u] = wasm_f32x4_add(wasm_f32x4_mul(n[u], wasm_f32x4_splat(-0x1.62E400p-1f)), v[u]);
  SQRTDK_EACH r[u] = wasm_f32x4_add(wasm_f32x4_mul(n[u], wasm_f32x4_splat(-0x1.7F7D1Cp-20f)), r[u]);
  SQRTDK_EACH p[u] = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(0x1.0F9F9Cp-7f), r[u]), wasm_f32x4_splat(0x1.573A1Ap-5f));
  SQRTDK_EACH p[u] = wasm_f32x4_add(wasm_f32x4_mul(p[u], r[u]), wasm_f32x4_splat(0x1.555A80p-3f));
  SQRTDK_EACH p[u] = wasm_f32x4_add(wasm_f32x4_mul(p[u], r[u]), wasm_f32x4_splat(0x1.FFFDC6p-2f));
  SQRTDK_EACH p[u] = wasm_f32x4_add(wasm_f32x4_mul(p[u], r[u]), wasm_f32x4_splat(0x1.FFFFF6p-1f));
  SQRTDK_EACH r[u] = wasm_f32x4_mul(r[u], s[u]);
  SQRTDK_EACH v[u] = wasm_v128_andnot(wasm_f32x4_add(wasm_f32x4_mul(r[u], p[u]), s[u]), under[u]);
#undef SQRTDK_EACH
}

// The four lanes of an f32x4 sum, added in double: (l0 + l2) + (l1 + l3).
inline double lane_sum(v128_t a) {
  return (static_cast<double>(wasm_f32x4_extract_lane(a, 0)) + wasm_f32x4_extract_lane(a, 2)) +
         (static_cast<double>(wasm_f32x4_extract_lane(a, 1)) + wasm_f32x4_extract_lane(a, 3));
}

}  // namespace

void f32_matmul_abt__wasmsimd_4x8(const float* a, const float* b, float* c, int M, int N, int K, float alpha) {
  matmul_packed(a, pack_panels(b, N, K, /*b_is_nk=*/true), c, M, N, K, alpha);
}

void f32_matmul_ab__wasmsimd_4x8(const float* a, const float* b, float* c, int M, int N, int K, float alpha) {
  matmul_packed(a, pack_panels(b, N, K, /*b_is_nk=*/false), c, M, N, K, alpha);
}

// One head of softmax(scale · Q Kᵀ) V without masks, weights not kept: K and V are packed once,
// then the rows go through in blocks of kRowBlock — scores of the block (Q_blk Kᵀ), their softmax,
// and the block's output (P_blk V) — so the scores never leave L2 (at L = 1024 one head's full
// score matrix is 4 MiB and would otherwise be written, read and re-read from memory). Every
// element is computed by the same operations in the same order as the unfused product – softmax –
// product sequence (rows are independent in all three), so the results are bit-identical to it.
// With `same_kv` the panels packed by the previous call (the same k and v: the caller says so) are
// used as they are: under GQA/MQA the query heads of a group share them, and packing K and V
// (2·L·dk floats moved) is a per-head cost that small shapes feel.
void f32_attention_head__wasmsimd(const float* q, const float* k, const float* v, float* out, int L, int dk,
                                  float scale, bool same_kv) {
  // rows per block: a multiple of 4 with the block's scores within 64 KiB (4 ≤ rows ≤ 64)
  int block = (16384 / L) & ~(kMr - 1);
  block = block < kMr ? kMr : block > 64 ? 64 : block;
  const float* kp = same_kv ? g_packed_b.get(0) : pack_panels(k, L, dk, /*b_is_nk=*/true, g_packed_b);
  const float* vp = same_kv ? g_packed_v.get(0) : pack_panels(v, dk, L, /*b_is_nk=*/false, g_packed_v);
  float* S = g_scores.get(static_cast<size_t>(block) * L);
  for (int m0 = 0; m0 < L; m0 += block) {
    const int rows = L - m0 < block ? L - m0 : block;
    matmul_packed(q + static_cast<size_t>(m0) * dk, kp, S, rows, L, dk, scale);
    f32_softmax_rows__wasmsimd(S, rows, L);
    matmul_packed(S, vp, out + static_cast<size_t>(m0) * dk, rows, dk, L, 1.0f);
  }
}

namespace {
// One row of the softmax with a sink logit (−∞: none), as softmax_row_scalar; returns the sink's
// weight. With sink = −∞ the operations are those of the plain row softmax, bit for bit.
// Error bound (u = 2^-24; E = kSimdExpRelError = 1.9e-7, the exponential's): weight w_j against
// the double softmax p_j of the same float32 row, with d_i = |x_i − max| (the float subtraction
// rounds by at most d_i·u, which the exp turns into a relative error d_i·u):
//   |w_j − p_j| ≤ (2E + 18u + d_j·u + Σ_i p_i·d_i·u) · p_j
// (E for e_j, E + 17u for the sum, u/2 for 1/sum to float32 and u/2 for the product), plus
// 1e-37 absolute where the exp flushes below −87.3. The scalar family meets the same form with its
// own exp (2 ulp) and a sum in double.
float softmax_row_simd(float* row, int cols, float sink) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const int cols4 = cols & ~3;
  const int cols16 = cols & ~15;
  // Row max with four independent accumulators (the max chain's latency would otherwise bind).
  // pmax (b < a ? a : b) is one instruction where f32x4.max needs a NaN/±0 fix-up sequence; the
  // row holds no NaN, and which zero wins does not change x − max.
  v128_t m0 = wasm_f32x4_splat(-kInf), m1 = m0, m2 = m0, m3 = m0;
  int j = 0;
  for (; j < cols16; j += 16) {
    m0 = wasm_f32x4_pmax(m0, wasm_v128_load(row + j));
    m1 = wasm_f32x4_pmax(m1, wasm_v128_load(row + j + 4));
    m2 = wasm_f32x4_pmax(m2, wasm_v128_load(row + j + 8));
    m3 = wasm_f32x4_pmax(m3, wasm_v128_load(row + j + 12));
  }
  for (; j < cols4; j += 4) m0 = wasm_f32x4_pmax(m0, wasm_v128_load(row + j));
  const v128_t vmax = wasm_f32x4_pmax(wasm_f32x4_pmax(m0, m1), wasm_f32x4_pmax(m2, m3));
  float mx = wasm_f32x4_extract_lane(vmax, 0);
  mx = wasm_f32x4_extract_lane(vmax, 1) > mx ? wasm_f32x4_extract_lane(vmax, 1) : mx;
  mx = wasm_f32x4_extract_lane(vmax, 2) > mx ? wasm_f32x4_extract_lane(vmax, 2) : mx;
  mx = wasm_f32x4_extract_lane(vmax, 3) > mx ? wasm_f32x4_extract_lane(vmax, 3) : mx;
  for (; j < cols; ++j) mx = row[j] > mx ? row[j] : mx;
  if (mx == -kInf || mx == kInf)  // all masked, or +∞ present: the scalar rules (rare)
    return f32_softmax_row_sink__scalar(row, cols, sink);
  mx = sink > mx ? sink : mx;
  // One pass: e = exp(x − max) stored in place and summed. The sum runs in float32 (two f32x4
  // accumulators, each lane adding pairs e0 + e1 and e2 + e3) over blocks of kSumBlock entries,
  // and each block's eight lanes are then added in double: a lane adds at most 16 pair sums of a
  // block, so its relative rounding error is at most 17·2^-24 (≈ 1.0e-6; all terms are positive)
  // however long the row, where one float32 accumulator over L = 8192 terms would allow 5e-4.
  const v128_t vm = wasm_f32x4_splat(mx);
  constexpr int kU = 4;            // exps in flight per step
  constexpr int kSumBlock = 256;   // entries per float32 block sum
  double sum = 0.0;
  j = 0;
  while (j < cols16) {
    const int end = cols16 - j < kSumBlock ? cols16 : j + kSumBlock;
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0;
#pragma clang loop unroll(disable)
    for (; j < end; j += 4 * kU) {
      v128_t v[kU];
      for (int u = 0; u < kU; ++u) v[u] = wasm_f32x4_sub(wasm_v128_load(row + j + 4 * u), vm);
      exp_nonpositive_f32x4_xU(v);
      for (int u = 0; u < kU; ++u) wasm_v128_store(row + j + 4 * u, v[u]);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_add(v[0], v[1]));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_add(v[2], v[3]));
    }
    sum += lane_sum(a0) + lane_sum(a1);
  }
  // The rest (< 16 entries): whole vectors, then the last 1–3 entries in a vector padded with −∞
  // (exp gives +0 there), so every entry goes through the same exponential.
  v128_t a = wasm_f32x4_splat(0.0f);
  for (; j < cols4; j += 4) {
    const v128_t e = exp_nonpositive_f32x4(wasm_f32x4_sub(wasm_v128_load(row + j), vm));
    wasm_v128_store(row + j, e);
    a = wasm_f32x4_add(a, e);
  }
  if (j < cols) {
    alignas(16) float t[4] = {-kInf, -kInf, -kInf, -kInf};
    std::memcpy(t, row + j, sizeof(float) * static_cast<size_t>(cols - j));
    const v128_t e = exp_nonpositive_f32x4(wasm_f32x4_sub(wasm_v128_load(t), vm));
    wasm_v128_store(t, e);
    std::memcpy(row + j, t, sizeof(float) * static_cast<size_t>(cols - j));
    a = wasm_f32x4_add(a, e);
  }
  sum += lane_sum(a);
  // The sink's term (−∞: +0, and the sum keeps its bits).
  const float es = wasm_f32x4_extract_lane(exp_nonpositive_f32x4(wasm_f32x4_splat(sink - mx)), 0);
  sum += es;
  const float invs = static_cast<float>(1.0 / sum);
  const v128_t inv = wasm_f32x4_splat(invs);
  for (j = 0; j < cols4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), inv));
  for (; j < cols; ++j) row[j] *= invs;
  return es * invs;
}
}  // namespace

// ---- per-row statistics passes (kernels.hpp): lane-wise the scalar family's operations ----
namespace {
// f32_log_nonnegative on four lanes: the same operations in the same order.
inline v128_t log_nonnegative_f32x4(v128_t x) {
  const v128_t sub = wasm_f32x4_lt(x, wasm_f32x4_splat(1.17549435e-38f));
  x = wasm_v128_bitselect(wasm_f32x4_mul(x, wasm_f32x4_splat(8388608.0f)), x, sub);
  v128_t e = wasm_i32x4_add(wasm_i32x4_sub(wasm_u32x4_shr(x, 23), wasm_i32x4_splat(127)),
                            wasm_v128_and(sub, wasm_i32x4_splat(-23)));
  v128_t m = wasm_v128_or(wasm_v128_and(x, wasm_i32x4_splat(0x007fffff)), wasm_i32x4_splat(0x3f800000));
  const v128_t big = wasm_f32x4_gt(m, wasm_f32x4_splat(1.41421356f));
  m = wasm_v128_bitselect(wasm_f32x4_mul(m, wasm_f32x4_splat(0.5f)), m, big);
  e = wasm_i32x4_sub(e, big);  // big lanes are −1: e + 1
  const v128_t f = wasm_f32x4_sub(m, wasm_f32x4_splat(1.0f));
  const v128_t z = wasm_f32x4_mul(f, f);
  v128_t y = wasm_f32x4_splat(7.0376836292e-2f);
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(-1.1514610310e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(1.1676998740e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(-1.2420140846e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(1.4249322787e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(-1.6668057665e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(2.0000714765e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(-2.4999993993e-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, f), wasm_f32x4_splat(3.3333331174e-1f));
  y = wasm_f32x4_mul(wasm_f32x4_mul(y, f), z);
  const v128_t fe = wasm_f32x4_convert_i32x4(e);
  y = wasm_f32x4_add(y, wasm_f32x4_mul(fe, wasm_f32x4_splat(-2.12194440e-4f)));
  y = wasm_f32x4_sub(y, wasm_f32x4_mul(wasm_f32x4_splat(0.5f), z));
  const v128_t r = wasm_f32x4_add(f, y);
  return wasm_f32x4_add(r, wasm_f32x4_mul(fe, wasm_f32x4_splat(0.693359375f)));
}

inline v128_t promote_high(v128_t x) { return wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x, x, 2, 3, 0, 1)); }

// Lanes 0..3 of the two f64x2 accumulators lo (lanes 0, 1) and hi (lanes 2, 3).
inline void lanes_of(v128_t lo, v128_t hi, double (&out)[4]) {
  out[0] = wasm_f64x2_extract_lane(lo, 0);
  out[1] = wasm_f64x2_extract_lane(lo, 1);
  out[2] = wasm_f64x2_extract_lane(hi, 0);
  out[3] = wasm_f64x2_extract_lane(hi, 1);
}

// The first index ≥ from of a value equal to v and ≠ skip, or −1.
int find_first(const float* p, int n, float v, int skip, int from = 0) {
  const v128_t vv = wasm_f32x4_splat(v);
  int j = from;
  for (; j + 4 <= n; j += 4) {
    if (!wasm_v128_any_true(wasm_f32x4_eq(wasm_v128_load(p + j), vv))) continue;
    for (int k = j; k < j + 4; ++k)
      if (p[k] == v && k != skip) return k;
  }
  for (; j < n; ++j)
    if (p[j] == v && j != skip) return j;
  return -1;
}

template <bool kLogs, bool kPowers>
F32RowSums row_sums_simd(const float* p, int n, int skip0, int skip1) {
  const v128_t z = wasm_f64x2_splat(0.0);
  v128_t rl = z, rh = z, ll = z, lh = z, ql = z, qh = z, cl = z, ch = z;
  const v128_t s0 = wasm_i32x4_splat(skip0), s1 = wasm_i32x4_splat(skip1);
  v128_t idx = wasm_i32x4_make(0, 1, 2, 3);
  const v128_t four = wasm_i32x4_splat(4);
  int j = 0;
  for (; j + 4 <= n; j += 4, idx = wasm_i32x4_add(idx, four)) {
    const v128_t raw = wasm_v128_load(p + j);
    // the skipped entries become +0: they add ±0, as the scalar family's skip adds nothing
    const v128_t x = wasm_v128_andnot(raw, wasm_v128_or(wasm_i32x4_eq(idx, s0), wasm_i32x4_eq(idx, s1)));
    const v128_t xl = wasm_f64x2_promote_low_f32x4(x), xh = promote_high(x);
    rl = wasm_f64x2_add(rl, xl);
    rh = wasm_f64x2_add(rh, xh);
    if (kLogs) {
      const v128_t lnx = log_nonnegative_f32x4(raw);
      ll = wasm_f64x2_add(ll, wasm_f64x2_mul(xl, wasm_f64x2_promote_low_f32x4(lnx)));
      lh = wasm_f64x2_add(lh, wasm_f64x2_mul(xh, promote_high(lnx)));
    }
    if (kPowers) {
      const v128_t x2l = wasm_f64x2_mul(xl, xl), x2h = wasm_f64x2_mul(xh, xh);
      ql = wasm_f64x2_add(ql, x2l);
      qh = wasm_f64x2_add(qh, x2h);
      cl = wasm_f64x2_add(cl, wasm_f64x2_mul(x2l, xl));
      ch = wasm_f64x2_add(ch, wasm_f64x2_mul(x2h, xh));
    }
  }
  F32RowLanes lanes;
  lanes_of(rl, rh, lanes.rest);
  lanes_of(ll, lh, lanes.plogp);
  lanes_of(ql, qh, lanes.sq);
  lanes_of(cl, ch, lanes.cube);
  for (; j < n; ++j)  // the tail: lane j & 3, after the lane's vector terms, as the scalar loop
    if (j != skip0 && j != skip1) f32_row_sums_add(lanes, p[j], j, kLogs, kPowers);
  return f32_row_sums_finish(lanes, kLogs, kPowers);
}
}  // namespace

F32Top2 f32_row_top2__wasmsimd(const float* p, int n) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  // Per lane the largest and the second largest (pmin/pmax: the row holds no NaN).
  v128_t m1 = wasm_f32x4_splat(-kInf), m2 = m1;
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    const v128_t x = wasm_v128_load(p + j);
    m2 = wasm_f32x4_pmax(m2, wasm_f32x4_pmin(m1, x));
    m1 = wasm_f32x4_pmax(m1, x);
  }
  // The two largest of the multiset: the lanes' pairs and the tail.
  alignas(16) float c[12];
  wasm_v128_store(c, m1);
  wasm_v128_store(c + 4, m2);
  int nc = 8;
  for (; j < n; ++j) c[nc++] = p[j];
  int top = 0;
  for (int k = 1; k < nc; ++k)
    if (c[k] > c[top]) top = k;
  float second = -kInf;
  for (int k = 0; k < nc; ++k)
    if (k != top && c[k] > second) second = c[k];
  F32Top2 t;
  t.pmax = c[top];
  t.imax = find_first(p, n, t.pmax, -1);
  if (n > 1) {
    t.p2 = second;
    t.i2 = find_first(p, n, second, t.imax);
  }
  return t;
}

F32RowSums f32_row_sums__wasmsimd(const float* p, int n, int skip0, int skip1, bool logs, bool powers) {
  if (logs) return powers ? row_sums_simd<true, true>(p, n, skip0, skip1) : row_sums_simd<true, false>(p, n, skip0, skip1);
  return powers ? row_sums_simd<false, true>(p, n, skip0, skip1) : row_sums_simd<false, false>(p, n, skip0, skip1);
}

void f32_row_secular__wasmsimd(const float* p, int n, int skip, double y, double* psi, double* dpsi) {
  const v128_t z = wasm_f64x2_splat(0.0), vy = wasm_f64x2_splat(y);
  v128_t al = z, ah = z, bl = z, bh = z;
  const v128_t s0 = wasm_i32x4_splat(skip);
  v128_t idx = wasm_i32x4_make(0, 1, 2, 3);
  const v128_t four = wasm_i32x4_splat(4);
  int j = 0;
  for (; j + 4 <= n; j += 4, idx = wasm_i32x4_add(idx, four)) {
    const v128_t x = wasm_v128_andnot(wasm_v128_load(p + j), wasm_i32x4_eq(idx, s0));
    const v128_t xl = wasm_f64x2_promote_low_f32x4(x), xh = promote_high(x);
    const v128_t tl = wasm_f64x2_div(xl, wasm_f64x2_sub(xl, vy));
    const v128_t th = wasm_f64x2_div(xh, wasm_f64x2_sub(xh, vy));
    al = wasm_f64x2_add(al, wasm_f64x2_mul(xl, tl));
    ah = wasm_f64x2_add(ah, wasm_f64x2_mul(xh, th));
    bl = wasm_f64x2_add(bl, wasm_f64x2_mul(tl, tl));
    bh = wasm_f64x2_add(bh, wasm_f64x2_mul(th, th));
  }
  double a[4], b[4];
  lanes_of(al, ah, a);
  lanes_of(bl, bh, b);
  for (; j < n; ++j) {
    if (j == skip) continue;
    const double x = p[j];
    const double t = x / (x - y);
    a[j & 3] += x * t;
    b[j & 3] += t * t;
  }
  *psi = f32_combine_lanes(a);
  *dpsi = f32_combine_lanes(b);
}

void f32_exp_nonpositive__wasmsimd(const float* x, float* y, int n) {
  int j = 0;
  for (; j + 4 <= n; j += 4) wasm_v128_store(y + j, exp_nonpositive_f32x4(wasm_v128_load(x + j)));
  for (; j < n; ++j) y[j] = wasm_f32x4_extract_lane(exp_nonpositive_f32x4(wasm_f32x4_splat(x[j])), 0);
}

void f32_softmax_rows__wasmsimd(float* x, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    softmax_row_simd(x + static_cast<size_t>(r) * cols, cols, -std::numeric_limits<float>::infinity());
}

void f32_softmax_rows_sink__wasmsimd(float* x, int rows, int cols, float sink, float* sink_weight) {
  for (int r = 0; r < rows; ++r) {
    const float w = softmax_row_simd(x + static_cast<size_t>(r) * cols, cols, sink);
    if (sink_weight != nullptr) sink_weight[r] = w;
  }
}

}  // namespace sqrtdk
