#include "datapath/mxfp4_dot.hpp"

#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "formats/scales.hpp"

namespace hifsim::dp {

DotResult Mxfp4Dot64::compute(const uint8_t* ca, const uint8_t* sa, const uint8_t* cb, const uint8_t* sb,
                              Mxfp4DotStages* st) {
  Mxfp4DotStages local;
  Mxfp4DotStages& s = st ? *st : local;
  s.nan = false;
  ExactSum sum;
  for (int b = 0; b < 2; ++b) {
    int acc = 0;
    for (int k = 32 * b; k < 32 * b + 32; ++k) {
      const Elem x = decode_e2m1(ca[k]), y = decode_e2m1(cb[k]);
      s.a_a[k] = static_cast<int8_t>(x.neg ? -static_cast<int>(x.sig) : static_cast<int>(x.sig));
      s.a_b[k] = static_cast<int8_t>(y.neg ? -static_cast<int>(y.sig) : static_cast<int>(y.sig));
      s.p[k] = static_cast<int16_t>(s.a_a[k] * s.a_b[k]);
      acc += s.p[k];
    }
    s.block_sum[b] = static_cast<int16_t>(acc);
    s.nan |= sa[b] == fmt::kE8M0NaN || sb[b] == fmt::kE8M0NaN;
    s.exp[b] = static_cast<int16_t>((sa[b] - 127) + (sb[b] - 127) - 2);
    sum.add(ExactValue::from_int(acc, s.exp[b]));
  }
  DotResult r;
  r.exact = s.nan ? ExactValue::make_nan() : sum.value();
  r.value = round_to_float(r.exact);
  s.out_bits = fmt::f32_bits(r.value);
  return r;
}

}  // namespace hifsim::dp
