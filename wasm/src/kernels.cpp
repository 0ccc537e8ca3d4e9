// The kernels' dispatch and checks: one head's products and row softmax, by family (kernels.hpp).
#include "kernels.hpp"

#include <stdexcept>

namespace sqrtdk {

const char* kernel_name(Kernel k) { return k == Kernel::Simd ? "simd" : "scalar"; }

Kernel parse_kernel(const std::string& name) {
  if (name == "scalar") return Kernel::Scalar;
  if (name == "simd") return Kernel::Simd;
  throw std::invalid_argument("kernel = '" + name + "' is not one of 'scalar', 'simd'");
}

bool simd_available() {
#ifdef SQRTDK_HAVE_WASM_SIMD
  return true;
#else
  return false;
#endif
}

const KernelTable& kernel_table(Kernel k) {
  static const KernelTable scalar{f32_matmul_abt__scalar, f32_matmul_ab__scalar, f32_softmax_rows__scalar, nullptr,
                                  f32_softmax_rows_sink__scalar};
#ifdef SQRTDK_HAVE_WASM_SIMD
  static const KernelTable simd{f32_matmul_abt__wasmsimd_4x8, f32_matmul_ab__wasmsimd_4x8,
                                f32_softmax_rows__wasmsimd, f32_attention_head__wasmsimd,
                                f32_softmax_rows_sink__wasmsimd};
  if (k == Kernel::Simd) return simd;
#else
  if (k == Kernel::Simd)
    throw std::invalid_argument("kernel = 'simd' is not in this build (it has no WebAssembly SIMD128); use 'scalar'");
#endif
  return scalar;
}

const F32RowKernels& f32_row_kernels(Kernel k) {
  kernel_table(k);  // throws for a family this build does not have
  static const F32RowKernels scalar{f32_row_top2__scalar, f32_row_sums__scalar, f32_row_secular__scalar};
#ifdef SQRTDK_HAVE_WASM_SIMD
  static const F32RowKernels simd{f32_row_top2__wasmsimd, f32_row_sums__wasmsimd, f32_row_secular__wasmsimd};
  if (k == Kernel::Simd) return simd;
#endif
  return scalar;
}

const F32RowKernels& f32_row_kernels_best() { return f32_row_kernels(simd_available() ? Kernel::Simd : Kernel::Scalar); }

}  // namespace sqrtdk
