// The GEMM tile kernels instantiated for the portable variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/gemm/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_portable
#define HIFSIM_VARIANT_PORTABLE 1
#include "gemm/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_portable() {
  // HiF4 4x1, E2M1 2x1, fp 4x2, fp narrow window 4x1, fp on integers 4x1
  static const VariantKernels k = variant_kernels<4, 1, 2, 1, 4, 2, 4, 1, 4, 1>("portable");
  return k;
}

}  // namespace hifsim::dp::tile
