// The layers of the training lab's Transformer, forward and backward written by hand in the
// manner of karpathy/llm.c (`layernorm_forward(out, mean, rstd, inp, weight, bias, B, T, C)`):
// plain functions over row-major buffers, templated on the scalar type so the float32 model
// that trains and the double model that the finite-difference checks differentiate are the same
// code. Notation: config.hpp. Every backward ACCUMULATES (+=) into its gradient outputs, as in
// llm.c, so residual branches simply add.
//
// Products: the float32 instantiation calls the kernel table's matmul_ab (scalar or SIMD128,
// chosen by TrainConfig::kernel); transposed operands are copied out first (a transpose costs
// O(rows·cols), the product O(rows·cols·K)), so only matmul_ab is used and the two families do
// the same arithmetic in the same order. The double instantiation uses plain loops.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "config.hpp"
#include "kernels.hpp"

namespace sqrtdk::train {

// c[M, N] = a[M, K] · b[K, N]
template <typename T>
struct Ops {
  Kernel kernel = Kernel::Scalar;
  void ab(const T* a, const T* b, T* c, int M, int N, int K) const {
    if constexpr (std::is_same_v<T, float>) {
      kernel_table(kernel).matmul_ab(a, b, c, M, N, K, 1.0f);
    } else {
      for (int m = 0; m < M; ++m) {
        T* crow = c + static_cast<size_t>(m) * N;
        std::fill(crow, crow + N, T(0));
        for (int p = 0; p < K; ++p) {
          const T apk = a[static_cast<size_t>(m) * K + p];
          const T* brow = b + static_cast<size_t>(p) * N;
          for (int n = 0; n < N; ++n) crow[n] += apk * brow[n];
        }
      }
    }
  }
};

// out[cols, rows] = inp[rows, cols]ᵀ
template <typename T>
void transpose(T* out, const T* inp, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[static_cast<size_t>(c) * rows + r] = inp[static_cast<size_t>(r) * cols + c];
}

template <typename T>
void add_into(T* dst, const T* src, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] += src[i];
}

// Grow-only scratch buffers for the backward passes.
template <typename T>
struct Scratch {
  std::vector<T> a, b, c;
  T* get(std::vector<T>& v, size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
  }
};

// ---- token + learned positional embedding ---------------------------------------------------
// out[b, t, :] = wte[tokens[b, t], :] + wpe[t, :]   (out [B, T, C], wte [V, C], wpe [T, C])
template <typename T>
void embedding_forward(T* out, const int* tokens, const T* wte, const T* wpe, int B, int Tn, int C) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < Tn; ++t) {
      T* o = out + (static_cast<size_t>(b) * Tn + t) * C;
      const T* e = wte + static_cast<size_t>(tokens[b * Tn + t]) * C;
      const T* p = wpe + static_cast<size_t>(t) * C;
      for (int i = 0; i < C; ++i) o[i] = e[i] + p[i];
    }
}
template <typename T>
void embedding_backward(T* dwte, T* dwpe, const T* dout, const int* tokens, int B, int Tn, int C) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < Tn; ++t) {
      const T* d = dout + (static_cast<size_t>(b) * Tn + t) * C;
      T* e = dwte + static_cast<size_t>(tokens[b * Tn + t]) * C;
      T* p = dwpe + static_cast<size_t>(t) * C;
      for (int i = 0; i < C; ++i) {
        e[i] += d[i];
        p[i] += d[i];
      }
    }
}

// ---- LayerNorm (Ba, Kiros & Hinton 2016) over the last axis ---------------------------------
// out = (x − mean) · rstd · g + b per row of inp [N, C]; mean, rstd [N]; rstd = 1/√(var + 1e-5)
// with the biased variance (PyTorch's). The sums are accumulated in double.
inline constexpr double kLayerNormEps = 1e-5;
template <typename T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* g, const T* b, int N, int C) {
  for (int n = 0; n < N; ++n) {
    const T* x = inp + static_cast<size_t>(n) * C;
    double m = 0.0;
    for (int i = 0; i < C; ++i) m += x[i];
    m /= C;
    double v = 0.0;
    for (int i = 0; i < C; ++i) v += (x[i] - m) * (x[i] - m);
    v /= C;
    const double s = 1.0 / std::sqrt(v + kLayerNormEps);
    T* o = out + static_cast<size_t>(n) * C;
    for (int i = 0; i < C; ++i) o[i] = static_cast<T>((x[i] - m) * s) * g[i] + b[i];
    mean[n] = static_cast<T>(m);
    rstd[n] = static_cast<T>(s);
  }
}
// With x̂ = (x − mean)·rstd and dx̂ = dout ⊙ g: dx = rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂)).
template <typename T>
void layernorm_backward(T* dinp, T* dg, T* db, const T* dout, const T* inp, const T* g, const T* mean,
                        const T* rstd, int N, int C) {
  for (int n = 0; n < N; ++n) {
    const T* x = inp + static_cast<size_t>(n) * C;
    const T* d = dout + static_cast<size_t>(n) * C;
    const double m = mean[n], s = rstd[n];
    double dnorm_mean = 0.0, dnorm_norm_mean = 0.0;
    for (int i = 0; i < C; ++i) {
      const double xhat = (x[i] - m) * s;
      const double dn = static_cast<double>(d[i]) * g[i];
      dnorm_mean += dn;
      dnorm_norm_mean += dn * xhat;
    }
    dnorm_mean /= C;
    dnorm_norm_mean /= C;
    T* dx = dinp + static_cast<size_t>(n) * C;
    for (int i = 0; i < C; ++i) {
      const double xhat = (x[i] - m) * s;
      const double dn = static_cast<double>(d[i]) * g[i];
      db[i] += d[i];
      dg[i] += static_cast<T>(xhat * d[i]);
      dx[i] += static_cast<T>(s * (dn - dnorm_mean - xhat * dnorm_norm_mean));
    }
  }
}

// ---- linear map ----------------------------------------------------------------------------
// out[N, OUT] = inp[N, IN] · W[IN, OUT] + bias[OUT]
template <typename T>
void linear_forward(T* out, const T* inp, const T* W, const T* bias, int N, int IN, int OUT, const Ops<T>& ops) {
  ops.ab(inp, W, out, N, OUT, IN);
  if (bias != nullptr)
    for (int n = 0; n < N; ++n) add_into(out + static_cast<size_t>(n) * OUT, bias, OUT);
}
// dinp += dout · Wᵀ (skipped when dinp is null); dW += inpᵀ · dout; dbias += Σ_n dout[n, :]
template <typename T>
void linear_backward(T* dinp, T* dW, T* dbias, const T* dout, const T* inp, const T* W, int N, int IN, int OUT,
                     const Ops<T>& ops, Scratch<T>& s) {
  if (dinp != nullptr) {
    T* wt = s.get(s.a, static_cast<size_t>(OUT) * IN);
    transpose(wt, W, IN, OUT);
    T* prod = s.get(s.b, static_cast<size_t>(N) * IN);
    ops.ab(dout, wt, prod, N, IN, OUT);
    add_into(dinp, prod, static_cast<size_t>(N) * IN);
  }
  T* inpt = s.get(s.a, static_cast<size_t>(IN) * N);
  transpose(inpt, inp, N, IN);
  T* prod = s.get(s.c, static_cast<size_t>(IN) * OUT);
  ops.ab(inpt, dout, prod, IN, OUT, N);
  add_into(dW, prod, static_cast<size_t>(IN) * OUT);
  if (dbias != nullptr)
    for (int n = 0; n < N; ++n) add_into(dbias, dout + static_cast<size_t>(n) * OUT, OUT);
}

// ---- GELU, tanh approximation (Hendrycks & Gimpel 2016; GPT-2 and llm.c use this form) ------
// gelu(x) = ½ x (1 + tanh(u)), u = √(2/π) (x + 0.044715 x³). tanh(u) is kept in th [n] for the
// backward pass (it is the costly part), computed as 1 − 2 / (exp(2u) + 1): one exp instead of
// libm's tanh, exact at both saturations (exp(2u) = ∞ gives 1, exp(2u) = 0 gives −1).
template <typename T>
void gelu_forward(T* out, T* th, const T* inp, size_t n) {
  const T k = static_cast<T>(0.7978845608028654);  // √(2/π)
  for (size_t i = 0; i < n; ++i) {
    const T x = inp[i];
    const T u = k * (x + T(0.044715) * x * x * x);
    const T t = T(1) - T(2) / (std::exp(T(2) * u) + T(1));
    th[i] = t;
    out[i] = T(0.5) * x * (T(1) + t);
  }
}
// d gelu / dx = ½ (1 + tanh u) + ½ x (1 − tanh² u) · √(2/π) (1 + 3 · 0.044715 x²)
template <typename T>
void gelu_backward(T* dinp, const T* inp, const T* th, const T* dout, size_t n) {
  const T k = static_cast<T>(0.7978845608028654);
  for (size_t i = 0; i < n; ++i) {
    const T x = inp[i];
    const T t = th[i];
    const T grad = T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * k * (T(1) + T(3) * T(0.044715) * x * x);
    dinp[i] += grad * dout[i];
  }
}

// ---- multi-head self-attention core --------------------------------------------------------
// From qkv [B, T, 3C] (q | k | v, head h at columns h·D..h·D+D−1 of each third) to y [B, T, C].
// Per head: q̂, k̂ as the variant says (config.hpp), raw = q̂ k̂ᵀ [T, T], S = c_h · raw with
// masked entries (j > i under the causal mask) set to −∞, P = softmax(S) by rows, y_h = P v.
// With softcap > 0 the unmasked logits are c_h · raw ↦ cap · tanh(c_h · raw / cap) first (Gemma 2;
// the order of flash_attn's softcap), and the backward pass multiplies by 1 − tanh²(·).
template <typename T>
struct AttentionCache {
  std::vector<T> q0, k0;        // [B, H, T, D] q and k as projected
  std::vector<T> q, k, v;       // [B, H, T, D] the vectors the dot product uses (normalised
                                // for qk_layernorm / qk_l2; otherwise equal to q0, k0)
  std::vector<T> qm, qr, km, kr;  // [B, H, T] LayerNorm mean/rstd, or (qk_l2) 1/‖·‖ in qr, kr
  std::vector<T> raw;           // [B, H, T, T] q̂·k̂ (masked entries too)
  std::vector<T> P;             // [B, H, T, T] attention weights
  std::vector<T> scale;         // [H] the c_h used
};
// Per-layer diagnostics of one forward pass.
struct AttentionStats {
  double entropy_mean = 0.0;  // mean over rows of −Σ p ln p (nats; 0 · ln 0 = 0)
  double max_abs_logit = 0.0; // max |S| over the unmasked entries
};
// Parameters of the variant (null when the variant has none).
template <typename T>
struct AttentionParams {
  const T* head_scale = nullptr;  // [H] τ_h (learnable_temperature) or g_h (qk_l2)
  const T* qg = nullptr;          // [D] qk_layernorm gain and bias of q, then of k
  const T* qb = nullptr;
  const T* kg = nullptr;
  const T* kb = nullptr;
};
template <typename T>
struct AttentionGrads {
  T* head_scale = nullptr;
  T* qg = nullptr;
  T* qb = nullptr;
  T* kg = nullptr;
  T* kb = nullptr;
};

struct AttentionShape {
  int B = 1, Tn = 1, C = 1, H = 1;
  AttentionVariant variant = AttentionVariant::InvSqrtDk;
  SoftmaxKind softmax = SoftmaxKind::Safe;
  bool causal = false;
  double softcap = 0.0;  // 0 = off
  int D() const { return C / H; }
};

// q / ‖q‖ with ‖q‖ = √(Σ q² + 1e-12): the epsilon keeps a zero vector finite.
inline constexpr double kL2Eps = 1e-12;

// The fixed c of the non-learnable variants.
inline double fixed_scale(AttentionVariant v, int D) {
  switch (v) {
    case AttentionVariant::None: return 1.0;
    case AttentionVariant::InvDk: return 1.0 / D;
    default: return 1.0 / std::sqrt(static_cast<double>(D));
  }
}

template <typename T>
void softmax_row_naive(T* row, int n) {
  // exp(s) / Σ exp(s) without the max: exp overflows to +∞ for large s and ∞/∞ = NaN.
  T sum = 0;
  for (int j = 0; j < n; ++j) {
    row[j] = std::exp(row[j]);
    sum += row[j];
  }
  for (int j = 0; j < n; ++j) row[j] /= sum;
}
template <typename T>
void softmax_row_safe(T* row, int n) {
  // The max is subtracted only for numerical stability: every exp argument is ≤ 0.
  T mx = -std::numeric_limits<T>::infinity();
  for (int j = 0; j < n; ++j) mx = std::max(mx, row[j]);
  T sum = 0;
  for (int j = 0; j < n; ++j) {
    row[j] = std::exp(row[j] - mx);
    sum += row[j];
  }
  for (int j = 0; j < n; ++j) row[j] /= sum;
}

template <typename T>
void attention_forward(T* y, const T* qkv, const AttentionShape& sh, const AttentionParams<T>& par,
                       AttentionCache<T>& c, const Ops<T>& ops, Scratch<T>& s, AttentionStats* stats) {
  const int B = sh.B, Tn = sh.Tn, C = sh.C, H = sh.H, D = sh.D();
  const size_t BHT = static_cast<size_t>(B) * H * Tn;
  const size_t TT = static_cast<size_t>(Tn) * Tn;
  const bool norm_ln = sh.variant == AttentionVariant::QkLayerNorm;
  const bool norm_l2 = sh.variant == AttentionVariant::QkL2;
  c.q0.resize(BHT * D);
  c.k0.resize(BHT * D);
  c.v.resize(BHT * D);
  c.raw.resize(BHT * Tn);
  c.P.resize(BHT * Tn);
  c.scale.resize(H);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < Tn; ++t) {
      const T* row = qkv + (static_cast<size_t>(b) * Tn + t) * 3 * C;
      for (int h = 0; h < H; ++h) {
        const size_t o = ((static_cast<size_t>(b) * H + h) * Tn + t) * D;
        std::copy_n(row + h * D, D, c.q0.data() + o);
        std::copy_n(row + C + h * D, D, c.k0.data() + o);
        std::copy_n(row + 2 * C + h * D, D, c.v.data() + o);
      }
    }
  if (norm_ln) {
    c.q.resize(BHT * D);
    c.k.resize(BHT * D);
    c.qm.resize(BHT), c.qr.resize(BHT), c.km.resize(BHT), c.kr.resize(BHT);
    layernorm_forward(c.q.data(), c.qm.data(), c.qr.data(), c.q0.data(), par.qg, par.qb, static_cast<int>(BHT), D);
    layernorm_forward(c.k.data(), c.km.data(), c.kr.data(), c.k0.data(), par.kg, par.kb, static_cast<int>(BHT), D);
  } else if (norm_l2) {
    c.q.resize(BHT * D);
    c.k.resize(BHT * D);
    c.qr.resize(BHT), c.kr.resize(BHT);
    for (int pass = 0; pass < 2; ++pass) {
      const T* src = pass == 0 ? c.q0.data() : c.k0.data();
      T* dst = pass == 0 ? c.q.data() : c.k.data();
      T* inv = pass == 0 ? c.qr.data() : c.kr.data();
      for (size_t r = 0; r < BHT; ++r) {
        double n2 = 0.0;
        for (int d = 0; d < D; ++d) n2 += static_cast<double>(src[r * D + d]) * src[r * D + d];
        const T in = static_cast<T>(1.0 / std::sqrt(n2 + kL2Eps));
        inv[r] = in;
        for (int d = 0; d < D; ++d) dst[r * D + d] = src[r * D + d] * in;
      }
    }
  } else {
    c.q = c.q0;
    c.k = c.k0;
  }
  for (int h = 0; h < H; ++h)
    c.scale[h] = par.head_scale != nullptr ? par.head_scale[h] : static_cast<T>(fixed_scale(sh.variant, D));

  T* kt = s.get(s.a, static_cast<size_t>(D) * Tn);
  T* yh = s.get(s.b, static_cast<size_t>(Tn) * D);
  constexpr T kNegInf = -std::numeric_limits<T>::infinity();
  double entropy_sum = 0.0, max_abs = 0.0;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const size_t bh = static_cast<size_t>(b) * H + h;
      const T* Q = c.q.data() + bh * Tn * D;
      const T* K = c.k.data() + bh * Tn * D;
      const T* Vh = c.v.data() + bh * Tn * D;
      T* raw = c.raw.data() + bh * TT;
      T* P = c.P.data() + bh * TT;
      transpose(kt, K, Tn, D);
      ops.ab(Q, kt, raw, Tn, Tn, D);  // raw = Q Kᵀ
      const T sc = c.scale[h];
      for (int i = 0; i < Tn; ++i)
        for (int j = 0; j < Tn; ++j) {
          const size_t ij = static_cast<size_t>(i) * Tn + j;
          if (sh.causal && j > i) {
            P[ij] = kNegInf;  // causal mask: query i does not see key j > i
          } else {
            P[ij] = sc * raw[ij];
            if (sh.softcap > 0.0)
              P[ij] = static_cast<T>(sh.softcap * std::tanh(static_cast<double>(P[ij]) / sh.softcap));
            max_abs = std::max(max_abs, static_cast<double>(std::fabs(P[ij])));
            if (std::isnan(P[ij])) max_abs = std::numeric_limits<double>::quiet_NaN();
          }
        }
      if (sh.softmax == SoftmaxKind::Naive) {
        for (int i = 0; i < Tn; ++i) softmax_row_naive(P + static_cast<size_t>(i) * Tn, Tn);
      } else if constexpr (std::is_same_v<T, float>) {
        kernel_table(ops.kernel).softmax_rows(P, Tn, Tn);
      } else {
        for (int i = 0; i < Tn; ++i) softmax_row_safe(P + static_cast<size_t>(i) * Tn, Tn);
      }
      if (stats != nullptr)
        for (size_t ij = 0; ij < TT; ++ij) {
          const double p = P[ij];
          if (p > 0.0 || std::isnan(p)) entropy_sum -= p * std::log(p);
        }
      ops.ab(P, Vh, yh, Tn, D, Tn);  // y_h = P V
      for (int t = 0; t < Tn; ++t)
        std::copy_n(yh + static_cast<size_t>(t) * D, D, y + (static_cast<size_t>(b) * Tn + t) * C + h * D);
    }
  if (stats != nullptr) {
    stats->entropy_mean = entropy_sum / static_cast<double>(BHT);
    stats->max_abs_logit = max_abs;
  }
}

// dqkv [B, T, 3C] += ∂ℓ/∂qkv given dy [B, T, C]; variant parameters' gradients accumulate in g.
// Softmax backward: dS = P ⊙ (dP − rowsum(P ⊙ dP)) (masked entries have P = 0, so dS = 0).
template <typename T>
void attention_backward(T* dqkv, const AttentionGrads<T>& g, const T* dy, const AttentionShape& sh,
                        const AttentionParams<T>& par, const AttentionCache<T>& c, const Ops<T>& ops, Scratch<T>& s,
                        std::vector<T>& work) {
  const int B = sh.B, Tn = sh.Tn, C = sh.C, H = sh.H, D = sh.D();
  const size_t BHT = static_cast<size_t>(B) * H * Tn;
  const size_t TT = static_cast<size_t>(Tn) * Tn;
  const size_t TD = static_cast<size_t>(Tn) * D;
  // work: dq̂, dk̂, dv [B, H, T, D] each, then per head dY [T, D], Vᵀ [D, T], dP, Pᵀ or dSᵀ, dS [T, T].
  work.resize(3 * BHT * D + 2 * TD + 3 * TT);
  T* dq = work.data();
  T* dk = dq + BHT * D;
  T* dv = dk + BHT * D;
  T* dyh = dv + BHT * D;
  T* vt = dyh + TD;
  T* dP = vt + TD;
  T* tr = dP + TT;
  T* dS = tr + TT;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const size_t bh = static_cast<size_t>(b) * H + h;
      const T* Q = c.q.data() + bh * TD;
      const T* K = c.k.data() + bh * TD;
      const T* Vh = c.v.data() + bh * TD;
      const T* raw = c.raw.data() + bh * TT;
      const T* P = c.P.data() + bh * TT;
      for (int t = 0; t < Tn; ++t)
        std::copy_n(dy + (static_cast<size_t>(b) * Tn + t) * C + h * D, D, dyh + static_cast<size_t>(t) * D);
      transpose(vt, Vh, Tn, D);
      ops.ab(dyh, vt, dP, Tn, Tn, D);                  // dP = dY Vᵀ
      transpose(tr, P, Tn, Tn);
      ops.ab(tr, dyh, dv + bh * TD, Tn, D, Tn);        // dV = Pᵀ dY
      const T sc = c.scale[h];
      double dscale = 0.0;
      for (int i = 0; i < Tn; ++i) {
        const T* pr = P + static_cast<size_t>(i) * Tn;
        const T* dpr = dP + static_cast<size_t>(i) * Tn;
        double dot = 0.0;
        for (int j = 0; j < Tn; ++j) dot += static_cast<double>(pr[j]) * dpr[j];
        for (int j = 0; j < Tn; ++j) {
          const size_t ij = static_cast<size_t>(i) * Tn + j;
          T ds = pr[j] * (dpr[j] - static_cast<T>(dot));  // ∂ℓ/∂S
          if (sh.softcap > 0.0 && pr[j] != T(0)) {  // through the soft-cap: × 1 / cosh²(c · raw / cap)
            const double ch = std::cosh(static_cast<double>(sc) * raw[ij] / sh.softcap);
            ds = static_cast<T>(ds / (ch * ch));
          }
          if (pr[j] != T(0)) dscale += static_cast<double>(ds) * raw[ij];
          dS[ij] = sc * ds;                                     // ∂ℓ/∂raw
        }
      }
      if (g.head_scale != nullptr) g.head_scale[h] += static_cast<T>(dscale);
      ops.ab(dS, K, dq + bh * TD, Tn, D, Tn);          // dQ̂ = dRaw K̂
      transpose(tr, dS, Tn, Tn);
      ops.ab(tr, Q, dk + bh * TD, Tn, D, Tn);          // dK̂ = dRawᵀ Q̂
    }
  // Through the q/k normalisation of the variant.
  std::vector<T>& tmp = s.c;
  if (sh.variant == AttentionVariant::QkLayerNorm) {
    tmp.assign(2 * BHT * D, T(0));
    layernorm_backward(tmp.data(), g.qg, g.qb, dq, c.q0.data(), par.qg, c.qm.data(), c.qr.data(),
                       static_cast<int>(BHT), D);
    layernorm_backward(tmp.data() + BHT * D, g.kg, g.kb, dk, c.k0.data(), par.kg, c.km.data(), c.kr.data(),
                       static_cast<int>(BHT), D);
    std::copy_n(tmp.data(), BHT * D, dq);
    std::copy_n(tmp.data() + BHT * D, BHT * D, dk);
  } else if (sh.variant == AttentionVariant::QkL2) {
    // q̂ = q/n: dq = (dq̂ − q̂ (q̂·dq̂)) / n
    for (int pass = 0; pass < 2; ++pass) {
      T* d = pass == 0 ? dq : dk;
      const T* xh = pass == 0 ? c.q.data() : c.k.data();
      const T* inv = pass == 0 ? c.qr.data() : c.kr.data();
      for (size_t r = 0; r < BHT; ++r) {
        double dot = 0.0;
        for (int e = 0; e < D; ++e) dot += static_cast<double>(xh[r * D + e]) * d[r * D + e];
        for (int e = 0; e < D; ++e) d[r * D + e] = (d[r * D + e] - xh[r * D + e] * static_cast<T>(dot)) * inv[r];
      }
    }
  }
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < Tn; ++t) {
      T* row = dqkv + (static_cast<size_t>(b) * Tn + t) * 3 * C;
      for (int h = 0; h < H; ++h) {
        const size_t o = ((static_cast<size_t>(b) * H + h) * Tn + t) * D;
        add_into(row + h * D, dq + o, D);
        add_into(row + C + h * D, dk + o, D);
        add_into(row + 2 * C + h * D, dv + o, D);
      }
    }
}

// ---- output head's cross-entropy over the target positions ----------------------------------
// logits [N, V]; targets [N] (−1: not a target). loss = mean over targets of −ln softmax(logits)[y]
// (safe softmax in double). dlogits [N, V] (overwritten) = (softmax − onehot) / n_targets at the
// targets, 0 elsewhere. Returns the loss; `correct` counts targets whose argmax is right.
struct CrossEntropyResult {
  double loss = 0.0;
  int targets = 0;
  int correct = 0;
};
template <typename T>
CrossEntropyResult crossentropy_forward_backward(T* dlogits, const T* logits, const int* targets, int N, int V,
                                                 std::vector<double>& prob) {
  CrossEntropyResult r;
  for (int n = 0; n < N; ++n) r.targets += targets[n] >= 0;
  prob.resize(V);
  const double inv_n = r.targets > 0 ? 1.0 / r.targets : 0.0;
  for (int n = 0; n < N; ++n) {
    const T* l = logits + static_cast<size_t>(n) * V;
    T* dl = dlogits != nullptr ? dlogits + static_cast<size_t>(n) * V : nullptr;
    const int y = targets[n];
    if (y < 0) {
      if (dl != nullptr) std::fill(dl, dl + V, T(0));
      continue;
    }
    double mx = -std::numeric_limits<double>::infinity();
    int arg = 0;
    for (int v = 0; v < V; ++v)
      if (l[v] > mx) mx = l[v], arg = v;
    double sum = 0.0;
    for (int v = 0; v < V; ++v) {
      prob[v] = std::exp(static_cast<double>(l[v]) - mx);  // max subtracted: exp never overflows
      sum += prob[v];
    }
    r.loss += (std::log(sum) - (static_cast<double>(l[y]) - mx)) * inv_n;
    bool any_nan = false;
    for (int v = 0; v < V; ++v) any_nan |= std::isnan(static_cast<double>(l[v]));
    if (any_nan || !std::isfinite(mx)) r.loss = std::numeric_limits<double>::quiet_NaN();
    r.correct += (arg == y && !any_nan);
    if (dl != nullptr)
      for (int v = 0; v < V; ++v) dl[v] = static_cast<T>((prob[v] / sum - (v == y ? 1.0 : 0.0)) * inv_n);
  }
  return r;
}

}  // namespace sqrtdk::train
