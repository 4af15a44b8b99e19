// Test-side exact arithmetic, deliberately simple and independent of model/datapath:
// dyadic rationals n * 2^e with Boost.Multiprecision cpp_int, and an RNE rounding to FP32
// (or to p significant bits) written out bit by bit.
#pragma once
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ref {

using boost::multiprecision::cpp_int;

struct Dy {  // n * 2^e
  cpp_int n = 0;
  int e = 0;
};

inline Dy from_float(float f) {  // finite only
  Dy d;
  if (f == 0.0f) return d;
  int ex;
  const double fr = std::frexp(static_cast<double>(f), &ex);  // f = fr * 2^ex, |fr| in [0.5, 1)
  const long long m = static_cast<long long>(std::ldexp(fr, 53));
  d.n = m;
  d.e = ex - 53;
  return d;
}

inline Dy add(const Dy& a, const Dy& b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  Dy r;
  r.e = std::min(a.e, b.e);
  r.n = (a.n << (a.e - r.e)) + (b.n << (b.e - r.e));
  return r;
}

inline Dy mul(const Dy& a, const Dy& b) {
  Dy r;
  r.n = a.n * b.n;
  r.e = a.e + b.e;
  return r;
}

inline Dy shift(const Dy& a, int k) {
  Dy r = a;
  r.e += k;
  return r;
}

// Round to nearest even with `p` significant bits, FP32 exponent range (subnormal quantum
// 2^(-126-(p-1))), overflow to Inf. Zero -> +0. `rz` selects truncation (overflow -> max).
inline float round_p(const Dy& v, int p = 24, bool rz = false) {
  if (v.n == 0) return 0.0f;
  const bool neg = v.n < 0;
  cpp_int m = neg ? cpp_int(-v.n) : v.n;
  const int nb = static_cast<int>(boost::multiprecision::msb(m)) + 1;
  const int lead = v.e + nb - 1;
  const int q = std::max(lead, -126) - (p - 1);
  cpp_int kept;
  if (q <= v.e) {
    kept = m << (v.e - q);
  } else {
    const int s = q - v.e;
    kept = m >> s;
    const cpp_int rem = m - (kept << s);
    const cpp_int half = cpp_int(1) << (s - 1);
    if (!rz && (rem > half || (rem == half && (kept & 1) != 0))) kept += 1;
  }
  double mag;
  if (kept == 0) {
    mag = 0.0;
  } else {
    const int kb = static_cast<int>(boost::multiprecision::msb(kept));
    if (q + kb >= 128) {
      if (rz) mag = std::ldexp(std::ldexp(1.0, p) - 1.0, 128 - p);
      else mag = HUGE_VAL;
    } else {
      mag = std::ldexp(static_cast<double>(kept.convert_to<unsigned long long>()), q);
    }
  }
  return static_cast<float>(neg ? -mag : mag);
}

// True when the float equals the exact value (no rounding happened).
inline bool exact_is(const Dy& v, float f) {
  if (!std::isfinite(f)) return false;
  Dy neg = from_float(f);
  neg.n = -neg.n;
  return add(v, neg).n == 0;
}

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace ref
