// NVFP4 64-element dot product as in NVIDIA-style block-scaled hardware (docs/datapath.md):
//
//   s0  a[k]   = E2M1 in half units, |a| <= 12              (sign + 4 bits)
//   s1  p[k]   = aA[k] * aB[k] (quarter units), |p| <= 144   64 small products
//   s2  S[j]   = sum of 16 products, |S| <= 2304             4 sub-block sums (13-bit signed)
//   s3  ss[j]  = sigA[j]*sigB[j] (<= 225), tt[j] = tA+tB     4 E4M3 x E4M3 scale products
//   s4  P[j]   = S[j] * ss[j], |P| <= 518400                 4 large integer multiplies (21-bit signed)
//   s5  Q[j]   = P[j] << (tt[j] + 18)                        align to weight 2^-20 (48-bit signed)
//   s6  T      = sum of Q[j]                                 exact (50-bit signed)
//   s7  out    = RNE_fp32(T * 2^-20)                         the single rounding
// NaN block scale -> NaN. The FP32 per-tensor scales are NOT applied here: the GEMM applies
// alpha = sA * sB once after accumulation.
#pragma once
#include <cstdint>

#include "datapath/accumulator.hpp"

namespace hifsim::dp {

struct Nvfp4DotStages {
  int8_t a_a[64], a_b[64];
  int16_t p[64];
  int16_t sub[4];
  uint8_t ss[4];
  int8_t tt[4];
  int32_t partial[4];
  int64_t aligned[4];
  int64_t total;
  bool nan;
  uint32_t out_bits;
};

struct Nvfp4DotBounds {
  static constexpr int a = 12, p = 144, sub = 2304, ss = 225, partial = 518400;
  static constexpr int tt_min = -18, tt_max = 10;
  static constexpr int lsb_exp = 2 * -1 + tt_min;  // T's LSB weight: quarter units x 2^tt_min = 2^-20
};

class Nvfp4Dot64 {
 public:
  // codes: 64 E2M1 codes per operand; scales: 4 E4M3 codes per operand (one per 16 elements).
  static DotResult compute(const uint8_t* codes_a, const uint8_t* scales_a, const uint8_t* codes_b,
                           const uint8_t* scales_b, Nvfp4DotStages* st = nullptr);
};

}  // namespace hifsim::dp
