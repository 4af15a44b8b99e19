#include "formats/hif4.hpp"

#include <cmath>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/scales.hpp"
#include "formats/stochastic.hpp"

namespace hifsim::fmt {

const uint8_t kHif4RecipSig[4] = {128, 205, 171, 146};

namespace {
constexpr uint16_t kC7 = 0x3E12;  // bf16(1/7) = 0.142578125, as the reference specifies
constexpr float kScaleMin = 0x1p-48f;
constexpr float kScaleMax = 49152.0f;

inline bool bf16_is_nan(uint16_t h) { return (h & 0x7FFF) > 0x7F80; }
inline bool bf16_is_inf(uint16_t h) { return (h & 0x7FFF) == 0x7F80; }

inline Hif4Unit nan_unit() {
  Hif4Unit u;
  u.e6m2 = kE6M2NaN;
  return u;
}
}  // namespace

bool Hif4Unit::operator==(const Hif4Unit& o) const {
  return e6m2 == o.e6m2 && e1_8 == o.e1_8 && e1_16 == o.e1_16 && std::memcmp(nib, o.nib, 64) == 0;
}

const char* hif4_convention_name(Hif4Convention c) {
  return c == Hif4Convention::ascend_a6 ? "ascend-a6" : "official";
}

Hif4Options hif4_convention_options(Hif4Convention c) {
  Hif4Options o;
  if (c == Hif4Convention::ascend_a6) {
    o.element_rounding = Rounding::nearest_even;  // gen_data.py bf16_to_e1m2: nearest code, ties to even
    o.compare = Hif4Compare::bf16_rounded;        // gen_data.py: eb_tmp, ec_tmp rounded to BF16
    o.bf16_scaled_element = true;                 // gen_data.py: scaled_src = bf16(src * scale)
    o.zero_scale_code = true;                     // gen_data.py: e6m2 code 0 has value 0, reciprocal 0
  }
  return o;
}

float hif4_reciprocal(uint8_t c) {
  const int e = c >> 2, m = c & 3;
  // M = 0: 2^(48-E) exactly. M > 0: 2^(47-E) * sig/128.
  return static_cast<float>(kHif4RecipSig[m]) * pow2f((m == 0 ? 48 : 47) - e - 7);
}

Hif4Unit hif4_quantize_bf16(const uint16_t x[64], const Hif4Options& o) {
  // Step 1: peaks. Magnitudes as doubles (BF16 values are exact in double).
  double mag[64];
  bool has_inf = false;
  for (int k = 0; k < 64; ++k) {
    if (bf16_is_nan(x[k])) return nan_unit();
    has_inf |= bf16_is_inf(x[k]);
    mag[k] = static_cast<double>(bf16_to_float(static_cast<uint16_t>(x[k] & 0x7FFF)));
  }
  if (has_inf && o.inf_to_nan) return nan_unit();
  // No NaN is left and every magnitude is >= +0, so a plain compare is fmax (and inlines: the
  // quantizer makes the cosim's stimulus, docs/cosim.md §12, throughput).
  auto max2 = [](double a, double b) { return a < b ? b : a; };
  double v16[16], v8[8], vmax = 0.0;
  for (int j = 0; j < 16; ++j) {
    const double* p = mag + 4 * j;
    v16[j] = max2(max2(p[0], p[1]), max2(p[2], p[3]));
  }
  for (int i = 0; i < 8; ++i) {
    v8[i] = max2(v16[2 * i], v16[2 * i + 1]);
    vmax = max2(vmax, v8[i]);
  }
  // Steps 2-3: SF = RNE_bf16(Vmax * C7), clamped to the E6M2 range. The FP32 product of two
  // BF16 values is exact wherever the clamp does not apply.
  float sf = bf16_round(static_cast<float>(vmax) * bf16_to_float(kC7));
  if (!(sf >= kScaleMin)) sf = kScaleMin;  // also catches an all-zero block
  if (sf > kScaleMax) sf = kScaleMax;       // also catches Inf
  // Step 4: E6M2, ties to even (a BF16 in range has 7 fraction bits; e6m2_encode rounds to 2).
  Hif4Unit u;
  u.e6m2 = e6m2_encode(sf);
  // Step 5: reciprocal LUT. A6: code 0x00 is the value 0 and its reciprocal 0, so the whole
  // unit quantizes to +0 (all-zero, tiny, and Vmax*C7 < 1.125 * 2^-48 blocks).
  if (o.zero_scale_code && u.e6m2 == 0) return u;
  const double rec = static_cast<double>(hif4_reciprocal(u.e6m2));
  auto product = [&](double v) {
    double p = v * rec;  // exact: 8-bit x 8-bit significands
    if (o.compare == Hif4Compare::bf16_rounded) p = static_cast<double>(bf16_round(static_cast<float>(p)));
    return p;
  };
  // Steps 6-7: level-2 and level-3 bits from exact threshold compares.
  int e8[8], e16[16];
  for (int i = 0; i < 8; ++i) {
    e8[i] = product(v8[i]) >= 4.0 ? 1 : 0;
    u.e1_8 |= static_cast<uint8_t>(e8[i] << i);
  }
  for (int j = 0; j < 16; ++j) {
    // x 2^-e8, exact (a power-of-two multiply of a normal double in range), without ldexp's call.
    e16[j] = product(v16[j]) * (e8[j >> 1] ? 0.5 : 1.0) >= 2.0 ? 1 : 0;
    u.e1_16 |= static_cast<uint16_t>(e16[j] << j);
  }
  // Steps 8-11: scaled elements rounded to quarters, saturated at 7/4, sign s = (x < 0).
  for (int k = 0; k < 64; ++k) {
    static const double kPow2[3] = {1.0, 2.0, 4.0};
    double y4 = mag[k] * rec * kPow2[2 - e8[k >> 3] - e16[k >> 2]];  // 4y, exact
    bool neg = (x[k] & 0x8000) && (x[k] & 0x7FFF);
    if (o.bf16_scaled_element) {
      // A6: p = RNE_bf16(RNE_fp32(x * scale)); the FP32 product is exact unless it is an FP32
      // subnormal, where the two roundings are the golden's. The sign is p's: an underflow to -0
      // gives +0. scale = REC * 2^-(e8+e16) is exact.
      const float scale = static_cast<float>(std::ldexp(rec, -e8[k >> 3] - e16[k >> 2]));
      const float p = bf16_round(static_cast<float>(mag[k]) * scale);
      neg = neg && p != 0.0f;
      y4 = 4.0 * static_cast<double>(p);
    }
    double m;
    if (o.element_rounding == Rounding::stochastic) {
      m = hif4_element_sr(y4, o.rbits ? o.rbits[k] : 0);
    } else {
      m = (o.element_rounding == Rounding::nearest_even) ? std::nearbyint(y4) : std::floor(y4 + 0.5);
    }
    if (m > 7.0) m = 7.0;
    u.nib[k] = static_cast<uint8_t>((neg ? 8 : 0) | static_cast<int>(m));
  }
  return u;
}

int hif4_element_sr(double y4, uint64_t rbits) {
  // 4|y| = floor + fraction (exact in double); the fraction left-aligned in 64 bits and
  // truncated is F of docs/training.md. At or above 7 (and NaN) the result saturates.
  if (!(y4 < 7.0)) return 7;
  const double fl = std::floor(y4);
  const uint64_t frac = static_cast<uint64_t>(std::ldexp(y4 - fl, 64));
  return static_cast<int>(fl) + (sr_round_up(frac, rbits) ? 1 : 0);
}

Hif4Unit hif4_quantize(const float x[64], const Hif4Options& o) {
  uint16_t h[64];
  for (int k = 0; k < 64; ++k) h[k] = bf16_from_float(x[k]);
  return hif4_quantize_bf16(h, o);
}

void hif4_decode(const Hif4Unit& u, float out[64], bool zero_scale_code) {
  if (u.e6m2 == kE6M2NaN) {
    for (int k = 0; k < 64; ++k) out[k] = f32_nan();
    return;
  }
  if (zero_scale_code && u.e6m2 == 0) {
    for (int k = 0; k < 64; ++k) out[k] = (u.nib[k] & 8) ? -0.0f : 0.0f;
    return;
  }
  // V = q * (4 + M) * 2^(E - 52), q = +-(m << (E1_8 + E1_16)): exact in FP32.
  const float unit = pow2f(e6m2_exp(u.e6m2) - 2) * static_cast<float>(e6m2_sig(u.e6m2));
  for (int k = 0; k < 64; ++k) {
    const int sh = ((u.e1_8 >> (k >> 3)) & 1) + ((u.e1_16 >> (k >> 2)) & 1);
    const float mag = static_cast<float>((u.nib[k] & 7) << sh) * unit;
    out[k] = (u.nib[k] & 8) ? -mag : mag;
  }
}

void hif4_pack(const Hif4Unit& u, uint8_t out[kHif4PackedBytes]) {
  out[0] = u.e6m2;
  out[1] = u.e1_8;
  out[2] = static_cast<uint8_t>(u.e1_16 & 0xFF);
  out[3] = static_cast<uint8_t>(u.e1_16 >> 8);
  for (int i = 0; i < 32; ++i) out[4 + i] = static_cast<uint8_t>((u.nib[2 * i] & 0xF) | ((u.nib[2 * i + 1] & 0xF) << 4));
}

Hif4Unit hif4_unpack(const uint8_t in[kHif4PackedBytes]) {
  Hif4Unit u;
  u.e6m2 = in[0];
  u.e1_8 = in[1];
  u.e1_16 = static_cast<uint16_t>(in[2] | (in[3] << 8));
  for (int i = 0; i < 32; ++i) {
    u.nib[2 * i] = in[4 + i] & 0xF;
    u.nib[2 * i + 1] = in[4 + i] >> 4;
  }
  return u;
}

}  // namespace hifsim::fmt
