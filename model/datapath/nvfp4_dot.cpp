#include "datapath/nvfp4_dot.hpp"

#include "datapath/element.hpp"
#include "formats/bits.hpp"

namespace hifsim::dp {

DotResult Nvfp4Dot64::compute(const uint8_t* ca, const uint8_t* sa, const uint8_t* cb, const uint8_t* sb,
                              Nvfp4DotStages* st) {
  Nvfp4DotStages local;
  Nvfp4DotStages& s = st ? *st : local;
  for (int k = 0; k < 64; ++k) {
    const Elem x = decode_e2m1(ca[k]), y = decode_e2m1(cb[k]);
    s.a_a[k] = static_cast<int8_t>(x.neg ? -static_cast<int>(x.sig) : static_cast<int>(x.sig));
    s.a_b[k] = static_cast<int8_t>(y.neg ? -static_cast<int>(y.sig) : static_cast<int>(y.sig));
    s.p[k] = static_cast<int16_t>(s.a_a[k] * s.a_b[k]);
  }
  s.nan = false;
  int64_t total = 0;
  for (int j = 0; j < 4; ++j) {
    int sum = 0;
    for (int k = 16 * j; k < 16 * j + 16; ++k) sum += s.p[k];
    s.sub[j] = static_cast<int16_t>(sum);
    const Elem x = decode_e4m3(sa[j]), y = decode_e4m3(sb[j]);
    s.nan |= x.kind == Elem::nan || y.kind == Elem::nan;
    s.ss[j] = static_cast<uint8_t>(x.sig * y.sig);
    s.tt[j] = static_cast<int8_t>(x.exp + y.exp);
    const int sign = (x.neg != y.neg) ? -1 : 1;  // scales are positive in practice; the sign is honoured
    s.partial[j] = sign * s.sub[j] * s.ss[j];
    s.aligned[j] = static_cast<int64_t>(s.partial[j]) * (int64_t{1} << (s.tt[j] - Nvfp4DotBounds::tt_min));
    total += s.aligned[j];
  }
  s.total = total;
  DotResult r;
  if (s.nan) {
    r.exact = ExactValue::make_nan();
  } else {
    r.exact = ExactValue::from_int(total, Nvfp4DotBounds::lsb_exp);  // weight: quarter units (2^-2) x 2^-18
  }
  r.value = round_to_float(r.exact);
  s.out_bits = fmt::f32_bits(r.value);
  return r;
}

}  // namespace hifsim::dp
