// HiFloat8 (Ascend HiF8): tapered-precision 8-bit float. ../shared/reference/hif8.md.
//
// Layout  S | Dot prefix | Em (D bits, sign-magnitude exponent with implicit MSB) | M
//   prefix 11 -> D=4, |E| 8..15, 1 mantissa bit      prefix 10   -> D=3, |E| 4..7, 2 bits
//   prefix 01 -> D=2, |E| 2..3,  3 bits              prefix 001  -> D=1, |E| = 1,  3 bits
//   prefix 0001 -> D=0, E = 0, 3 bits                prefix 0000 -> denormal 2^(M-23), M = 1..7
// Zero 0x00 only (no -0); NaN 0x80; +-Inf 0x6F / 0xEF; max finite 2^15 (0x6E).
#pragma once
#include <cstdint>

#include "formats/bits.hpp"

namespace hifsim::fmt {

struct Hif8Encode {
  Rounding rounding = Rounding::nearest_away;  // TA is the format's default
  bool saturate = false;  // |x| >= 40960 and +-Inf -> +-0x6E instead of +-Inf
  // Rounding::stochastic: 64 uniform random bits for this element (round up iff U < remainder).
  uint64_t rbits = 0;
  // Rounding::hybrid (FP32 source): the 14-bit threshold T14. When hybrid_threshold_from_input
  // is set (the default, the easyasc/CANN model) T14 is the input's own low 14 fraction bits.
  bool hybrid_threshold_from_input = true;
  uint32_t hybrid_t14 = 0;
  // Round up iff F14 >= T14 (the published model) or, with hybrid_strict, iff F14 > T14.
  bool hybrid_strict = false;
};

constexpr uint8_t kHif8NaN = 0x80;
constexpr uint8_t kHif8PosInf = 0x6F;
constexpr uint8_t kHif8MaxFinite = 0x6E;
constexpr float kHif8OverflowThreshold = 40960.0f;  // 1.25 * 2^15: ties away to Inf

// Decoded value of every code (NaN -> canonical 0x7FC00000). Built from the layout rules.
float hif8_decode(uint8_t code);
const float* hif8_decode_table();  // 256 entries

uint8_t hif8_encode(float x, const Hif8Encode& o = {});

// Mantissa width used for a value with unbiased exponent e (|e| <= 15), 0 in the denormal range.
inline int hif8_mantissa_bits(int e) {
  int a = e < 0 ? -e : e;
  if (a <= 3) return 3;
  if (a <= 7) return 2;
  if (a <= 15) return 1;
  return 0;
}

}  // namespace hifsim::fmt
