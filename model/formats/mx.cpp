#include "formats/mx.hpp"

#include "formats/scales.hpp"

namespace hifsim::fmt {

const char* mx_scale_rule_name(MxScaleRule r) {
  switch (r) {
    case MxScaleRule::floor: return "floor";
    case MxScaleRule::ceil: return "ceil";
    case MxScaleRule::rceil: return "rceil";
    case MxScaleRule::pow2_ceil: return "pow2-ceil";
    case MxScaleRule::even: return "even";
  }
  return "?";
}

const std::vector<MxConvention>& mx_conventions() {
  static const std::vector<MxConvention> c = {
      {"ocp", MxScaleRule::floor, Rounding::nearest_even, "OCP MX v1.0 section 6.3; torchao FLOOR"},
      {"microxcaling", MxScaleRule::floor, Rounding::nearest_away, "microsoft/microxcaling (round='nearest')"},
      {"nvidia", MxScaleRule::rceil, Rounding::nearest_even,
       "NVIDIA cuDNN block scaling (round-up scale, RNE elements); torchao RCEIL (PTX cvt.rp.ue8m0x2.f32)"},
      {"torchao-ceil", MxScaleRule::pow2_ceil, Rounding::nearest_even, "pytorch/ao ScaleCalculationMode.CEIL"},
      {"torchao-even", MxScaleRule::even, Rounding::nearest_even,
       "pytorch/ao ScaleCalculationMode.EVEN; Modular compute_mxfp4_even_scale"},
      {"arcquant", MxScaleRule::ceil, Rounding::nearest_even, "ARCQuant MXFP4 fake-quant (ceil(log2(amax/max)))"},
  };
  return c;
}

int mx_emax(const MiniFloatSpec& s) {
  // E4M3 "fn" keeps normal values in its all-ones exponent (bias 7 -> emax 8); E5M2 reserves it.
  const int all_ones = (1 << s.ebits) - 1;
  return (s.has_inf ? all_ones - 1 : all_ones) - s.bias;
}

void mx_quantize_block(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, uint8_t* codes,
                       uint8_t& scale) {
  uint32_t amax_bits = 0;
  bool special = false;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = f32_bits(x[i]) & 0x7FFFFFFFu;
    special |= a >= 0x7F800000u;
    if (a > amax_bits) amax_bits = a;
  }
  if (special) {
    scale = kE8M0NaN;
    for (int i = 0; i < kMxBlock; ++i) codes[i] = 0;
    return;
  }
  const int emax = mx_emax(elem);
  int shared;
  if (amax_bits == 0) {
    shared = -126 - emax;  // microxcaling substitutes 2^-126 for a zero amax
  } else if (o.scale_rule == MxScaleRule::floor) {
    shared = f32_floor_log2(amax_bits) - emax;
  } else if (o.scale_rule == MxScaleRule::pow2_ceil) {
    // The FP32 exponent field, plus one when any fraction bit is set (subnormals clamp below).
    shared = static_cast<int>(amax_bits >> 23) - 127 + ((amax_bits & 0x7FFFFFu) != 0 ? 1 : 0) - emax;
  } else if (o.scale_rule == MxScaleRule::even) {
    // Half an element ulp added to the FP32 bits, then the exponent field (a carry bumps it).
    const uint32_t r = amax_bits + (1u << (22 - elem.mbits));
    shared = static_cast<int>(r >> 23) - 127 - emax;
  } else if (o.scale_rule == MxScaleRule::rceil) {
    // FP32 amax * FP32(1 / max_elem), rounded up to E8M0: the exponent field plus one when any
    // fraction bit is set (an FP32 subnormal only above 2^-127, E8M0's 0x00).
    const float maxe = minifloat_decode(elem, elem.max_finite);
    const uint32_t d = f32_bits(bits_f32(amax_bits) * (1.0f / maxe));
    const uint32_t field = d >> 23, frac = d & 0x7FFFFFu;
    shared = static_cast<int>(field) + ((field == 0 ? frac > 0x400000u : frac != 0) ? 1 : 0) - 127;
  } else {
    // ceil(log2(amax / max_elem)) exactly: the smallest e with max_elem * 2^e >= amax.
    SigExp a{};
    f32_sigexp(amax_bits, a);
    const float maxe = minifloat_decode(elem, elem.max_finite);
    SigExp m{};
    f32_sigexp(f32_bits(maxe), m);
    // amax = a.sig 2^a.exp, max = m.sig 2^m.exp; compare a.sig 2^(a.exp - m.exp - e) <= m.sig.
    int e = a.exp - m.exp;  // then a.sig / m.sig in (1/2, 2): adjust by one
    if (a.sig > m.sig) e += 1;
    shared = e;
  }
  if (shared < -127) shared = -127;
  if (shared > 127) {
    scale = kE8M0NaN;
    for (int i = 0; i < kMxBlock; ++i) codes[i] = 0;
    return;
  }
  scale = static_cast<uint8_t>(shared + 127);
  MiniFloatEncode enc;
  enc.rounding = o.rounding;
  enc.saturate = true;  // MX always clamps finite overflow to the largest element
  for (size_t i = 0; i < static_cast<size_t>(kMxBlock); ++i) {
    if (i >= n) {
      codes[i] = 0;
      continue;
    }
    const uint32_t b = f32_bits(x[i]);
    SigExp se{};
    const bool neg = b >> 31;
    if (!f32_sigexp(b & 0x7FFFFFFFu, se)) {
      codes[i] = neg ? static_cast<uint8_t>(1u << elem.sign_bit()) : 0;
      continue;
    }
    if (o.rbits) enc.rbits = o.rbits[i];
    codes[i] = minifloat_encode_sigexp(elem, neg, se.sig, se.exp - shared, enc);
  }
}

float mx_dequantize(const MiniFloatSpec& elem, uint8_t code, uint8_t scale) {
  if (scale == kE8M0NaN) return f32_nan();
  const float v = minifloat_decode(elem, code);
  // Multiply by 2^(scale-127) in two exact steps (2^-127 alone is subnormal but exact).
  const int e = static_cast<int>(scale) - 127;
  return (v * pow2f(e / 2)) * pow2f(e - e / 2);
}

}  // namespace hifsim::fmt
