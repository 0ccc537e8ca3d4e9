// The checks and draws the experiments share (experiment_common.hpp).
#include "experiment_common.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "rng.hpp"
#include "shapes.hpp"

namespace sqrtdk::detail {

void check_variance(const char* what, double variance) {
  if (!(variance > 0.0) || !std::isfinite(variance) || variance > 1e6)
    throw std::invalid_argument(std::string(what) + ": variance = " + format_number(variance) +
                                " must be a positive finite number ≤ 1e6");
}

void check_dks(const char* what, const std::vector<int>& dks) {
  if (dks.empty()) throw std::invalid_argument(std::string(what) + ": dks is empty; give at least one d_k");
  check_int_range(what, "dks.length", static_cast<long long>(dks.size()), 1, 64);
  for (int dk : dks) check_int_range(what, "dk", dk, 1, kMaxDk);
}

// heads 1..64, seqLen 1..8192, dk 1..16384.
void check_shape(const char* what, int heads, int seq_len, int dk) {
  check_int_range(what, "heads", heads, 1, kMaxHeads);
  check_int_range(what, "seqLen", seq_len, 1, kMaxSeqLen);
  check_int_range(what, "dk", dk, 1, kMaxDk);
}

void check_threshold(const char* what, double t) {
  if (!(t > 0.0 && t < 1.0))
    throw std::invalid_argument(std::string(what) + ": threshold = " + format_number(t) + " must lie in (0, 1)");
}

std::vector<float> draw_tensor(uint32_t seed, uint64_t stream, size_t n, double sigma) {
  Rng rng = Rng::stream(seed, stream);
  std::vector<float> t(n);
  for (auto& x : t) x = static_cast<float>(sigma * rng.normal());
  return t;
}

// heads_kv = 0 means heads; otherwise it must divide heads.
int resolve_heads_kv(const char* what, int heads, int heads_kv) {
  if (heads_kv == 0) return heads;
  check_int_range(what, "headsKv", heads_kv, 1, heads);
  if (heads % heads_kv != 0)
    throw std::invalid_argument(std::string(what) + ": headsKv = " + std::to_string(heads_kv) +
                                " does not divide heads = " + std::to_string(heads));
  return heads_kv;
}


// out[i] = c · qk[i] in float32 (n values): the logits of a scale from the shared products Q Kᵀ.
void scale_products(const float* qk, float c, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = c * qk[i];
}

// Throws unless t holds n finite values, naming the tensor and the first bad index.
void check_tensor(const char* what, const char* name, std::span<const float> t, size_t n, const char* shape) {
  if (t.size() != n)
    throw std::invalid_argument(std::string(what) + ": " + name + ".length = " + std::to_string(t.size()) +
                                " does not match " + shape + " = " + std::to_string(n));
  // Fast pass: one branch-free test per entry (NaN and ±∞ fail |x| ≤ 1e6 too; 1e6 is exact in
  // float32), which the compiler vectorises; only a tensor that fails it is walked again below
  // for the first bad index and the message.
  const float* x = t.data();
  const float lim = static_cast<float>(kMaxTensorEntry);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok &= std::fabs(x[i]) <= lim;
  if (ok) return;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(t[i]))
      throw std::invalid_argument(std::string(what) + ": " + name + "[" + std::to_string(i) + "] = " +
                                  format_number(t[i]) + " is not a finite number");
    // Larger entries could overflow the float32 products (q·k, dP, dQ) for the largest shapes.
    if (std::fabs(t[i]) > kMaxTensorEntry)
      throw std::invalid_argument(std::string(what) + ": " + name + "[" + std::to_string(i) + "] = " +
                                  format_number(t[i]) + " exceeds 1e6 in magnitude; rescale the tensor");
  }
}

}  // namespace sqrtdk::detail
