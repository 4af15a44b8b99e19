// Where the fp family's integer kernel (gemm_kernels_fpi.hpp) cannot prove a block -- its int16
// form or its int32 sum does not hold the block -- this computes the block's FP32 value exactly
// in scalar code from the element codes: each product as an odd integer times a power of two,
// summed in 128 bits aligned to the lowest product, rounded once by the units' own rounding
// (round_to_float). That is the unit's value whenever nothing falls outside its window; blocks
// with a NaN/Inf element or scale, or products the alignment window would cut, go to the unit.
// About 20x cheaper than the unit call it replaces (docs/performance.md).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "gemm/gemm.hpp"

namespace hifsim::dp {

struct FpiExact {
  FpiExact(const fmt::QTensor* a, const fmt::QTensor* b, const GemmSpec* spec, int w, int p, int win, bool mx,
           std::atomic<uint64_t>* calls);
  const fmt::QTensor* A;
  const fmt::QTensor* B;
  const GemmSpec* s;
  int width;       // block width w
  int pbits;       // the unit's product bits P
  int window;      // alignment window W (0 = exact)
  bool mx_scaled;  // one E8M0 scale per block
  std::atomic<uint64_t>* unit_calls;  // blocks that still needed the unit
  const void* table;                  // the element code's decoded table (nullptr: the unit)
};

// tile::FixupFn: ctx is a FpiExact.
float fpi_exact_block(const void* ctx, size_t m, size_t n, size_t blk);

}  // namespace hifsim::dp
