// The GEMM tile kernels instantiated for the avx2 variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/gemm/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avx2
#define HIFSIM_VARIANT_AVX2 1
#include "gemm/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_avx2() {
  // HiF4 3x2, E2M1 2x2, fp 4x2, fp narrow window 2x2 (HiF4 4x1 / E2M1 2x1 before issue 27:
  // 3x2 loads 5 vectors per 6 vpmaddubsw instead of per 4, +45 % on an AVX2 EPYC); fp on
  // integers 4x2 (8 int32 sums, 2 B vectors and a broadcast in the 16 ymm registers)
  static const VariantKernels k = variant_kernels<3, 2, 2, 2, 4, 2, 2, 2, 4, 2>("avx2");
  return k;
}

}  // namespace hifsim::dp::tile
