// Compiled with -ffp-contract=off (CMakeLists.txt). Why the float arithmetic below gives the
// reference's bits: an element's magnitude v is scaled by a power of two (exact), its quantum is
// a power of two, so y = v / quantum, floor(y) and frac = y - floor(y) are exact; T = the top B
// bits of frac is frac * 2^B truncated to an integer (exact for B <= 30, which fits an int32).
// The only inexact products are far below the quantum (FP32-subnormal y), where T = 0 either way.
#include "formats/qdq_stochastic.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/scales.hpp"

#define HIFSIM_AI inline __attribute__((always_inline))

namespace hifsim::fmt {
namespace {

// The format constants the element loop needs.
struct ElemK {
  int mbits, emin, bias;
  float maxval;  // largest finite magnitude
};
ElemK elem_k(const MiniFloatSpec& s) { return {s.mbits, s.emin(), s.bias, minifloat_decode(s, s.max_finite)}; }

HIFSIM_AI float pow2_bits(int e) { return bits_f32(static_cast<uint32_t>(e + 127) << 23); }  // e in [-126, 127]

// Magnitude code of v >= 0 (or +Inf) rounded stochastically with random value r (B bits),
// saturating at maxval: the reference's minifloat_encode_sigexp with saturation.
HIFSIM_AI uint32_t sr_mag_code(float v, uint32_t r, unsigned B, float two_b, const ElemK& k) {
  const uint32_t vb = f32_bits(v);
  int e = static_cast<int>(vb >> 23) - 127;  // floor(log2 v) for normal v
  e = e < k.emin ? k.emin : e;
  e = e > 126 + k.mbits ? 126 + k.mbits : e;  // keeps the quantum's reciprocal normal (v huge: saturates below)
  const float y = v * pow2_bits(k.mbits - e);
  const bool big = !(v < 2.0f * k.maxval);  // also +Inf
  const float fl = big ? 0.0f : std::floor(y);
  const float frac = big ? 0.0f : y - fl;
  const uint32_t T = static_cast<uint32_t>(static_cast<int32_t>(frac * two_b));
  const uint32_t up = (T + r) >> B;
  float q = (fl + static_cast<float>(up)) * pow2_bits(e - k.mbits);
  q = big || q > k.maxval ? k.maxval : q;
  const uint32_t qb = f32_bits(q);
  const uint32_t normal = ((((qb >> 23) - 127 + k.bias) << k.mbits) | ((qb >> (23 - k.mbits)) & ((1u << k.mbits) - 1)));
  const uint32_t sub = static_cast<uint32_t>(static_cast<int32_t>(q * pow2_bits(k.mbits - k.emin)));
  return q >= pow2_bits(k.emin) ? normal : sub;
}

HIFSIM_AI uint32_t r_of(uint64_t w, unsigned B) { return static_cast<uint32_t>(w >> (64 - B)); }

// MX: v = |x| 2^-shared; NVFP4: v = the signed FP32 value the reference rounds (sign from v).
HIFSIM_AI void mx_body(const float* x, size_t n, int shared, const uint64_t* w, unsigned B, const ElemK& k,
                       int sign_bit, uint8_t* codes) {
  const float two_b = static_cast<float>(1u << B);
  const float s1 = pow2_bits(-shared / 2), s2 = pow2_bits(-shared - (-shared / 2));  // 2^-shared in two exact steps
  for (size_t i = 0; i < n; ++i) {
    const uint32_t xb = f32_bits(x[i]);
    const float v = (bits_f32(xb & 0x7FFFFFFFu) * s1) * s2;
    codes[i] = static_cast<uint8_t>(((xb >> 31) << sign_bit) | sr_mag_code(v, r_of(w[i], B), B, two_b, k));
  }
}

HIFSIM_AI void nvfp4_body(const float* v, size_t n, const uint64_t* w, unsigned B, const ElemK& k, uint8_t* codes) {
  const float two_b = static_cast<float>(1u << B);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t vb = f32_bits(v[i]);
    codes[i] = static_cast<uint8_t>(((vb >> 31) << 3) | sr_mag_code(bits_f32(vb & 0x7FFFFFFFu), r_of(w[i], B), B, two_b, k));
  }
}

// HiF4: 4|y| = |bf16(x)| * REC * 2^(2 - E1_8 - E1_16) (exact), rounded to an integer, saturated at 7.
HIFSIM_AI void hif4_body(const float* x, const Hif4Unit& u, float rec, const uint64_t* w, unsigned B, uint8_t* nib) {
  const float two_b = static_cast<float>(1u << B);
  for (int k = 0; k < 64; ++k) {
    const uint16_t h = bf16_from_f32_rne(f32_bits(x[k]));
    const int sh = ((u.e1_8 >> (k >> 3)) & 1) + ((u.e1_16 >> (k >> 2)) & 1);
    const float y4 = (bf16_to_float(static_cast<uint16_t>(h & 0x7FFF)) * rec) * pow2_bits(2 - sh);
    const bool big = !(y4 < 7.0f);
    const float fl = big ? 7.0f : std::floor(y4);
    const float frac = big ? 0.0f : y4 - fl;
    const uint32_t T = static_cast<uint32_t>(static_cast<int32_t>(frac * two_b));
    uint32_t m = static_cast<uint32_t>(fl) + ((T + r_of(w[k], B)) >> B);
    m = m > 7 ? 7 : m;
    const bool neg = (h & 0x8000) && (h & 0x7FFF);
    nib[k] = static_cast<uint8_t>((neg ? 8u : 0u) | m);
  }
}

__attribute__((target("avx2"))) void mx_avx2(const float* x, size_t n, int sh, const uint64_t* w, unsigned B,
                                             const ElemK& k, int sb, uint8_t* c) {
  mx_body(x, n, sh, w, B, k, sb, c);
}
void mx_portable(const float* x, size_t n, int sh, const uint64_t* w, unsigned B, const ElemK& k, int sb, uint8_t* c) {
  mx_body(x, n, sh, w, B, k, sb, c);
}
__attribute__((target("avx2"))) void nvfp4_avx2(const float* v, size_t n, const uint64_t* w, unsigned B, const ElemK& k,
                                                uint8_t* c) {
  nvfp4_body(v, n, w, B, k, c);
}
void nvfp4_portable(const float* v, size_t n, const uint64_t* w, unsigned B, const ElemK& k, uint8_t* c) {
  nvfp4_body(v, n, w, B, k, c);
}
__attribute__((target("avx2"))) void hif4_avx2(const float* x, const Hif4Unit& u, float rec, const uint64_t* w,
                                               unsigned B, uint8_t* nib) {
  hif4_body(x, u, rec, w, B, nib);
}
void hif4_portable(const float* x, const Hif4Unit& u, float rec, const uint64_t* w, unsigned B, uint8_t* nib) {
  hif4_body(x, u, rec, w, B, nib);
}

bool avx2() { return qdq_fast_isa() == QdqIsa::avx2; }

}  // namespace

Hif4Unit hif4_quantize_sr(const float x[64], const Hif4Options& o, unsigned bits) {
  if (bits > kSrFastMaxBits || !o.rbits) return hif4_quantize(x, o);
  Hif4Options rn = o;  // the scales and micro-exponents: as under round-to-nearest
  rn.element_rounding = Rounding::nearest_even;
  rn.rbits = nullptr;
  Hif4Unit u = hif4_quantize_fast(x, rn);
  if (u.e6m2 == kE6M2NaN) return u;
  const float rec = hif4_reciprocal(u.e6m2);
  if (avx2()) hif4_avx2(x, u, rec, o.rbits, bits, u.nib);
  else hif4_portable(x, u, rec, o.rbits, bits, u.nib);
  return u;
}

void mx_quantize_block_sr(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, unsigned bits,
                          uint8_t* codes, uint8_t& scale) {
  if (bits > kSrFastMaxBits || !o.rbits || n > static_cast<size_t>(kMxBlock))
    return mx_quantize_block(elem, x, n, o, codes, scale);
  MxOptions rn = o;
  rn.rounding = Rounding::nearest_even;
  rn.rbits = nullptr;
  mx_quantize_block_fast(elem, x, n, rn, codes, scale);  // the scale (codes overwritten)
  if (scale == kE8M0NaN) return;                         // NaN/Inf block: codes 0 (reference rule)
  const int shared = static_cast<int>(scale) - 127;
  const ElemK k = elem_k(elem);
  if (avx2()) mx_avx2(x, n, shared, o.rbits, bits, k, elem.sign_bit(), codes);
  else mx_portable(x, n, shared, o.rbits, bits, k, elem.sign_bit(), codes);
  for (size_t i = n; i < static_cast<size_t>(kMxBlock); ++i) codes[i] = 0;
}

void nvfp4_quantize_block_sr(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                             const uint64_t* rbits, unsigned bits, float block_amax, uint8_t* codes, uint8_t& scale) {
  bool finite = n <= static_cast<size_t>(kNvfp4Block) && bits <= kSrFastMaxBits && rbits;
  for (size_t i = 0; i < n && finite; ++i) finite = std::isfinite(x[i]);
  if (!finite) return nvfp4_quantize_block(x, n, ts, recipe, codes, scale, rbits, block_amax);
  // The scale: exactly the reference's (one E4M3 conversion per block, scalar).
  uint8_t tmp[kNvfp4Block];
  nvfp4_quantize_block(x, 0, ts, recipe, tmp, scale, nullptr, block_amax >= 0.0f ? block_amax : [&] {
    float m = 0.0f;
    for (size_t i = 0; i < n; ++i) m = std::fmax(m, std::fabs(x[i]));
    return m;
  }());
  // The FP32 values the reference's element conversion rounds (TE: x * enc; torchao: x / total, clamped).
  float v[kNvfp4Block];
  if (recipe == NvfpRecipe::te) {
    const float e = std::fmin(1.0f / (minifloat_decode(kE4M3, scale) * ts.decode), FLT_MAX);
    for (size_t i = 0; i < n; ++i) v[i] = x[i] * e;
  } else {
    const float total = ts.decode * minifloat_decode(kE4M3, scale);
    for (size_t i = 0; i < n; ++i) v[i] = std::fmin(std::fmax(x[i] / total, -6.0f), 6.0f);
  }
  const ElemK k = elem_k(kE2M1);
  if (avx2()) nvfp4_avx2(v, n, rbits, bits, k, codes);
  else nvfp4_portable(v, n, rbits, bits, k, codes);
  for (size_t i = n; i < static_cast<size_t>(kNvfp4Block); ++i) codes[i] = 0;
}

}  // namespace hifsim::fmt
