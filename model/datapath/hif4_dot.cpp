#include "datapath/hif4_dot.hpp"

#include <cstring>

#include "formats/bits.hpp"
#include "formats/scales.hpp"

namespace hifsim::dp {

namespace {
// s0 of one operand: element k is its S1P2 code's magnitude (bits 2..0), doubled when its level-3
// bit (E1_16 bit k / 4) is set, negated when its sign (bit 3) is set.
void absorb_level3(const fmt::Hif4Unit& u, int8_t* a) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Eight elements at a time, one per byte of a 64-bit word (the golden model of every
  // hif4_dot64 co-simulation vector: docs/cosim.md, throughput). No byte carries into the next:
  // a magnitude m <= 7 doubles to <= 14; a byte is negated as (m ^ 0xFF) + 1 only where m != 0
  // (a -0 code stays 0), and m + 0x7F <= 141 sets bit 7 exactly where m != 0.
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  for (int i = 0; i < 8; ++i) {
    uint64_t x;
    std::memcpy(&x, u.nib + 8 * i, sizeof x);  // byte b = code 8i + b
    uint64_t m = x & (7 * kOnes);
    // Bytes 0..3: E1_16 bit 2i; bytes 4..7: bit 2i + 1.
    const uint64_t twice = (((u.e1_16 >> (2 * i)) & 1) ? 0x00000000FFFFFFFFull : 0) |
                           (((u.e1_16 >> (2 * i + 1)) & 1) ? 0xFFFFFFFF00000000ull : 0);
    m += m & twice;
    const uint64_t neg = (x >> 3) & ((m + 0x7F * kOnes) >> 7) & kOnes;
    const uint64_t v = (m ^ (neg * 0xFF)) + neg;
    std::memcpy(a + 8 * i, &v, sizeof v);
  }
#else
  for (int k = 0; k < 64; ++k) {
    const int m = (u.nib[k] & 7) << ((u.e1_16 >> (k >> 2)) & 1);
    a[k] = static_cast<int8_t>((u.nib[k] & 8) ? -m : m);
  }
#endif
}
}  // namespace

DotResult Hif4Dot64::compute(const fmt::Hif4Unit& A, const fmt::Hif4Unit& B, Hif4DotStages* st) {
  Hif4DotStages local;
  Hif4DotStages& s = st ? *st : local;
  // s0: level-3 bits absorbed into the elements.
  absorb_level3(A, s.a_a);
  absorb_level3(B, s.a_b);
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
