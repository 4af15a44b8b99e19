// The GEMM tile kernels instantiated for the avx512 variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/datapath/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avx512
#define HIFSIM_VARIANT_AVX512 1
#include "gemm/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_avx512() {
  // HiF4 4x2, E2M1 4x1, fp 6x4, fp narrow window 4x3; no fp integer kernel yet (it could not
  // be tested on an AVX-512 CPU in issue 27: this variant keeps the double kernel)
  static const VariantKernels k = variant_kernels<4, 2, 4, 1, 6, 4, 4, 3>("avx512");
  return k;
}

}  // namespace hifsim::dp::tile
