// The GEMM tile kernels instantiated for the avx2 variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/datapath/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avx2
#define HIFSIM_VARIANT_AVX2 1
#include "datapath/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_avx2() {
  // HiF4 4x1, E2M1 2x1, fp 4x2, fp narrow window 2x2
  static const VariantKernels k = variant_kernels<4, 1, 2, 1, 4, 2, 2, 2>("avx2");
  return k;
}

}  // namespace hifsim::dp::tile
