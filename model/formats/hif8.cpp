#include "formats/hif8.hpp"

#include <array>

namespace hifsim::fmt {
namespace {

// Code of the positive normal value 2^e * (1 + m / 2^mw), |e| <= 15, mw = hif8_mantissa_bits(e).
uint8_t normal_code(int e, uint32_t m) {
  const int a = e < 0 ? -e : e;
  const uint32_t es = e < 0 ? 1u : 0u;
  if (a == 0) return static_cast<uint8_t>(0x08u | m);                                  // 0 0001 MMM
  if (a == 1) return static_cast<uint8_t>(0x10u | (es << 3) | m);                      // 0 001 S MMM
  if (a <= 3) return static_cast<uint8_t>(0x20u | (es << 4) | ((a - 2u) << 3) | m);    // 0 01 S T MMM
  if (a <= 7) return static_cast<uint8_t>(0x40u | (es << 4) | ((a - 4u) << 2) | m);    // 0 10 S TT MM
  return static_cast<uint8_t>(0x60u | (es << 4) | ((a - 8u) << 1) | m);                // 0 11 S TTT M
}

float decode_rule(uint8_t code) {
  if (code == 0x00) return 0.0f;
  if (code == kHif8NaN) return f32_nan();
  const bool neg = code & 0x80;
  const uint32_t c = code & 0x7F;
  float v;
  if (c < 0x08) {  // denormal: 2^(M-23)
    v = pow2f(static_cast<int>(c) - 23);
  } else {
    int d, mw;
    uint32_t rest;
    if (c >= 0x60) { d = 4; mw = 1; rest = c & 0x1F; }
    else if (c >= 0x40) { d = 3; mw = 2; rest = c & 0x1F; }
    else if (c >= 0x20) { d = 2; mw = 3; rest = c & 0x1F; }
    else if (c >= 0x10) { d = 1; mw = 3; rest = c & 0x0F; }
    else { d = 0; mw = 3; rest = c & 0x07; }
    const uint32_t m = rest & ((1u << mw) - 1);
    int e = 0;
    if (d > 0) {
      const uint32_t em = rest >> mw;                 // D bits: sign then D-1 tail bits
      const uint32_t esign = em >> (d - 1);
      const uint32_t tail = em & ((1u << (d - 1)) - 1);
      const int mag = (1 << (d - 1)) + static_cast<int>(tail);
      e = esign ? -mag : mag;
    }
    if (d == 4 && e == 15 && m == 1) return neg ? -__builtin_inff() : __builtin_inff();
    v = static_cast<float>((1u << mw) + m) * pow2f(e - mw);
  }
  return neg ? -v : v;
}

std::array<float, 256> build_table() {
  std::array<float, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = decode_rule(static_cast<uint8_t>(c));
  return t;
}

const std::array<float, 256>& table() {
  static const std::array<float, 256> t = build_table();
  return t;
}

}  // namespace

const float* hif8_decode_table() { return table().data(); }
float hif8_decode(uint8_t code) { return table()[code]; }

uint8_t hif8_encode(float x, const Hif8Encode& o) {
  const uint32_t b = f32_bits(x);
  const uint8_t sign = (b >> 31) ? 0x80 : 0x00;
  const uint8_t inf_result = static_cast<uint8_t>(sign | (o.saturate ? kHif8MaxFinite : kHif8PosInf));
  if (f32_is_nan(b)) return kHif8NaN;
  if (f32_is_inf(b)) return inf_result;
  // Finite overflow: +-Inf (or +-max finite when saturating). Truncation never reaches the Inf
  // slot from a finite value (IEEE roundTowardZero), so under toward_zero it gives +-max finite.
  const uint8_t overflow = o.rounding == Rounding::toward_zero ? static_cast<uint8_t>(sign | kHif8MaxFinite) : inf_result;
  const uint32_t a = b & 0x7FFFFFFFu;
  if (a == 0) return 0x00;
  // Overflow threshold: the Inf slot acts as 1.5 * 2^15 during rounding, so everything from the
  // midpoint 40960 upward rounds to it (TA). Hybrid and stochastic rounding use the same slot.
  SigExp se{};
  f32_sigexp(a, se);
  const int e = se.exp + 23;  // floor(log2 |x|)
  if (e >= 16) return overflow;
  const uint32_t frac = a & 0x7FFFFF;  // FP32 fraction (the subnormal inputs are far below 2^-23)

  // Quantum exponent q: the weight of the last kept bit. Values below 2^-22 (the smallest
  // denormal) are rounded on the 2^-22 grid, where zero and 2^-22 are the two candidates.
  int mw = (e <= -16) ? 0 : hif8_mantissa_bits(e);
  int q = (e < -22) ? -22 : e - mw;
  const int shift = q - se.exp;  // > 0 always

  Rounding mode = o.rounding;
  uint64_t rbits = o.rbits;
  uint64_t n;
  // Hybrid rounding applies its simplified stochastic rule only below the overflow threshold
  // (hif8.md 6): |x| >= 40960 overflows exactly as under TA.
  if (mode == Rounding::hybrid && a >= 0x47200000u) return overflow;
  if (mode == Rounding::hybrid && (e >= 4 || e <= -4)) {
    // Simplified stochastic rounding of the easyasc/CANN model: F14 = the top 14 discarded bits,
    // T14 = the threshold; round up iff F14 >= T14 (or > with hybrid_strict).
    if (e < -23) return 0x00;
    uint64_t kept = static_cast<uint64_t>(se.sig) >> shift;
    uint32_t f14;
    if (e == -23) {
      f14 = (1u << 13) + (frac >> 10);  // kept value 0; the leading 1 is the top discarded bit
    } else {
      const int d = 23 - mw;  // discarded fraction bits, >= 20
      f14 = (frac >> (d - 14)) & 0x3FFF;
    }
    const uint32_t t14 = o.hybrid_threshold_from_input ? (frac & 0x3FFF) : (o.hybrid_t14 & 0x3FFF);
    const bool up = o.hybrid_strict ? (f14 > t14) : (f14 >= t14);
    n = kept + (up ? 1 : 0);
  } else {
    if (mode == Rounding::hybrid) mode = Rounding::nearest_away;  // |e| < 4: TA
    if (mode == Rounding::nearest_away && e < -23) return 0x00;   // below 2^-23: under the midpoint
    n = round_shift_right(se.sig, shift, mode, rbits);
  }
  if (n == 0) return 0x00;  // zero results are always 0x00 (no -0)

  // Normalise: n * 2^q. A carry makes n a power of two one binade up, always representable.
  const int top = 63 - __builtin_clzll(n);
  const int e2 = q + top;
  if (e2 >= 16) return overflow;
  if (e2 <= -16) return static_cast<uint8_t>(sign | static_cast<uint8_t>(23 + e2));  // denormal 2^e2
  const int mw2 = hif8_mantissa_bits(e2);
  // Mantissa field: (value / 2^(e2 - mw2)) - 2^mw2, exact because either no carry (top == mw) or
  // the carried value is a power of two (mantissa 0).
  const int sh = (e2 - mw2) - q;
  const uint64_t scaled = sh >= 0 ? (n >> sh) : (n << (-sh));
  const uint32_t m = static_cast<uint32_t>(scaled - (uint64_t{1} << mw2));
  if (e2 == 15 && m == 1) return overflow;  // the Inf slot
  return static_cast<uint8_t>(sign | normal_code(e2, m));
}

}  // namespace hifsim::fmt
