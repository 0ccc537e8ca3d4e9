// f32x4_muladd_peak (peak.hpp): the muladd_l1 kernel of peak_kernel.hpp at 4 × 8 (the bench's
// muladd_l1_f32x4_4x8), in the core so that the page can time it in its worker. Compiled only into
// the SIMD128 build.
#include <stdexcept>
#include <string>

#include "peak.hpp"
#include "peak_kernel.hpp"

namespace sqrtdk {

namespace {
constexpr int kRows = 4;
alignas(16) float g_a[kRows * peak::kDepth];  // kRows rows of kDepth
alignas(16) float g_b[peak::kDepth * 8];      // panel [kDepth][8]
}  // namespace

float f32x4_muladd_peak(int iters) {
  if (iters < 1 || iters > 1000000)
    throw std::invalid_argument("simdPeak: iters = " + std::to_string(iters) + " is outside 1..1000000");
  peak::fill_operands(g_a, kRows, g_b, 1e-3f);
  return peak::muladd_l1<kRows>(g_a, g_b, iters);
}

}  // namespace sqrtdk
