#include "datapath/fp_add.hpp"

#include <cmath>

#include "formats/bits.hpp"

namespace hifsim::dp {

float fp_round(float x, int p, RoundMode mode) {
  const uint32_t b = fmt::f32_bits(x);
  if (fmt::f32_is_nan(b)) return fmt::f32_nan();
  if (fmt::f32_is_inf(b) || (b & 0x7FFFFFFFu) == 0) return x;
  return round_to_float(ExactValue::from_float(x), p, mode);
}

float fp_add(float a, float b, int p, RoundMode mode) {
  const uint32_t ab = fmt::f32_bits(a), bb = fmt::f32_bits(b);
  if (fmt::f32_is_nan(ab) || fmt::f32_is_nan(bb)) return fmt::f32_nan();
  const bool ainf = fmt::f32_is_inf(ab), binf = fmt::f32_is_inf(bb);
  if (ainf || binf) {
    if (ainf && binf && ((ab ^ bb) >> 31)) return fmt::f32_nan();  // Inf - Inf
    return ainf ? a : b;
  }
  const bool az = (ab & 0x7FFFFFFFu) == 0, bz = (bb & 0x7FFFFFFFu) == 0;
  if (az && bz) return ((ab & bb) >> 31) ? -0.0f : 0.0f;
  if (az) return fp_round(b, p, mode);
  if (bz) return fp_round(a, p, mode);
  ExactValue x = ExactValue::from_float(a), y = ExactValue::from_float(b);
  if (x.exp < y.exp) std::swap(x, y);  // x has the higher LSB weight
  const int d = x.exp - y.exp;
  ExactValue r;
  if (d <= 100) {
    // Exact: both significands fit 24 bits, so the aligned sum fits 126 bits.
    const i128 xv = static_cast<i128>(x.mag << d) * (x.neg ? -1 : 1);
    const i128 yv = static_cast<i128>(y.mag) * (y.neg ? -1 : 1);
    r = ExactValue::from_int(xv + yv, y.exp);
  } else {
    // y is far below x's last bit: it only acts as a signed sticky bit (x != 0 here).
    const bool same = x.neg == y.neg;
    u128 m = x.mag << 3;
    if (same) {
      m |= 1;  // x + eps
    } else {
      m = ((m - 1) << 1) | 1;  // x - eps = (x*8 - 1) + (1 - eps)
    }
    r.neg = x.neg;
    r.mag = m;
    r.exp = x.exp - (same ? 3 : 4);
  }
  return round_to_float(r, p, mode);
}

}  // namespace hifsim::dp
