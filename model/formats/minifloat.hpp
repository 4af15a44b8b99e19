// IEEE-like minifloats with sign, E exponent bits, M mantissa bits, subnormals:
// FP4 E2M1 (OCP MX), FP8 E4M3 "fn" and E5M2 (OCP OFP8). One generic codec, three specs.
//
// Encoding is exact: the input's significand and exponent are taken from its bit fields
// and rounded once with integer arithmetic (formats/bits.hpp round_shift_right).
#pragma once
#include <cstdint>

#include "formats/bits.hpp"

namespace hifsim::fmt {

struct MiniFloatSpec {
  const char* name;
  int ebits, mbits, bias;
  uint8_t max_finite;  // largest finite magnitude code (sign bit clear)
  bool has_inf;        // E5M2: exponent all ones, mantissa 0
  bool has_nan;
  uint8_t nan_code;    // canonical NaN magnitude code (sign taken from the input)
  int sign_bit() const { return ebits + mbits; }
  int emin() const { return 1 - bias; }
};

inline constexpr MiniFloatSpec kE2M1{"fp4-e2m1", 2, 1, 1, 0x7, false, false, 0};
inline constexpr MiniFloatSpec kE4M3{"fp8-e4m3", 4, 3, 7, 0x7E, false, true, 0x7F};
inline constexpr MiniFloatSpec kE5M2{"fp8-e5m2", 5, 2, 15, 0x7B, true, true, 0x7E};

// Value of a code as float (exact: every minifloat value is an FP32 value).
inline float minifloat_decode(const MiniFloatSpec& s, uint8_t code) {
  const int sb = s.sign_bit();
  const bool neg = (code >> sb) & 1;
  const uint32_t mag = code & ((1u << sb) - 1);
  const uint32_t sign = neg ? 0x80000000u : 0u;
  const uint32_t emax_field = (1u << s.ebits) - 1;
  const uint32_t e = mag >> s.mbits, m = mag & ((1u << s.mbits) - 1);
  if (s.has_inf && e == emax_field) {
    if (m == 0) return bits_f32(sign | 0x7F800000u);
    return bits_f32(sign | kF32QuietNaN);
  }
  if (s.has_nan && !s.has_inf && mag == s.nan_code) return bits_f32(sign | kF32QuietNaN);
  float v;
  if (e == 0) v = static_cast<float>(m) * pow2f(s.emin() - s.mbits);
  else v = static_cast<float>((1u << s.mbits) + m) * pow2f(static_cast<int>(e) - s.bias - s.mbits);
  return neg ? -v : v;
}

struct MiniFloatEncode {
  Rounding rounding = Rounding::nearest_even;
  bool saturate = false;  // finite overflow and Inf -> +-max finite (always on without Inf/NaN codes)
  uint64_t rbits = 0;     // random bits for Rounding::stochastic
};

// Encodes sig * 2^exp (sig > 0) with sign `neg`. Used by the block formats, which pass
// the element already divided by its power-of-two scale, without any intermediate rounding.
inline uint8_t minifloat_encode_sigexp(const MiniFloatSpec& s, bool neg, uint64_t sig, int exp,
                                       const MiniFloatEncode& o) {
  const int sb = s.sign_bit();
  const uint8_t sign = neg ? static_cast<uint8_t>(1u << sb) : 0;
  // Truncation never rounds a finite value up past the largest finite one (IEEE roundTowardZero),
  // so under toward_zero finite overflow gives +-max finite even in non-saturating mode.
  const bool sat = o.saturate || !(s.has_inf || s.has_nan) || o.rounding == Rounding::toward_zero;
  const uint8_t overflow_mag = sat ? s.max_finite : (s.has_inf ? static_cast<uint8_t>(s.max_finite + 1) : s.nan_code);
  int e = exp + 63 - __builtin_clzll(sig);  // floor(log2 value)
  const int emin = s.emin();
  const int emax = static_cast<int>((1u << s.ebits) - 1) - s.bias;  // exponent of the all-ones field
  if (e > emax + 1) return sign | overflow_mag;
  const int ee = e < emin ? emin : e;
  const int shift = (ee - s.mbits) - exp;  // quantum exponent minus the input's LSB exponent
  uint64_t n = round_shift_right(sig, shift, o.rounding, o.rbits);
  uint64_t mag = (static_cast<uint64_t>(ee - emin) << s.mbits) + n;
  if (n == 0) return sign;  // signed zero
  if (mag > s.max_finite) return sign | overflow_mag;
  return sign | static_cast<uint8_t>(mag);
}

inline uint8_t minifloat_encode(const MiniFloatSpec& s, float x, const MiniFloatEncode& o = {}) {
  const uint32_t b = f32_bits(x);
  const int sb = s.sign_bit();
  const bool neg = b >> 31;
  const uint8_t sign = neg ? static_cast<uint8_t>(1u << sb) : 0;
  if (f32_is_nan(b)) return s.has_nan ? static_cast<uint8_t>(sign | s.nan_code) : sign;  // E2M1: no NaN (callers reject it)
  const bool sat = o.saturate || !(s.has_inf || s.has_nan);
  if (f32_is_inf(b)) {
    if (sat) return sign | s.max_finite;
    return sign | (s.has_inf ? static_cast<uint8_t>(s.max_finite + 1) : s.nan_code);
  }
  SigExp se{};
  if (!f32_sigexp(b, se)) return sign;  // +-0
  return minifloat_encode_sigexp(s, neg, se.sig, se.exp, o);
}

}  // namespace hifsim::fmt
