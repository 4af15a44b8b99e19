// The OCP MXFP4 64-wide block dot product (docs/datapath.md section 3): two 32-element E2M1
// blocks, each with its own E8M0 scale pair.
//   s0 a = E2M1 half units; s1 p = aA*aB (quarter units, <= 144); s2 S[b] = sum of 32 (<= 4608)
//   s3 X[b] = (xa-127) + (xb-127) - 2 (exponent add, no multiplier)
//   s4 out = RNE_fp32(S[0]*2^X[0] + S[1]*2^X[1])  (exact sum, single rounding)
// A NaN scale (0xFF) gives NaN. The MXFP8 unit: mxfp8_dot.hpp.
#pragma once
#include <cstdint>

#include "datapath/accumulator.hpp"

namespace hifsim::dp {

struct Mxfp4DotStages {
  int8_t a_a[64], a_b[64];
  int16_t p[64];
  int16_t block_sum[2];
  int16_t exp[2];
  bool nan;
  uint32_t out_bits;
};

// Documented bounds of the stages (docs/datapath.md section 3); the widths of the hardware
// description (mxfp4_dot_hw.cpp) and of rtl/hifsim_pkg.sv are computed from them.
struct Mxfp4DotBounds {
  static constexpr int a = 12, p = 144, block_sum = 4608;  // half units, quarter units, 32 products
  static constexpr int exp_min = -256, exp_max = 252;      // X = (xa-127)+(xb-127)-2, E8M0 codes 0..254
};
class Mxfp4Dot64 {
 public:
  // 64 E2M1 codes per operand; 2 E8M0 scales per operand.
  static DotResult compute(const uint8_t* codes_a, const uint8_t* scales_a, const uint8_t* codes_b,
                           const uint8_t* scales_b, Mxfp4DotStages* st = nullptr);
};

}  // namespace hifsim::dp
