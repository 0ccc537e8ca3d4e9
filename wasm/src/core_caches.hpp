// The state the core keeps from one call to the next, each piece with its key and its bound; every
// experiment is otherwise a pure function of its parameters. No cache changes a number: what it
// serves is bit for bit what the call would compute afresh (tests/native, tests/node/parity).
// (The bindings keep one more: attention's staging buffers, wasm/bindings/bindings.cpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels.hpp"

namespace sqrtdk::cache {

// attention's weights of one head when the caller does not want them all: [seq_len, seq_len] floats.
// Key: none (every entry is written by the product before it is read; never zero-filled).
// Bound: the largest seq_len² of a call so far (the call's memory budget refuses more); grown,
// never shrunk.
class HeadScratch {
 public:
  // At least n floats.
  float* reserve(size_t n) {
    if (cap_ < n) {
      data_.reset(new float[n]);
      cap_ = n;
    }
    return data_.get();
  }
  float* data() const { return data_.get(); }

 private:
  std::unique_ptr<float[]> data_;
  size_t cap_ = 0;
};
HeadScratch& attention_head_scratch();

// longContext's keys, K [lmax, d_k] of stream 2 of a seed, as one stream of normals.
// Key: the seed (a stream's first n draws do not depend on how many follow, so a longer draw
// serves any shorter request). Bound: kMaxKeptKeys floats; a larger draw is kept only for its call
// (`fresh`, replaced by the next such call).
inline constexpr size_t kMaxKeptKeys = size_t{16} << 20;  // 64 MiB of floats
struct LongContextKeys {
  uint32_t seed = 0;
  std::vector<float> kept;
  std::vector<float> fresh;
};
LongContextKeys& long_context_keys();

// longContext's products q_i·k_j [rows, cols] (factor 1) of the first rows queries and cols keys.
// Key: (seed, d_k, kernel); a kept matrix serves any request with no more rows and columns, and
// more queries add rows. Bound: kMaxKeptProducts floats; a larger matrix is kept only for its call
// (`fresh`).
inline constexpr size_t kMaxKeptProducts = size_t{4} << 20;  // 16 MiB of floats
struct LongContextProducts {
  bool valid = false;
  uint32_t seed = 0;
  int dk = 0;
  Kernel kernel = Kernel::Scalar;
  int rows = 0, cols = 0;
  std::vector<float> s;
  std::vector<float> fresh;
};
LongContextProducts& long_context_products();

}  // namespace sqrtdk::cache
