// The GEMM tile kernels instantiated for the avx512 variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/gemm/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avx512
#define HIFSIM_VARIANT_AVX512 1
#include "gemm/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_avx512() {
  // HiF4 8x2 and E2M1 8x2 (issue 27, measured on a Xeon: best of 3 alternating runs per CPU s,
  // 1 thread, 1024^3 / 4096x4096x512, against 4x2 and 4x1: HiF4 105 / 166 against 90 / 146
  // GMAC/s, NVFP4 70 / 85 against 55 / 65, MXFP4 96 / 116 against 74 / 75; E2M1 6x2 and 10x2 were
  // no better), fp 6x4, fp narrow window 4x3, fp on integers 8x2 (vpdpwssd; FP8-E4M3 46 / 54
  // against 36-37 / 44 for 4x4, 6x4, 8x3 and 12x2)
  static const VariantKernels k = variant_kernels<8, 2, 8, 2, 6, 4, 4, 3, 8, 2>("avx512");
  return k;
}

}  // namespace hifsim::dp::tile
