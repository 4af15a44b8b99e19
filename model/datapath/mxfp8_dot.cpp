#include "datapath/mxfp8_dot.hpp"

#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "formats/scales.hpp"

namespace hifsim::dp {

DotResult Mxfp8Dot32::compute(const fmt::MiniFloatSpec& elem, const uint8_t* ca, uint8_t sa, const uint8_t* cb,
                              uint8_t sb, Mxfp8DotStages* st) {
  Mxfp8DotStages local;
  Mxfp8DotStages& s = st ? *st : local;
  const bool e4 = elem.mbits == 3;
  SpecialTracker sp;
  s.nan = sa == fmt::kE8M0NaN || sb == fmt::kE8M0NaN;
  // Products; the lowest possible product exponent is the sum's LSB weight.
  const int min_exp = e4 ? Mxfp8DotBounds::e4m3_min_exp : Mxfp8DotBounds::e5m2_min_exp;
  s.min_exp = static_cast<int16_t>(min_exp);
  i128 total = 0;
  for (int k = 0; k < 32; ++k) {
    const Elem x = e4 ? decode_e4m3(ca[k]) : decode_e5m2(ca[k]);
    const Elem y = e4 ? decode_e4m3(cb[k]) : decode_e5m2(cb[k]);
    s.prod_neg[k] = x.neg != y.neg;
    if (x.kind == Elem::nan || y.kind == Elem::nan) {
      sp.nan = true;
    } else if (x.kind == Elem::inf || y.kind == Elem::inf) {
      const bool zero = (x.kind == Elem::num && x.sig == 0) || (y.kind == Elem::num && y.sig == 0);
      if (zero) sp.nan = true;
      else (s.prod_neg[k] ? sp.ninf : sp.pinf) = true;
    }
    const bool num = x.kind == Elem::num && y.kind == Elem::num;
    s.prod_sig[k] = static_cast<uint16_t>(num ? x.sig * y.sig : 0);
    s.prod_exp[k] = static_cast<int16_t>(num ? x.exp + y.exp : 0);
    if (num && s.prod_sig[k]) {
      const i128 v = static_cast<i128>(s.prod_sig[k]) << (s.prod_exp[k] - min_exp);
      total += s.prod_neg[k] ? -v : v;
    }
  }
  s.sum_hi = static_cast<int64_t>(total >> 64);
  s.sum_lo = static_cast<int64_t>(static_cast<uint64_t>(total));
  s.scale_exp = static_cast<int16_t>((sa - 127) + (sb - 127));
  s.prod_nan = sp.nan;
  s.pinf = sp.pinf;
  s.ninf = sp.ninf;
  DotResult r;
  if (s.nan || sp.nan || (sp.pinf && sp.ninf)) r.exact = ExactValue::make_nan();
  else if (sp.any()) r.exact = sp.result();
  else r.exact = ExactValue::from_int(total, min_exp + s.scale_exp);
  s.nan = r.exact.kind == ExactValue::nan;
  r.value = round_to_float(r.exact);
  s.out_bits = fmt::f32_bits(r.value);
  return r;
}

}  // namespace hifsim::dp
