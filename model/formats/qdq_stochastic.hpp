// Stochastic-rounding block quantizers with exactly the reference's bits (hif4_quantize,
// mx_quantize_block, nvfp4_quantize_block with random words; tests/formats/test_stochastic.cpp
// compares them on both instruction-set paths). Stochastic rounding never changes a scale, so
// the scales come from the round-to-nearest fast path; the elements are rounded in one
// branch-free loop per block (AVX2 when available, else portable; same bits).
//
// Handled: --sr-bits 1..30, HiF4 (exact compare), MX floor rule, NVFP4 TE and torchao recipes on
// finite blocks. Everything else (and B = 31, 32) takes the reference path.
#pragma once
#include <cstddef>
#include <cstdint>

#include "formats/hif4.hpp"
#include "formats/minifloat.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"

namespace hifsim::fmt {

constexpr unsigned kSrFastMaxBits = 30;

// r: each element's B random bits (sr_draw), right-aligned; 64 of them for HiF4, n otherwise. The
// reference receives them as its codec words (sr_word). o.rbits is not read.
Hif4Unit hif4_quantize_sr(const float x[64], const Hif4Options& o, const uint32_t* r, unsigned bits);
void mx_quantize_block_sr(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, const uint32_t* r,
                          unsigned bits, uint8_t* codes, uint8_t& scale);
void nvfp4_quantize_block_sr(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                             const uint32_t* r, unsigned bits, float block_amax, uint8_t* codes, uint8_t& scale);

}  // namespace hifsim::fmt
