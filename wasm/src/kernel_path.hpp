// KernelPath<T>: the arithmetic an experiment runs twice, T = float through the kernel family's table, T = double as the reference.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "kernels.hpp"

namespace sqrtdk::detail {

template <typename T>
struct KernelPath {
  const KernelTable* kt = nullptr;  // float only
  // s [M, N] = c · a bᵀ (a [M, K], b [N, K]); In = float (the draws) or T
  template <typename In>
  void abt(const In* a, const In* b, T* s, int M, int N, int K, double c) const {
    if constexpr (std::is_same_v<T, float>) {
      static_assert(std::is_same_v<In, float>, "the float path multiplies float inputs");
      kt->matmul_abt(a, b, s, M, N, K, static_cast<float>(c));
    } else {
      for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
          double acc = 0.0;
          for (int k = 0; k < K; ++k) acc += static_cast<double>(a[m * K + k]) * static_cast<double>(b[n * K + k]);
          s[m * N + n] = c * acc;
        }
    }
  }
  // out [M, K] = w [M, N] · v [N, K]
  void wv(const T* w, const float* v, T* out, int M, int N, int K) const {
    if constexpr (std::is_same_v<T, float>) {
      kt->matmul_ab(w, v, out, M, K, N, 1.0f);
    } else {
      for (int m = 0; m < M; ++m)
        for (int k = 0; k < K; ++k) {
          double acc = 0.0;
          for (int n = 0; n < N; ++n) acc += w[m * N + n] * static_cast<double>(v[n * K + k]);
          out[m * K + k] = acc;
        }
    }
  }
  // each row of x [rows, cols] in place: softmax
  void softmax(T* x, int rows, int cols) const {
    if constexpr (std::is_same_v<T, float>) {
      kt->softmax_rows(x, rows, cols);
    } else {
      std::vector<double> p(cols);
      for (int r = 0; r < rows; ++r) {
        f64_softmax__reference(x + static_cast<size_t>(r) * cols, p.data(), cols);
        std::copy(p.begin(), p.end(), x + static_cast<size_t>(r) * cols);
      }
    }
  }
  // each row of x [rows, cols] in place: e^{x_j} / (e^{sink} + Σ e^{x_k}) (sink −∞: softmax)
  void softmax(T* x, int rows, int cols, double sink) const {
    if constexpr (std::is_same_v<T, float>) {
      kt->softmax_rows_sink(x, rows, cols, static_cast<float>(sink), nullptr);
    } else {
      std::vector<double> p(cols);
      for (int r = 0; r < rows; ++r) {
        f64_softmax_sink__reference(x + static_cast<size_t>(r) * cols, sink, p.data(), cols);
        std::copy(p.begin(), p.end(), x + static_cast<size_t>(r) * cols);
      }
    }
  }
};

}  // namespace sqrtdk::detail
