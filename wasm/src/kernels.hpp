// Attention kernels: the two matrix products and the row softmax of one head.
//
// Families (names follow XNNPACK's "what__how" habit):
//   f32 *__scalar   plain loops, one element at a time; the file is compiled with
//                   auto-vectorisation off (-fno-tree-vectorize / -fno-vectorize), so it is
//                   the honest scalar baseline.
//   f32 *__wasmsimd WebAssembly SIMD128 (wasm_simd128.h): 4x8 register-tiled products over
//                   8-column packed panels, vectorised softmax. Only in the SIMD128 build.
//   f64 reference   double precision (Eigen 3.4), the oracle the fast kernels are tested against.
//
// Rounding: neither float32 family fuses multiply and add (wasm SIMD128 has no FMA, and the
// kernels are built with -ffp-contract=off), and both sum a dot product in the same order
// (p = 0, 1, …), so the two products are bit-identical between families. The softmax is not:
// the SIMD128 family has its own, cheaper exponential (kSimdExpRelError) and sums in float32
// blocks, so its weights agree with the scalar family's only within the bound written beside
// softmax_row_simd (kernels_wasmsimd.cpp); both are held to the f64 reference.
#pragma once

#include <string>

namespace sqrtdk {

enum class Kernel { Scalar, Simd };

// "scalar" | "simd"
const char* kernel_name(Kernel k);
// Parses "scalar" / "simd"; throws std::invalid_argument naming the value otherwise.
Kernel parse_kernel(const std::string& name);
// True when this build holds the WebAssembly SIMD128 family.
bool simd_available();

struct KernelTable {
  // c[m, n] = alpha · Σ_p a[m, p] · b[n, p]   (a: [M, K], b: [N, K], c: [M, N]) — e.g. Q Kᵀ
  void (*matmul_abt)(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
  // c[m, n] = alpha · Σ_p a[m, p] · b[p, n]   (a: [M, K], b: [K, N], c: [M, N]) — e.g. P V
  void (*matmul_ab)(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
  // In place, each row of x [rows, cols]: x ← softmax(x), computed as exp(x − max) / Σ exp(x − max)
  // (the max is subtracted only for numerical stability: exp never overflows).
  // A row of all −∞ (every key masked) becomes all zeros; entries equal to +∞ share the mass
  // equally. exp of arguments below −87.3 is flushed to 0 (float32 subnormals are not produced).
  void (*softmax_rows)(float* x, int rows, int cols);
  // Optional (null when the family has none): one head of out = softmax(scale · q kᵀ) v with no
  // mask or cap and no weights kept, q, k, v, out [L, dk]; bit-identical to matmul_abt, then
  // softmax_rows, then matmul_ab, but fused by row blocks so the scores stay in cache.
  // `same_kv`: k and v are the very tensors (same pointers, same contents, same L and dk) of the
  // previous attention_head call, with no other kernel call between: their packed copies are reused
  // (the query heads of one K/V group under GQA/MQA). The result is the same bits either way.
  void (*attention_head)(const float* q, const float* k, const float* v, float* out, int L, int dk, float scale, bool same_kv);
  // In place, each row of x [rows, cols] with one more logit, the sink (gpt-oss, openai/gpt-oss
  // gpt_oss/torch/model.py `sdpa`: a learned logit per head appended to each row and dropped after
  // the softmax; StreamingLLM, Xiao et al. 2023): x_j ← e^{x_j − m} / (e^{sink − m} + Σ_i e^{x_i − m}),
  // m = max(sink, max x), so a row sums to 1 − its sink weight. sink_weight [rows] (may be null)
  // receives e^{sink − m} / (…). sink = −∞ is no sink: the weights are softmax_rows' bits and the sink
  // weight 0. A row of all −∞ with a finite sink gives zeros (the sink takes all, weight 1).
  void (*softmax_rows_sink)(float* x, int rows, int cols, float sink, float* sink_weight);
};

// The table of a family; throws std::invalid_argument if the family is not in this build.
const KernelTable& kernel_table(Kernel k);

// ---- float32 families (declared for the dispatch table and the tests) ----
void f32_matmul_abt__scalar(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
void f32_matmul_ab__scalar(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
void f32_softmax_rows__scalar(float* x, int rows, int cols);
void f32_softmax_rows_sink__scalar(float* x, int rows, int cols, float sink, float* sink_weight);
// One row of the above; returns the sink weight (the SIMD family's fallback for rows with ±∞).
float f32_softmax_row_sink__scalar(float* row, int cols, float sink);
#ifdef SQRTDK_HAVE_WASM_SIMD
void f32_matmul_abt__wasmsimd_4x8(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
void f32_matmul_ab__wasmsimd_4x8(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
void f32_softmax_rows__wasmsimd(float* x, int rows, int cols);
void f32_softmax_rows_sink__wasmsimd(float* x, int rows, int cols, float sink, float* sink_weight);
void f32_attention_head__wasmsimd(const float* q, const float* k, const float* v, float* out, int L, int dk, float scale,
                                  bool same_kv);
// y[i] = the SIMD128 family's exp(x[i]) for x[i] ≤ 0 (XNNPACK's rr2_p5: Cody–Waite reduction by
// ln2, a degree-4 polynomial in r·p(r) form, 2^n by integer shift), the one its softmax uses;
// relative error at most kSimdExpRelError against exp in double; +0 below −87.3 and at −∞.
void f32_exp_nonpositive__wasmsimd(const float* x, float* y, int n);
#endif
// The SIMD128 exponential's documented maximum relative error on [−87.3, 0]: 1.85e-7 measured on
// every float32 of that range against exp in double (3.1·2^-24), rounded up.
inline constexpr double kSimdExpRelError = 1.9e-7;

// ---- f64 reference ----
// out[heads, seq_len, dk] and weights[heads, seq_len, seq_len] (either may be null) from
// float32 q, k, v [heads, seq_len, dk], all arithmetic in double.
void f64_attention__reference(const float* q, const float* k, const float* v, int heads, int seq_len, int dk,
                              double scale, double* out, double* weights);
// The same with the logit rule of experiments' attention(): S = scale · Q Kᵀ in double, then
// soft-capping cap · tanh(S / cap) (softcap > 0), then the additive mask [seq_len, seq_len]
// (float32, may be null; applied to the full score matrix of every head), then −∞ above the
// diagonal (causal); a fully masked row gives zeros, or NaN weights and output when nan_rows.
// sinks [heads] (may be null: none; −∞ entries: none for that head) adds each head's sink logit to
// every row's softmax as softmax_rows_sink does, and sink_weights [heads, seq_len] (may be null)
// receives the sink's weight of every row; a fully masked row with a finite sink gives zeros (never
// NaN, whatever nan_rows says: the sink takes the mass). mask_per_head: mask is [heads, seq_len,
// seq_len], head h reading its own. alibi [heads] (may be null): ALiBi slopes, −m_h · (i − j) added
// in double after the mask (Press et al. 2022). dv (0: dk): v is [heads, seq_len, dv] and out
// [heads, seq_len, dv]. query_scale [seq_len] (may be null): row i's scaled logits times t_i, before
// the soft-cap.
void f64_attention_masked__reference(const float* q, const float* k, const float* v, int heads, int seq_len, int dk,
                                     double scale, const float* mask, bool causal, double softcap, bool nan_rows,
                                     double* out, double* weights, const double* sinks = nullptr,
                                     double* sink_weights = nullptr, bool mask_per_head = false,
                                     const double* alibi = nullptr, int dv = 0, const float* query_scale = nullptr);
// Softmax of one row in double, with the same conventions as softmax_rows (all −∞ → zeros).
void f64_softmax__reference(const double* x, double* p, int n);
// The same with a sink logit (−∞: none) as softmax_rows_sink; returns the sink's weight.
double f64_softmax_sink__reference(const double* x, double sink, double* p, int n);

// ---- per-row statistics passes over float32 attention rows (see f32_row_stats, stats.hpp) ----
// Both families give bit-identical results: sums are kept in four double lanes, lane k holding
// the terms j ≡ k (mod 4) in ascending j, combined as (lane0 + lane2) + (lane1 + lane3) (the SIMD128
// family holds lanes 0,1 and 2,3 in two f64x2 registers); maxima are order-free. No FMA anywhere.
//
// The two largest entries of a row p [n] (n ≥ 1, p ≥ 0, no NaN): imax is the first index of the
// maximum, i2 the first index ≠ imax holding the largest of the rest (−1 and p2 = 0 when n = 1).
struct F32Top2 {
  int imax = 0, i2 = -1;
  float pmax = 0.0f, p2 = 0.0f;
};
// Sums over j ∉ {skip0, skip1} of a row p [n] (p ≥ 0), in double from the exact float→double
// promotion: rest = Σ p_j; with `logs` plogp = Σ p_j · ln p_j (ln by f32_log_nonnegative, 0·ln 0 = 0);
// with `powers` sq = Σ p_j², cube = Σ p_j³ (p_j² · p_j). Sums not asked for are 0.
struct F32RowSums {
  double rest = 0.0, plogp = 0.0, sq = 0.0, cube = 0.0;
};
// The four lanes of those sums, term j added to lane j & 3, and their combination: one definition
// for the scalar family's loop and the SIMD128 family's tail, so both round alike.
struct F32RowLanes {
  double rest[4] = {0, 0, 0, 0}, plogp[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0}, cube[4] = {0, 0, 0, 0};
};
float f32_log_nonnegative(float x);  // (documented below)
inline double f32_combine_lanes(const double (&a)[4]) { return (a[0] + a[2]) + (a[1] + a[3]); }
inline void f32_row_sums_add(F32RowLanes& a, float pj, int j, bool logs, bool powers) {
  const double x = pj;
  a.rest[j & 3] += x;
  if (logs) a.plogp[j & 3] += x * static_cast<double>(f32_log_nonnegative(pj));
  if (powers) {
    const double x2 = x * x;
    a.sq[j & 3] += x2;
    a.cube[j & 3] += x2 * x;
  }
}
inline F32RowSums f32_row_sums_finish(const F32RowLanes& a, bool logs, bool powers) {
  F32RowSums s;
  s.rest = f32_combine_lanes(a.rest);
  if (logs) s.plogp = f32_combine_lanes(a.plogp);
  if (powers) {
    s.sq = f32_combine_lanes(a.sq);
    s.cube = f32_combine_lanes(a.cube);
  }
  return s;
}
// The secular-equation sums of the un-normalised row at the scaled abscissa y (> 0):
// psi = Σ_{j≠skip} p_j² / (p_j − y), dpsi = Σ_{j≠skip} (p_j / (p_j − y))² (zeros add nothing).
struct F32RowKernels {
  F32Top2 (*top2)(const float* p, int n);
  F32RowSums (*sums)(const float* p, int n, int skip0, int skip1, bool logs, bool powers);
  void (*secular)(const float* p, int n, int skip, double y, double* psi, double* dpsi);
};
// The family's passes; throws std::invalid_argument if the family is not in this build.
const F32RowKernels& f32_row_kernels(Kernel k);
// The fastest family in this build (SIMD128 where built; the numbers are the same either way).
const F32RowKernels& f32_row_kernels_best();
F32Top2 f32_row_top2__scalar(const float* p, int n);
F32RowSums f32_row_sums__scalar(const float* p, int n, int skip0, int skip1, bool logs, bool powers);
void f32_row_secular__scalar(const float* p, int n, int skip, double y, double* psi, double* dpsi);
#ifdef SQRTDK_HAVE_WASM_SIMD
F32Top2 f32_row_top2__wasmsimd(const float* p, int n);
F32RowSums f32_row_sums__wasmsimd(const float* p, int n, int skip0, int skip1, bool logs, bool powers);
void f32_row_secular__wasmsimd(const float* p, int n, int skip, double y, double* psi, double* dpsi);
#endif
// float32 ln x for finite x ≥ 0: subnormals scaled by 2²³ first, x = 2^e · m with m ∈ [√½, √2),
// then ln(1 + f), f = m − 1, by a degree-9 polynomial (Cephes logf coefficients) and e·ln2 in two
// parts (Cody–Waite). Max error about 1 ulp (relative 1.2e-7) on normal and subnormal inputs.
// x = 0 gives a finite value (about −104), so 0 · f32_log_nonnegative(0) = 0 without a branch.
float f32_log_nonnegative(float x);

// float32 exp for arguments ≤ 0 used by both float32 softmax families: Cody–Waite range
// reduction x = n·ln2 + r, |r| ≤ ln2/2, then a degree-6 polynomial (Cephes expf coefficients);
// max relative error about 2 ulp. Returns 0 below −87.3 and for −∞.
float f32_exp_nonpositive(float x);

}  // namespace sqrtdk
