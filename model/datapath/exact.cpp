#include "datapath/exact.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "formats/bits.hpp"

namespace hifsim::dp {
namespace {
int bitlen(u128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64), lo = static_cast<uint64_t>(v);
  if (hi) return 128 - __builtin_clzll(hi);
  if (lo) return 64 - __builtin_clzll(lo);
  return 0;
}
}  // namespace

ExactValue ExactValue::from_float(float f) {
  const uint32_t b = fmt::f32_bits(f);
  if (fmt::f32_is_nan(b)) return make_nan();
  if (fmt::f32_is_inf(b)) return make_inf(b >> 31);
  ExactValue e;
  e.neg = b >> 31;
  fmt::SigExp se{};
  if (fmt::f32_sigexp(b & 0x7FFFFFFFu, se)) {
    e.mag = se.sig;
    e.exp = se.exp;
  }
  return e;
}

double ExactValue::to_double() const {
  if (kind == nan) return std::nan("");
  if (kind == inf) return neg ? -HUGE_VAL : HUGE_VAL;
  const double m = static_cast<double>(mag);
  return std::ldexp(neg ? -m : m, exp);
}

std::string ExactValue::str() const {
  if (kind == nan) return "nan";
  if (kind == inf) return neg ? "-inf" : "inf";
  char buf[80];
  std::snprintf(buf, sizeof buf, "%s0x%llx%016llxp%+d", neg ? "-" : "", static_cast<unsigned long long>(mag >> 64),
                static_cast<unsigned long long>(mag), exp);
  return buf;
}

u128 round_shift_right_u128(u128 v, int s, RoundMode mode, bool sticky_below) {
  if (s <= 0) return v << (-s);  // callers keep the result within 128 bits
  u128 q, rem, half;
  if (s >= 128) {
    q = 0;
    if (mode == RoundMode::rz) return 0;
    // Above the midpoint only if s == 128 and v > 2^127 (or == with sticky).
    if (s > 128) return 0;
    const u128 h = static_cast<u128>(1) << 127;
    return (v > h || (v == h && sticky_below)) ? 1 : 0;
  }
  q = v >> s;
  rem = v & ((static_cast<u128>(1) << s) - 1);
  half = static_cast<u128>(1) << (s - 1);
  if (mode == RoundMode::rne) {
    if (rem > half || (rem == half && (sticky_below || (q & 1)))) ++q;
  }
  return q;
}

float max_float(int p) {
  return static_cast<float>(std::ldexp(static_cast<double>((uint64_t{1} << p) - 1), 128 - p));
}

float round_to_float(const ExactValue& v, int p, RoundMode mode, bool keep_zero_sign) {
  if (v.kind == ExactValue::nan) return fmt::f32_nan();
  if (v.kind == ExactValue::inf) return v.neg ? -HUGE_VALF : HUGE_VALF;
  if (v.mag == 0) return (keep_zero_sign && v.neg) ? -0.0f : 0.0f;
  const int n = bitlen(v.mag);
  const int e = v.exp + n - 1;                  // exponent of the leading bit
  const int emin = -126;
  const int q = (e < emin ? emin : e) - (p - 1);  // weight of the last kept bit
  u128 sig = round_shift_right_u128(v.mag, q - v.exp, mode);
  // Overflow: the rounded value sig * 2^q reaches 2^128.
  const int top = sig == 0 ? 0 : q + bitlen(sig) - 1;
  float r;
  if (top >= 128) {
    r = mode == RoundMode::rne ? HUGE_VALF : max_float(p);
  } else if (sig == 0) {
    r = 0.0f;
  } else {
    r = static_cast<float>(std::ldexp(static_cast<double>(sig), q));  // exact: sig < 2^(p+1)
  }
  return v.neg ? -r : r;
}

void ExactSum::clear() {
  std::memset(w_, 0, sizeof w_);
  nan_ = pinf_ = ninf_ = false;
}

void ExactSum::add_mag(u128 mag, int exp, bool negate) {
  // Place mag at bit position exp - kLsbExp, spread over up to three words.
  const int pos = exp - kLsbExp;
  uint64_t part[kWords] = {};
  const int word = pos / 64, bit = pos % 64;
  const uint64_t lo = static_cast<uint64_t>(mag), hi = static_cast<uint64_t>(mag >> 64);
  auto put = [&](int i, uint64_t x) {
    if (i >= 0 && i < kWords) part[i] |= x;
  };
  put(word, lo << bit);
  put(word + 1, bit ? (lo >> (64 - bit)) | (hi << bit) : hi);
  if (bit) put(word + 2, hi >> (64 - bit));
  if (negate) {
    // w -= part (borrow propagation)
    unsigned __int128 borrow = 0;
    for (int i = 0; i < kWords; ++i) {
      const u128 d = static_cast<u128>(w_[i]) - part[i] - borrow;
      w_[i] = static_cast<uint64_t>(d);
      borrow = (d >> 64) ? 1 : 0;
    }
  } else {
    u128 carry = 0;
    for (int i = 0; i < kWords; ++i) {
      const u128 s = static_cast<u128>(w_[i]) + part[i] + carry;
      w_[i] = static_cast<uint64_t>(s);
      carry = s >> 64;
    }
  }
}

void ExactSum::add(const ExactValue& v) {
  if (v.kind == ExactValue::nan) {
    nan_ = true;
    return;
  }
  if (v.kind == ExactValue::inf) {
    (v.neg ? ninf_ : pinf_) = true;
    return;
  }
  if (v.mag == 0) return;
  // Normalise so the value's lowest set bit is not below the register's LSB.
  u128 mag = v.mag;
  int exp = v.exp;
  while (exp < kLsbExp && (mag & 1) == 0) {
    mag >>= 1;
    ++exp;
  }
  if (exp < kLsbExp) exp = kLsbExp;  // unreachable for hifsim's formats (see the class comment)
  add_mag(mag, exp, v.neg);
}

ExactValue ExactSum::value() const {
  if (nan_ || (pinf_ && ninf_)) return ExactValue::make_nan();
  if (pinf_ || ninf_) return ExactValue::make_inf(ninf_);
  uint64_t m[kWords];
  std::memcpy(m, w_, sizeof m);
  const bool neg = m[kWords - 1] >> 63;
  if (neg) {  // magnitude = -w
    u128 carry = 1;
    for (int i = 0; i < kWords; ++i) {
      const u128 s = static_cast<u128>(~m[i]) + carry;
      m[i] = static_cast<uint64_t>(s);
      carry = s >> 64;
    }
  }
  int top = -1;
  for (int i = kWords - 1; i >= 0; --i)
    if (m[i]) {
      top = i * 64 + 63 - __builtin_clzll(m[i]);
      break;
    }
  ExactValue r;
  r.neg = neg;
  if (top < 0) {
    r.neg = false;
    return r;
  }
  // Take the top 126 bits; jam everything below into the LSB (exact enough for any rounding
  // to fewer than 125 bits).
  const int lo_bit = top - 125 < 0 ? 0 : top - 125;
  u128 mag = 0;
  for (int b = top; b >= lo_bit; --b) mag = (mag << 1) | ((m[b / 64] >> (b % 64)) & 1);
  bool sticky = false;
  for (int b = 0; b < lo_bit && !sticky; ++b) sticky = (m[b / 64] >> (b % 64)) & 1;
  if (sticky) {
    mag = (mag << 1) | 1;
    r.exp = lo_bit - 1 + kLsbExp;
  } else {
    r.exp = lo_bit + kLsbExp;
  }
  r.mag = mag;
  return r;
}

}  // namespace hifsim::dp
