// The GEMM tile kernels instantiated for the avxvnni variant: the AVX2 variant's operations with
// the VEX-encoded VNNI dot products (vpdpbusd, vpdpwssd on ymm) of CPUs that have AVX-VNNI but
// maybe not AVX-512 (see gemm_cpu.hpp; compiled with this variant's target flags only,
// model/gemm/CMakeLists.txt). Tile shapes: MR rows x NV vectors, chosen so that the
// accumulators stay in registers.
#define HIFSIM_VARIANT_NS v_avxvnni
#define HIFSIM_VARIANT_AVX2 1
#define HIFSIM_VARIANT_AVXVNNI 1
#include "gemm/gemm_variant_table.hpp"

namespace hifsim::dp::tile {

const VariantKernels& kernels_avxvnni() {
  // HiF4 6x2 (12 int32 sums, 2 B vectors and a broadcast in the 16 ymm registers: one vpdpbusd
  // per group needs no int16 stage), E2M1 3x2, fp 4x2 and narrow window 2x2 (as avx2), fp on
  // integers 6x2. Measured per CPU s at 1024^3 / 4096x4096x512 against the avx2 shapes 4x2 / 2x2
  // / 4x2: HiF4 88 / 101 against 82 / 90 GMAC/s, NVFP4 47 / 48 against 46 / 45, MXFP4 67 / 63
  // against 52 / 52, FP8-E4M3 28 / 30 against 27 / 27.
  static const VariantKernels k = variant_kernels<6, 2, 3, 2, 4, 2, 2, 2, 6, 2>("avxvnni");
  return k;
}

}  // namespace hifsim::dp::tile
