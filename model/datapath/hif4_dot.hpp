// The HiF4 64-element dot product, the paper's datapath (hif4.md section 3; docs/datapath.md):
//
//   s0  a[k]  = +-(m[k] << E1_16)             level-3 bits absorbed: 5-bit signed, |a| <= 14
//   s1  p[k]  = aA[k] * aB[k]                  64 small products, |p| <= 196 (9-bit signed)
//   s2  P[i]  = sum of 8 products              8 group sums, |P| <= 1568 (12-bit signed)
//   s3  Q[i]  = P[i] << (E1_8A[i] + E1_8B[i])  level-2 shifts, |Q| <= 6272 (14-bit signed)
//   s4  I     = sum of Q[i]                    one integer, |I| <= 50176 (17-bit signed)
//   s5  SS    = (4+MA)(4+MB), X = EA+EB-104    one E6M2 x E6M2 scale product: 6-bit, 8-bit signed
//   s6  big   = I * SS                         one integer multiply, |big| <= 2,458,624 (23-bit signed)
//   s7  out   = big * 2^X as FP32              exact (no rounding ever happens); NaN scale -> NaN
#pragma once
#include <cstdint>

#include "datapath/accumulator.hpp"
#include "formats/hif4.hpp"

namespace hifsim::dp {

struct Hif4DotStages {
  int8_t a_a[64], a_b[64];  // s0
  int16_t p[64];            // s1
  int16_t group[8];         // s2
  int16_t shifted[8];       // s3
  int32_t i_sum;            // s4
  uint8_t scale_prod;       // s5: SA * SB
  int16_t exp;              // s5: X
  int32_t big;              // s6
  bool nan;                 // either scale is 0xFF
  uint32_t out_bits;        // s7
};

// Documented bounds of every stage (docs/datapath.md); tests check they are reached and never exceeded.
struct Hif4DotBounds {
  static constexpr int a = 14, p = 196, group = 1568, shifted = 6272, i_sum = 50176, big = 2458624;
  static constexpr int scale_prod_min = 16, scale_prod_max = 49, exp_min = -104, exp_max = 22;
};

class Hif4Dot64 {
 public:
  // Pure compute step; `st` (optional) receives every intermediate value.
  static DotResult compute(const fmt::Hif4Unit& a, const fmt::Hif4Unit& b, Hif4DotStages* st = nullptr);
};

}  // namespace hifsim::dp
