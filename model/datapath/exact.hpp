// Exact values and the one rounding routine every datapath unit uses to produce FP32.
//
// ExactValue is (-1)^neg * mag * 2^exp (or NaN / +-Inf): what a unit computes before its
// final rounding. round_to_float() rounds such a value once to a float with `precision`
// significant bits and the FP32 exponent range (subnormals kept, overflow -> Inf under RNE,
// -> the largest finite under RZ). ExactSum is a 768-bit fixed-point (Kulisch) register that
// adds any of our values without error.
#pragma once
#include <cstdint>
#include <string>

namespace hifsim::dp {

using u128 = unsigned __int128;
using i128 = __int128;

enum class RoundMode { rne, rz };

struct ExactValue {
  enum Kind : uint8_t { finite, nan, inf } kind = finite;
  bool neg = false;  // sign of a finite nonzero value or of an Inf
  u128 mag = 0;      // magnitude significand (0 = zero)
  int exp = 0;       // value = mag * 2^exp

  static ExactValue zero() { return {}; }
  static ExactValue make_nan() { return {nan, false, 0, 0}; }
  static ExactValue make_inf(bool negative) { return {inf, negative, 0, 0}; }
  static ExactValue from_int(i128 v, int exp) {
    ExactValue e;
    e.neg = v < 0;
    e.mag = v < 0 ? static_cast<u128>(-v) : static_cast<u128>(v);
    e.exp = exp;
    return e;
  }
  static ExactValue from_float(float f);  // exact; NaN/Inf kept
  bool is_zero() const { return kind == finite && mag == 0; }
  double to_double() const;                // for diagnostics (may round)
  std::string str() const;                 // "-0x1234p-20", "nan", "inf"
};

// Rounds the non-negative integer v right by s >= 0 bits (RNE or RZ). `sticky_below` says the
// exact value had further nonzero bits below v's LSB (they break ties / count as inexact).
u128 round_shift_right_u128(u128 v, int s, RoundMode mode, bool sticky_below = false);

// Rounds v once to a float with `precision` significant bits (24 = FP32) and FP32's exponent
// range. Zero gives +0.0 (every unit's convention for an exactly zero result) unless
// keep_zero_sign is set (then the sign of v is kept). NaN gives the canonical 0x7FC00000.
float round_to_float(const ExactValue& v, int precision = 24, RoundMode mode = RoundMode::rne,
                     bool keep_zero_sign = false);

// Largest finite float with `precision` significant bits: (2^p - 1) * 2^(128 - p).
float max_float(int precision);

// 768-bit two's-complement fixed-point register, LSB weight 2^kLsbExp. Holds every product and
// sum hifsim forms (the lowest weight any format reaches is 2^-286, MXFP8-E5M2 x E8M0^2).
class ExactSum {
 public:
  static constexpr int kWords = 12;
  static constexpr int kLsbExp = -320;
  void clear();
  void add(const ExactValue& v);       // NaN/Inf are tracked IEEE-style (Inf - Inf = NaN)
  ExactValue value() const;            // exact (the top 126 bits, lower ones jammed into a sticky LSB)
  float round(int precision = 24, RoundMode mode = RoundMode::rne) const { return round_to_float(value(), precision, mode); }
  bool is_nan() const { return nan_; }

 private:
  void add_mag(u128 mag, int exp, bool negate);
  uint64_t w_[kWords] = {};
  bool nan_ = false, pinf_ = false, ninf_ = false;
};

// IEEE-style combination of specials for a sum of terms: NaN if any NaN or both infinities.
struct SpecialTracker {
  bool nan = false, pinf = false, ninf = false;
  void add(const ExactValue& v) {
    if (v.kind == ExactValue::nan) nan = true;
    if (v.kind == ExactValue::inf) (v.neg ? ninf : pinf) = true;
  }
  bool any() const { return nan || pinf || ninf; }
  ExactValue result() const {
    if (nan || (pinf && ninf)) return ExactValue::make_nan();
    return ExactValue::make_inf(ninf);
  }
};

}  // namespace hifsim::dp
