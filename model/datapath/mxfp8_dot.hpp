// The OCP MXFP8 32-wide block dot product (docs/datapath.md section 3; E4M3 or E5M2 elements, one
// block; plain FP8 GEMMs run on it with both scales 127):
//   s0 element sig/exp; s1 products sigA*sigB with exponent tA+tB; s2 exact sum over 32
//   (aligned to the lowest product exponent: 41 bits for E4M3, 69 bits for E5M2);
//   s3 X = (xa-127) + (xb-127); s4 out = RNE_fp32(sum * 2^X)
// A NaN scale (0xFF) or NaN element gives NaN; E5M2 Inf elements follow IEEE (Inf*0 = NaN,
// +Inf + -Inf = NaN).
#pragma once
#include <cstdint>

#include "datapath/accumulator.hpp"
#include "formats/minifloat.hpp"

namespace hifsim::dp {

struct Mxfp8DotStages {
  uint16_t prod_sig[32];
  int16_t prod_exp[32];
  bool prod_neg[32];
  int16_t min_exp;       // weight of the sum's LSB before scaling
  int64_t sum_hi, sum_lo;  // the exact 69-bit sum as a signed 128-bit value (hi:lo)
  int16_t scale_exp;
  bool prod_nan, pinf, ninf;  // a NaN product (NaN in, Inf x 0), +Inf and -Inf products
  bool nan;
  uint32_t out_bits;
};

// Documented bounds of the stages (docs/datapath.md section 3); the widths of the hardware
// description (mxfp8_dot_hw.cpp) and of rtl/hifsim_pkg.sv are computed from them.
// MXFP8: per element format the lowest product exponent (the exact sum's LSB weight), the largest
// product significand and the largest shift of a product above that LSB.
struct Mxfp8DotBounds {
  static constexpr int e4m3_min_exp = -18, e4m3_prod = 196, e4m3_shift = 28;  // 14 * 14, t = 5 + 5
  static constexpr int e5m2_min_exp = -32, e5m2_prod = 49, e5m2_shift = 58;   // 7 * 7, t = 13 + 13
};

class Mxfp8Dot32 {
 public:
  // elem = fmt::kE4M3 or fmt::kE5M2; 32 codes and one E8M0 scale per operand.
  static DotResult compute(const fmt::MiniFloatSpec& elem, const uint8_t* codes_a, uint8_t scale_a,
                           const uint8_t* codes_b, uint8_t scale_b, Mxfp8DotStages* st = nullptr);
};

}  // namespace hifsim::dp
