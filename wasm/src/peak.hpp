// The single-core WebAssembly SIMD128 multiply+add peak, measured on the reader's own device by
// the "your device" panel (the same micro-kernel as wasm/bench/peak.cpp's muladd_l1_f32x4_4x8,
// the variant `npm run bench` finds fastest on Node 20 / x64).
#pragma once

namespace sqrtdk {

// FLOPs of one step of f32x4_muladd_peak: 4 rows × 8 columns × 256 depth, one mul + one add each.
inline constexpr double kPeakFlopPerIter = 2.0 * 4 * 8 * 256;

// Runs `iters` steps (1 ≤ iters ≤ 1e6, else std::invalid_argument) of 8 f32x4 accumulator chains
// s ← s + x · y fed from L1 the way a GEMM micro-kernel is (one splat load of A and two panel loads
// of B per 4 × 8 update, nothing stored), and returns the sum of the accumulators (finite: the
// operands alternate in sign), so nothing can be optimised away. FLOPs = kPeakFlopPerIter · iters.
// Only in the SIMD128 build; elsewhere it throws std::invalid_argument.
float f32x4_muladd_peak(int iters);

}  // namespace sqrtdk
