#include "datapath/hif4_dot.hpp"

#include "formats/bits.hpp"
#include "formats/scales.hpp"

namespace hifsim::dp {

DotResult Hif4Dot64::compute(const fmt::Hif4Unit& A, const fmt::Hif4Unit& B, Hif4DotStages* st) {
  Hif4DotStages local;
  Hif4DotStages& s = st ? *st : local;
  // s0: level-3 bits absorbed into the elements.
  for (int k = 0; k < 64; ++k) {
    const int ma = (A.nib[k] & 7) << ((A.e1_16 >> (k >> 2)) & 1);
    const int mb = (B.nib[k] & 7) << ((B.e1_16 >> (k >> 2)) & 1);
    s.a_a[k] = static_cast<int8_t>((A.nib[k] & 8) ? -ma : ma);
    s.a_b[k] = static_cast<int8_t>((B.nib[k] & 8) ? -mb : mb);
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
