// The GEMM tile kernels instantiated for the avx512 variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/gemm/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avx512
#define HIFSIM_VARIANT_AVX512 1
#include "gemm/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_avx512() {
  // HiF4 4x2, E2M1 4x1, fp 6x4, fp narrow window 4x3, fp on integers 8x2 (vpdpwssd; 16 int32
  // sums: 46 / 54 GMAC/s per CPU s on FP8-E4M3 at 1024^3 / 4096x4096x512, against 36-37 / 44 for
  // 4x4, 6x4, 8x3 and 12x2)
  static const VariantKernels k = variant_kernels<4, 2, 4, 1, 6, 4, 4, 3, 8, 2>("avx512");
  return k;
}

}  // namespace hifsim::dp::tile
