// Block-scale formats: E6M2 (HiF4 level-1 scale) and E8M0 (OCP MX shared scale).
// Both are unsigned, have no zero and no Inf, and use 0xFF as NaN.
#pragma once
#include <cstdint>

#include "formats/bits.hpp"

namespace hifsim::fmt {

// ---- E6M2: value 2^(E-48) * (1 + M/4), E = bits[7:2], M = bits[1:0]; 0xFF = NaN. ----
constexpr uint8_t kE6M2NaN = 0xFF;
constexpr uint8_t kE6M2Max = 0xFE;  // 49152
inline float e6m2_decode(uint8_t c) {
  if (c == kE6M2NaN) return f32_nan();
  return static_cast<float>(4 + (c & 3)) * pow2f(static_cast<int>(c >> 2) - 50);
}
// Significand (4 + M, in 4..7) and exponent (E - 50) of a non-NaN code: value = sig * 2^exp.
inline int e6m2_sig(uint8_t c) { return 4 + (c & 3); }
inline int e6m2_exp(uint8_t c) { return static_cast<int>(c >> 2) - 50; }

// General float -> E6M2 (project convention, docs/formats.md): round the 2-bit mantissa to
// nearest, ties to even, then clamp to [2^-48, 49152] (so every value >= 49152, including
// those that would round to the NaN pattern 1.75 * 2^15, gives 0xFE). NaN -> 0xFF; +Inf -> 0xFE;
// zero and negative inputs -> 0x00 (the scale of an all-zero block). The HiF4 quantizer uses
// e6m2_from_bf16, which is this rule applied to a BF16 already clamped to the range.
inline uint8_t e6m2_encode(float x) {
  const uint32_t b = f32_bits(x);
  if (f32_is_nan(b)) return kE6M2NaN;
  if ((b >> 31) || (b & 0x7FFFFFFFu) == 0) return 0x00;
  if (f32_is_inf(b)) return kE6M2Max;
  SigExp se{};
  f32_sigexp(b, se);
  int e = se.exp + 23;
  if (e < -48) return 0x00;
  if (e > 15) return kE6M2Max;
  uint64_t n = round_shift_right(se.sig, 21, Rounding::nearest_even);  // 4..8
  if (n == 8) {
    n = 4;
    ++e;
  }
  if (e > 15) return kE6M2Max;
  const int code = ((e + 48) << 2) | static_cast<int>(n - 4);
  // E = 63, M = 3 is the NaN code: values rounding to 1.75 * 2^15 = 57344 clamp to 0xFE.
  return code >= kE6M2NaN ? kE6M2Max : static_cast<uint8_t>(code);
}

// ---- E8M0: value 2^(b-127), b = 0..254; 0xFF = NaN. ----
constexpr uint8_t kE8M0NaN = 0xFF;
inline float e8m0_decode(uint8_t c) {
  if (c == kE8M0NaN) return f32_nan();
  return pow2f(static_cast<int>(c) - 127);
}
// General float -> E8M0 (the same rule as ml-dtypes float8_e8m0fnu, docs/formats.md):
// nearest power of two with ties (1.5 * 2^e) rounding up, values below 2^-127 -> 2^-127,
// >= 1.5 * 2^127 -> NaN; zero, negative, NaN and Inf -> NaN (E8M0 has no zero and no sign).
// The MX quantizer does not use this: it derives the scale from the block amax (mx.hpp).
inline uint8_t e8m0_encode(float x) {
  const uint32_t b = f32_bits(x);
  if (f32_is_nan(b) || f32_is_inf(b) || (b >> 31) || b == 0) return kE8M0NaN;
  SigExp se{};
  f32_sigexp(b, se);
  int e = se.exp + 23;
  if (se.sig >= 0xC00000u) ++e;  // significand >= 1.5: round up
  if (e < -127) return 0x00;
  if (e > 127) return kE8M0NaN;
  return static_cast<uint8_t>(e + 127);
}

}  // namespace hifsim::fmt
