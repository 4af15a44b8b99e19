// The GEMM tile kernels instantiated for the avx512 variant (see gemm_cpu.hpp; compiled with
// this variant's target flags only, model/datapath/CMakeLists.txt). Tile shapes: MR rows x NV
// vectors, chosen so that the accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avx512
#define HIFSIM_VARIANT_AVX512 1
#include "datapath/gemm_kernels_fp.hpp"
#include "datapath/gemm_kernels_pack.hpp"

namespace hifsim::dp::tile {

namespace {
using namespace hifsim::dp::v_avx512;
constexpr int kHif4Mr = 4, kHif4Nv = 2;
constexpr int kE2m1Mr = 4, kE2m1Nv = 1;
constexpr int kFpwMr = 4, kFpwNv = 3;
constexpr int kFpMr = 6, kFpNv = 4;
}  // namespace

const VariantKernels& kernels_avx512() {
  static const VariantKernels k = {
      "avx512",
      kHif4Mr, kHif4Nv * Isa::L,
      kE2m1Mr, kE2m1Nv * Isa::L,
      kFpMr, kFpNv * Isa::LD,
      kFpwMr, kFpwNv * Isa::LD,
      &hif4_tile<kHif4Mr, kHif4Nv>,
      &e2m1_tile<kE2m1Mr, kE2m1Nv, 16, false>,
      &e2m1_tile<kE2m1Mr, kE2m1Nv, 32, true>,
      &fp_tile<kFpMr, kFpNv, true>,
      &fp_tile<kFpMr, kFpNv, false>,
      &fp_window_tile<kFpwMr, kFpwNv, false>,
      &fp_window_tile<kFpwMr, kFpwNv, true>,
      &hif4_row_ints,
      &e2m1_row_ints,
  };
  return k;
}

}  // namespace hifsim::dp::tile
