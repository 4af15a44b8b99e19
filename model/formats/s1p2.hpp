// S1P2: the HiF4 element. Sign-magnitude fixed point, 1 sign bit, 1 integer bit, 2 fraction
// bits: value (-1)^s * m/4, m = bits[2:0] in 0..7. All 16 codes are numbers; 0x8 is -0.
#pragma once
#include <cstdint>

#include "formats/bits.hpp"

namespace hifsim::fmt {

inline float s1p2_decode(uint8_t c) {
  float v = static_cast<float>(c & 7) * 0.25f;
  return (c & 8) ? -v : v;
}

// float -> S1P2 on its own (no scale): magnitude rounded to a multiple of 1/4 with
// `rounding` (nearest_away by default, as in the HiF4 reference quantizer), saturated at 1.75.
// Sign convention of the reference quantizer: s = (x < 0), so a negative input that rounds to
// 0 gives 0x8 while -0.0 gives 0x0. NaN -> 0x0 (callers reject NaN before encoding).
inline uint8_t s1p2_encode(float x, Rounding rounding = Rounding::nearest_away) {
  const uint32_t b = f32_bits(x);
  if (f32_is_nan(b)) return 0;
  const uint8_t sign = (x < 0.0f) ? 8 : 0;
  if (f32_is_inf(b)) return sign | 7;
  SigExp se{};
  if (!f32_sigexp(b, se)) return sign;
  // 4|x| = sig * 2^(exp+2); keep the integer part.
  const int shift = -(se.exp + 2);
  uint64_t m = shift < 0 ? 8 : round_shift_right(se.sig, shift, rounding);  // shift < 0: 4|x| >= 2^24
  if (m > 7) m = 7;
  return static_cast<uint8_t>(sign | m);
}

}  // namespace hifsim::fmt
