#include "datapath/hif4_dot.hpp"

#include "formats/bits.hpp"
#include "formats/scales.hpp"

namespace hifsim::dp {

namespace {
// s0 as a table: element code c (S1P2: sign bit 3, magnitude bits 2..0) with its level-3 bit e
// at index c | e << 4 -> the signed value (magnitude << e, negated when the sign is set). Built
// by the formula below at compile time; a lookup instead of the per-element shift and negate
// (the golden model of every hif4_dot64 co-simulation vector: docs/cosim.md, throughput).
struct ElemTable {
  int8_t v[32];
};
constexpr ElemTable make_elem_table() {
  ElemTable t{};
  for (int i = 0; i < 32; ++i) {
    const int m = (i & 7) << (i >> 4);
    t.v[i] = static_cast<int8_t>((i & 8) ? -m : m);
  }
  return t;
}
constexpr ElemTable kElem = make_elem_table();
}  // namespace

DotResult Hif4Dot64::compute(const fmt::Hif4Unit& A, const fmt::Hif4Unit& B, Hif4DotStages* st) {
  Hif4DotStages local;
  Hif4DotStages& s = st ? *st : local;
  // s0: level-3 bits absorbed into the elements (E1_16 bit j covers elements 4j..4j+3).
  for (int j = 0; j < 16; ++j) {
    const int ea = ((A.e1_16 >> j) & 1) << 4, eb = ((B.e1_16 >> j) & 1) << 4;
    for (int k = 4 * j; k < 4 * j + 4; ++k) {
      s.a_a[k] = kElem.v[(A.nib[k] & 15) | ea];
      s.a_b[k] = kElem.v[(B.nib[k] & 15) | eb];
    }
  }
  // s1, s2: products and group sums.
  for (int i = 0; i < 8; ++i) {
    int sum = 0;
    for (int k = 8 * i; k < 8 * i + 8; ++k) {
      s.p[k] = static_cast<int16_t>(s.a_a[k] * s.a_b[k]);
      sum += s.p[k];
    }
    s.group[i] = static_cast<int16_t>(sum);
  }
  // s3, s4: level-2 shifts and the 8 -> 1 sum.
  int32_t I = 0;
  for (int i = 0; i < 8; ++i) {
    const int sh = ((A.e1_8 >> i) & 1) + ((B.e1_8 >> i) & 1);
    s.shifted[i] = static_cast<int16_t>(s.group[i] * (1 << sh));
    I += s.shifted[i];
  }
  s.i_sum = I;
  // s5: scale significands and exponent.
  s.nan = A.e6m2 == fmt::kE6M2NaN || B.e6m2 == fmt::kE6M2NaN;
  s.scale_prod = static_cast<uint8_t>((4 + (A.e6m2 & 3)) * (4 + (B.e6m2 & 3)));
  s.exp = static_cast<int16_t>((A.e6m2 >> 2) + (B.e6m2 >> 2) + Hif4DotBounds::exp_min);  // EA + EB - 104
  // s6: the one integer multiply.
  s.big = I * s.scale_prod;
  DotResult r;
  if (s.nan) {
    r.exact = ExactValue::make_nan();
    r.value = fmt::f32_nan();
  } else {
    r.exact = ExactValue::from_int(s.big, s.exp);
    // s7: exact FP32 (|big| < 2^22, 2^-100 <= |value| < 2^45): ldexp never rounds here.
    r.value = round_to_float(r.exact);
  }
  s.out_bits = fmt::f32_bits(r.value);
  return r;
}

}  // namespace hifsim::dp
