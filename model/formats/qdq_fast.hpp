// Fast quantize-dequantize paths (branch-free, vectorisable loops). Each returns exactly the
// bits of dequantize(quantize(...)) -- tests/formats/test_qdq_fast.cpp compares them on
// >= 10^7 values per format and mode, with both instruction-set paths and several thread
// counts -- and returns false when it does not handle the format/options (the caller then
// takes the reference path).
//
// Handled: hif8 (away, rne, rz; saturating or not), fp8-e4m3 / fp8-e5m2 (rne, away; saturating
// or not), bf16 (rne, rz), hif4 (away, rne; exact compare, Inf saturates), mxfp4 / mxfp8-*
// (rne, away; floor scale rule), nvfp4 (te, torchao), and the plain element fp4-e2m1 (rne, away;
// saturating; the caller must keep NaN out: it is the ml-dtypes float4_e2m1fn peer in the
// benchmarks, not a tensor format). Everything else (stochastic and hybrid
// rounding, the hif4 "bf16" compare and Inf-to-NaN modes, the MX ceil rule) falls back.
//
// Two builds of every kernel: an AVX2 one (selected at run time when the CPU has AVX2) and a
// portable one (baseline x86-64 / any target). Both compute the same bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/hif4.hpp"
#include "formats/minifloat.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"
#include "formats/tensor.hpp"

namespace hifsim::fmt {

bool qdq_fast(Format f, const float* x, float* y, size_t rows, size_t cols, const QuantOptions& o);
// NVFP4's per-tensor amax (an order-independent max of |x|) in one parallel pass that also
// checks for NaN and Inf: throws check_representable's error (naming `where` and the first bad
// element) when there is one.
float nvfp4_checked_amax(const float* x, size_t rows, size_t cols, unsigned threads, const std::string& where);

// The codes of one 64-element HiF4 unit, bit-identical to hif4_quantize(x, o) (the reference
// quantizer), from the qdq_fast hif4 kernel's front end (same instruction-set path), with either
// level compare (exact or BF16-rounded). The other options that kernel does not handle (see
// above: INF_TO_NAN, A6, stochastic) take the reference. fmt::quantize uses it for HiF4
// (tests/formats/test_qdq_fast.cpp, Hif4Codes*).
Hif4Unit hif4_quantize_fast(const float x[64], const Hif4Options& o = {});
// The same with stochastic elements (r: each element's B random bits, B <= 30; the scales as
// round-to-nearest chooses them): the bits of hif4_quantize with element_rounding stochastic and
// rbits = sr_word(r[k], B), in one pass over the unit. false (u untouched) for B > 30 and the options
// the kernel above does not handle (qdq_stochastic.cpp then takes the longer way).
bool hif4_quantize_sr_fast(const float x[64], const Hif4Options& o, const uint32_t* r, unsigned bits, Hif4Unit& u);
// The same for the MX formats' and NVFP4's blocks: codes and scale bit-identical to
// mx_quantize_block / nvfp4_quantize_block (same arguments), from the qdq_fast mx / nvfp4 kernels;
// what those do not handle (MX ceil rule, roundings other than nearest even / away, NVFP4 blocks
// with NaN or Inf) takes the reference.
void mx_quantize_block_fast(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, uint8_t* codes,
                            uint8_t& scale);
void nvfp4_quantize_block_fast(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe, uint8_t* codes,
                               uint8_t& scale);
// nblocks full, consecutive NVFP4 blocks (16 * nblocks values, codes[16 * i + k], scales[i]): the
// same codes and scales as nvfp4_quantize_block_fast per block, eight blocks per kernel call
// (their maxima, then their eight scales in one loop, then their elements), so that
// fmt::quantize pays no per-block call, copy and dispatch; a group with NaN or Inf takes the
// per-block path.
void nvfp4_quantize_blocks_fast(const float* x, size_t nblocks, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                                uint8_t* codes, uint8_t* scales);
// The E4M3 scale code nvfp4_quantize_block chooses for a block of amax bmax (finite, >= 0), from
// the same scale arithmetic as the kernels above; false (code untouched) for a degenerate tensor
// scale (0, Inf or NaN: the reference's rules apply). For the stochastic path, whose scales are
// those of round-to-nearest. factor (when given): what the elements are multiplied by (te:
// min(1 / (scale * decode), FLT_MAX)) or divided by (torchao: decode * scale) before their
// conversion, as the reference computes it.
bool nvfp4_scale_code_fast(float bmax, const Nvfp4TensorScale& ts, NvfpRecipe recipe, uint8_t& code,
                           float* factor = nullptr);

// The codes of n element-wise values, bit-identical to encode_code(f, x[i], r, o, i) (the reference
// encoders), for hif8 (away, rne, rz), fp8-e4m3 / fp8-e5m2 (rne, away) and bf16 (rne, rz), saturating
// or not; returns false (and writes nothing) for anything else. Single-threaded: fmt::quantize
// splits the tensor (tests/formats/test_qdq_fast.cpp, ElementCodes*).
bool encode_codes_fast(Format f, const float* x, size_t n, Rounding r, bool saturate, uint16_t* codes);

// The MX floor rule's shared exponent of a finite block from its largest magnitude's FP32 bits
// (floor(log2 amax) - emax, clamped at -127; amax 0 -> the smallest), for an element format whose
// largest exponent is emax. The code kernels and the stochastic ones (qdq_stochastic.cpp) share it.
inline int mx_floor_shared_exponent(uint32_t amax, int emax) {
  int shared;
  if (amax == 0) shared = -126 - emax;
  else if (amax >= 0x00800000u) shared = static_cast<int>(amax >> 23) - 127 - emax;
  else shared = (31 - __builtin_clz(amax)) - 149 - emax;
  return shared < -127 ? -127 : shared;
}

enum class QdqIsa { automatic, portable, avx2 };
// Forces an instruction-set path (tests and benchmarks); automatic = AVX2 when available.
void qdq_fast_set_isa(QdqIsa isa);
// The path qdq_fast uses now (never `automatic`).
QdqIsa qdq_fast_isa();
bool qdq_fast_cpu_has_avx2();
const char* qdq_isa_name(QdqIsa isa);

}  // namespace hifsim::fmt
