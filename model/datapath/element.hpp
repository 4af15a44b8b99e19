// Element decode into the integer form the datapaths multiply: value = (-1)^neg * sig * 2^exp,
// plus the IEEE special class. One function per element format, used by every unit.
#pragma once
#include <cstdint>

namespace hifsim::dp {

struct Elem {
  enum Kind : uint8_t { num, nan, inf } kind = num;
  bool neg = false;
  uint32_t sig = 0;  // 0 for zero
  int exp = 0;
};

// E2M1 in units of 1/2: sig in {0,1,2,3,4,6,8,12}, exp = -1 (so sig*2^exp is the value).
Elem decode_e2m1(uint8_t code);
// E4M3 (fn): normal sig = 8+m (4 bits), exp = e-10; subnormal sig = m, exp = -9; 0x7F/0xFF NaN.
Elem decode_e4m3(uint8_t code);
// An IEEE-style binary format with E exponent and M mantissa bits (bias 2^(E-1) - 1, the
// all-ones exponent for Inf and NaN): normal sig = 2^M + m, exp = e - bias - M; subnormal
// sig = m, exp = 1 - bias - M. E5M2 and BF16 are this; E4M3 (fn) is not (no Inf, one NaN code).
template <int E, int M>
inline Elem decode_ieee(uint32_t code) {
  constexpr uint32_t kExpOnes = (1u << E) - 1;
  constexpr int kBiasPlusM = (1 << (E - 1)) - 1 + M;
  Elem e;
  e.neg = (code >> (E + M)) & 1;
  const uint32_t ex = (code >> M) & kExpOnes, m = code & ((1u << M) - 1);
  if (ex == kExpOnes) {
    e.kind = m ? Elem::nan : Elem::inf;
    return e;
  }
  e.sig = ex ? (1u << M) + m : m;
  e.exp = (ex ? static_cast<int>(ex) : 1) - kBiasPlusM;
  return e;
}
// E5M2: normal sig = 4+m (3 bits), exp = e-17; subnormal sig = m, exp = -16; Inf, NaN.
inline Elem decode_e5m2(uint8_t code) { return decode_ieee<5, 2>(code); }
// HiF8: sig = 1.mmm as 8..15 (mantissa padded to 3 bits), exp = E-3; denormal 2^(M-23) as
// sig 8, exp M-26; zero sig 0; 0x80 NaN; 0x6F/0xEF Inf.
Elem decode_hif8(uint8_t code);
// BF16: normal sig = 128+f (8 bits), exp = e-134; subnormal sig = f, exp = -133; Inf, NaN.
// (Inline: the BF16 unit decodes 128 elements per call.)
inline Elem decode_bf16(uint16_t b) { return decode_ieee<8, 7>(b); }

}  // namespace hifsim::dp
