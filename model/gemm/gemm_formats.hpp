// The GEMM engine's per-format record, derived from the format's FormatTraits (formats/format.hpp):
// its dot-product unit decides the kernel family, the unit function and whether an alignment
// window applies; its element code decides the product width and whether a block's double sum
// is always exact. No switch on the format anywhere in the engine.
#pragma once
#include <cstddef>

#include "datapath/accumulator.hpp"
#include "formats/format.hpp"
#include "gemm/gemm.hpp"
#include "gemm/gemm_pack.hpp"

namespace hifsim::dp {

using UnitDotFn = DotResult (*)(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk,
                                const GemmSpec& s);

struct GemmFormatRecord {
  const fmt::FormatTraits* traits;
  KernelFamily family;
  bool windowed;          // the alignment window (AlignSpec) applies: hif8_dot, bf16_dot64
  int pbits;              // fp family: product significand bits (the unit's P)
  bool exact_double_sum;  // fp family: the block's double sum is always exact (E4M3 elements)
  bool mx_scaled;         // fp family: one E8M0 scale per block (MXFP8; plain FP8 runs unit scales)
  bool integer_kernel;    // fp family: the int16 kernel applies (8-bit elements; BF16's 8-bit
                          // significands leave too little spread in int16: gemm_kernels_fpi.hpp)
  UnitDotFn unit;         // the unit, one block (the reference)
};

// Throws hifsim::Error for a format without a dot-product unit.
const GemmFormatRecord& gemm_format_record(fmt::Format f);

}  // namespace hifsim::dp
