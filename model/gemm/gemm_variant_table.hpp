// The kernel table of one CPU variant, written once: each gemm_variant_<name>.cpp defines
// HIFSIM_VARIANT_NS (and its HIFSIM_VARIANT_<NAME> flag), includes the kernel templates and this
// file, and calls variant_kernels with its tile shapes. Include it from a variant unit only: the
// instances it makes must be compiled with that variant's target flags and nothing else.
#pragma once
#include "gemm/gemm_kernels_fp.hpp"
#include "gemm/gemm_kernels_fpi.hpp"
#include "gemm/gemm_kernels_pack.hpp"

namespace hifsim::dp::tile {
namespace {

template <int Mr, int Nv>
FpiKernel fpi_kernel() {
  if constexpr (Mr == 0) return nullptr;
  else return &hifsim::dp::HIFSIM_VARIANT_NS::fpi_tile<Mr, Nv>;
}

// Tile shapes (MR rows x NV vectors per micro-kernel) of HiF4, of the E2M1 formats (NVFP4,
// MXFP4), of the fp family, of its narrow-window kernels and of its integer kernel (FpiMr = 0:
// none; the variant keeps the double kernel for every accumulator).
template <int Hif4Mr, int Hif4Nv, int E2m1Mr, int E2m1Nv, int FpMr, int FpNv, int FpwMr, int FpwNv, int FpiMr = 0,
          int FpiNv = 1>
VariantKernels variant_kernels(const char* name) {
  using namespace hifsim::dp::HIFSIM_VARIANT_NS;
  return {
      name,
      Hif4Mr, Hif4Nv * Isa::L,
      E2m1Mr, E2m1Nv * Isa::L,
      FpMr, FpNv * Isa::LD,
      FpwMr, FpwNv * Isa::LD,
      &hif4_tile<Hif4Mr, Hif4Nv>,
      &e2m1_tile<E2m1Mr, E2m1Nv, 16, false>,
      &e2m1_tile<E2m1Mr, E2m1Nv, 32, true>,
      &fp_tile<FpMr, FpNv, true>,
      &fp_tile<FpMr, FpNv, false>,
      &fp_window_tile<FpwMr, FpwNv, false>,
      &fp_window_tile<FpwMr, FpwNv, true>,
      FpiMr, FpiNv * Isa::L,
      fpi_kernel<FpiMr, FpiNv>(),
      &hif4_row_ints,
      &e2m1_row_ints,
  };
}

}  // namespace
}  // namespace hifsim::dp::tile
