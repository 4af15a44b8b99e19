// OCP MX block dot products (docs/datapath.md):
//   MXFP4 64-wide: two 32-element E2M1 blocks, each with its own E8M0 scale pair.
//     s0 a = E2M1 half units; s1 p = aA*aB (quarter units, <= 144); s2 S[b] = sum of 32 (<= 4608)
//     s3 X[b] = (xa-127) + (xb-127) - 2 (exponent add, no multiplier)
//     s4 out = RNE_fp32(S[0]*2^X[0] + S[1]*2^X[1])  (exact sum, single rounding)
//   MXFP8 32-wide (E4M3 or E5M2 elements): one block.
//     s0 element sig/exp; s1 products sigA*sigB with exponent tA+tB; s2 exact sum over 32
//     (aligned to the lowest product exponent: 41 bits for E4M3, 69 bits for E5M2);
//     s3 X = (xa-127) + (xb-127); s4 out = RNE_fp32(sum * 2^X)
// A NaN scale (0xFF) or NaN element gives NaN; E5M2 Inf elements follow IEEE (Inf*0 = NaN,
// +Inf + -Inf = NaN).
#pragma once
#include <cstdint>

#include "datapath/accumulator.hpp"
#include "formats/minifloat.hpp"

namespace hifsim::dp {

struct Mxfp4DotStages {
  int8_t a_a[64], a_b[64];
  int16_t p[64];
  int16_t block_sum[2];
  int16_t exp[2];
  bool nan;
  uint32_t out_bits;
};

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
// description (mx_dot_hw.cpp) and of rtl/hifsim_pkg.sv are computed from them.
struct Mxfp4DotBounds {
  static constexpr int a = 12, p = 144, block_sum = 4608;  // half units, quarter units, 32 products
  static constexpr int exp_min = -256, exp_max = 252;      // X = (xa-127)+(xb-127)-2, E8M0 codes 0..254
};
// MXFP8: per element format the lowest product exponent (the exact sum's LSB weight), the largest
// product significand and the largest shift of a product above that LSB.
struct Mxfp8DotBounds {
  static constexpr int e4m3_min_exp = -18, e4m3_prod = 196, e4m3_shift = 28;  // 14 * 14, t = 5 + 5
  static constexpr int e5m2_min_exp = -32, e5m2_prod = 49, e5m2_shift = 58;   // 7 * 7, t = 13 + 13
};

class Mxfp4Dot64 {
 public:
  // 64 E2M1 codes per operand; 2 E8M0 scales per operand.
  static DotResult compute(const uint8_t* codes_a, const uint8_t* scales_a, const uint8_t* codes_b,
                           const uint8_t* scales_b, Mxfp4DotStages* st = nullptr);
};

class Mxfp8Dot32 {
 public:
  // elem = fmt::kE4M3 or fmt::kE5M2; 32 codes and one E8M0 scale per operand.
  static DotResult compute(const fmt::MiniFloatSpec& elem, const uint8_t* codes_a, uint8_t scale_a,
                           const uint8_t* codes_b, uint8_t scale_b, Mxfp8DotStages* st = nullptr);
};

}  // namespace hifsim::dp
