// The GEMM engine's per-format record: which dot-product unit computes a block, how wide it
// is, and which tile-kernel family reproduces it (a table keyed by format, not a switch).
#pragma once
#include <cstddef>

#include "datapath/accumulator.hpp"
#include "datapath/gemm.hpp"
#include "datapath/gemm_pack.hpp"

namespace hifsim::dp {

using UnitDotFn = DotResult (*)(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk,
                                const GemmSpec& s);

struct GemmFormatRecord {
  fmt::Format format;
  int width;              // elements per unit call along K; 0 = GemmSpec::hif8_lanes
  KernelFamily family;
  int pbits;              // fp family: product significand bits (the unit's P)
  bool windowed;          // the alignment window (AlignSpec) applies: hif8, bf16
  bool exact_double_sum;  // fp family: the block's double sum is always exact (E4M3 elements)
  UnitDotFn unit;         // the unit, one block (the reference)
};

// Throws hifsim::Error for a format without a dot-product unit.
const GemmFormatRecord& gemm_format_record(fmt::Format f);

}  // namespace hifsim::dp
