// Bit-level helpers shared by every codec: float <-> bits, exact (significand, exponent)
// decomposition, BF16 conversion, and the integer rounding primitive all encoders use.
#pragma once
#include <cstdint>
#include <cstring>

#include "formats/rounding.hpp"

namespace hifsim::fmt {

// C++20's std::bit_cast for C++17: the bits of `from` as a `To` of the same size.
template <class To, class From>
inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of one size");
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}
inline uint32_t f32_bits(float f) { return bit_cast<uint32_t>(f); }
inline float bits_f32(uint32_t u) { return bit_cast<float>(u); }
inline uint64_t f64_bits(double f) { return bit_cast<uint64_t>(f); }
inline double bits_f64(uint64_t u) { return bit_cast<double>(u); }

constexpr uint32_t kF32QuietNaN = 0x7FC00000u;  // the project's canonical FP32 NaN
inline float f32_nan() { return bits_f32(kF32QuietNaN); }

inline bool f32_is_nan(uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }
inline bool f32_is_inf(uint32_t b) { return (b & 0x7FFFFFFFu) == 0x7F800000u; }

// Exactly representable power of two 2^e as a float for e in [-149, 127].
inline float pow2f(int e) {
  if (e >= -126) return bits_f32(static_cast<uint32_t>(e + 127) << 23);
  return bits_f32(1u << (e + 149));
}

// |x| of a finite nonzero FP32 as sig * 2^exp with sig a 24-bit integer (bit 23 set for
// normals; subnormals are normalised so bit 23 is set too). Returns false for zero.
struct SigExp {
  uint32_t sig;  // in [2^23, 2^24)
  int exp;       // value = sig * 2^exp
};
inline bool f32_sigexp(uint32_t bits, SigExp& out) {
  uint32_t e = (bits >> 23) & 0xFF, m = bits & 0x7FFFFF;
  if (e == 0) {
    if (m == 0) return false;
    int shift = __builtin_clz(m) - 8;  // bring the leading 1 to bit 23
    out.sig = m << shift;
    out.exp = -149 - shift;
    return true;
  }
  out.sig = m | 0x800000u;
  out.exp = static_cast<int>(e) - 150;
  return true;
}
// floor(log2 |x|) of a finite nonzero FP32, from the bit fields (never from a float log2).
inline int f32_floor_log2(uint32_t bits) {
  SigExp se{};
  f32_sigexp(bits, se);
  return se.exp + 23;
}

// The stochastic-rounding decision (docs/training.md): F is the discarded part as a left-aligned
// 64-bit fraction (truncated), w the element's random word (formats/stochastic.hpp sr_word).
// Round up iff F + w carries out of 64 bits. Every codec's stochastic path goes through here.
inline bool sr_round_up(uint64_t frac64, uint64_t w) { return frac64 + w < frac64; }

// Rounds the non-negative integer `v` right by `s` bits (s >= 0) with `mode`.
// For Rounding::stochastic the caller passes `rbits`, the element's random word left-aligned in
// 64 bits (formats/stochastic.hpp sr_word: r << (64 - B)): the result rounds up iff F + rbits
// carries out of 64 bits, F = the discarded bits as a left-aligned 64-bit fraction (bits beyond
// 64 dropped). With B random bits that is T + r >= 2^B, T = the top B discarded bits
// (docs/training.md, "Stochastic rounding").
// nearest_away: ties away from zero; nearest_even: ties to even; toward_zero: truncate.
inline uint64_t round_shift_right(uint64_t v, int s, Rounding mode, uint64_t rbits = 0) {
  if (s <= 0) return v << (-s);
  if (s >= 64) {
    // Everything is discarded; only a round-up can give 1.
    if (mode == Rounding::stochastic) {
      // Everything discarded: F = v >> (s - 64) (v < 2^64, so s >= 128 leaves F = 0).
      const uint64_t frac = s - 64 >= 64 ? 0 : v >> (s - 64);
      return sr_round_up(frac, rbits) ? 1 : 0;
    }
    if (s > 64) return 0;  // v < 2^64 = 2^s / 2^(s-64) <= half: below the midpoint
    uint64_t half64 = uint64_t{1} << 63;
    if (mode == Rounding::nearest_away || mode == Rounding::hybrid) return v >= half64 ? 1 : 0;
    if (mode == Rounding::nearest_even) return v > half64 ? 1 : 0;
    return 0;
  }
  uint64_t q = v >> s;
  uint64_t rem = v & ((uint64_t{1} << s) - 1);
  uint64_t half = uint64_t{1} << (s - 1);
  switch (mode) {
    case Rounding::nearest_even:
      if (rem > half || (rem == half && (q & 1))) ++q;
      break;
    case Rounding::nearest_away:
      if (rem >= half) ++q;
      break;
    case Rounding::toward_zero:
      break;
    case Rounding::stochastic: {
      const uint64_t frac = rem << (64 - s);  // left-aligned discarded fraction (0 < s < 64)
      if (sr_round_up(frac, rbits)) ++q;
      break;
    }
    case Rounding::hybrid:  // hybrid is resolved by the HiF8 codec before reaching here
      if (rem >= half) ++q;
      break;
  }
  return q;
}

// ---- BF16 ----
// RNE from FP32; overflow gives Inf; subnormals kept. NaN becomes the canonical quiet NaN with
// the input's sign (0x7FC0 / 0xFFC0): the payload is dropped, as ml-dtypes does (docs/formats.md).
inline uint16_t bf16_from_f32_rne(uint32_t b) {
  if (f32_is_nan(b)) return static_cast<uint16_t>(((b >> 16) & 0x8000u) | 0x7FC0u);
  return static_cast<uint16_t>((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
}
inline uint16_t bf16_from_f32_rz(uint32_t b) {
  if (f32_is_nan(b)) return static_cast<uint16_t>(((b >> 16) & 0x8000u) | 0x7FC0u);
  return static_cast<uint16_t>(b >> 16);
}
// Stochastic (docs/training.md): round up iff (low 16 bits << 48) + rbits carries out of 64
// bits; a carry past the largest finite value gives Inf. Inf stays Inf (its low bits are 0).
inline uint16_t bf16_from_f32_sr(uint32_t b, uint64_t rbits) {
  if (f32_is_nan(b)) return static_cast<uint16_t>(((b >> 16) & 0x8000u) | 0x7FC0u);
  const uint64_t frac = static_cast<uint64_t>(b & 0xFFFFu) << 48;
  return static_cast<uint16_t>((b >> 16) + (sr_round_up(frac, rbits) ? 1u : 0u));
}
inline uint16_t bf16_from_float(float f) { return bf16_from_f32_rne(f32_bits(f)); }
inline float bf16_to_float(uint16_t h) { return bits_f32(static_cast<uint32_t>(h) << 16); }
inline float bf16_round(float f) { return bf16_to_float(bf16_from_float(f)); }

}  // namespace hifsim::fmt
