// Compiled with -ffp-contract=off -fno-trapping-math (CMakeLists.txt). Why the float arithmetic below gives the
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
#include "formats/stochastic.hpp"

#define HIFSIM_AI inline __attribute__((always_inline))

namespace hifsim::fmt {
namespace {

HIFSIM_AI float pow2_bits(int e) { return bits_f32(static_cast<uint32_t>(e + 127) << 23); }  // e in [-126, 127]

// Magnitude code of v >= 0 (or +Inf) rounded stochastically with random value r (B bits),
// saturating at the largest finite magnitude: the reference's minifloat_encode_sigexp with
// saturation. The element format's constants are template arguments so the loops vectorise.
template <int M, int Emin, int Bias>
HIFSIM_AI uint32_t sr_mag_code(float v, uint32_t r, unsigned B, float two_b, float maxval) {
  // Every select is on integers (bit patterns of non-negative floats order like the values), so
  // the loop has no control flow and vectorises.
  const uint32_t vb = f32_bits(v), maxb = f32_bits(maxval);
  int e = static_cast<int>(vb >> 23) - 127;  // floor(log2 v) for normal v
  e = e < Emin ? Emin : e;
  e = e > 126 + M ? 126 + M : e;  // keeps the quantum's reciprocal normal (v huge: saturates below)
  const uint32_t big = vb >= f32_bits(2.0f * maxval) ? ~0u : 0u;  // also +Inf
  const float yc = bits_f32(f32_bits(v * pow2_bits(M - e)) & ~big);  // y >= 0: truncation is floor
  const float fl = static_cast<float>(static_cast<int32_t>(yc));
  const float frac = yc - fl;
  const uint32_t T = static_cast<uint32_t>(static_cast<int32_t>(frac * two_b));
  const uint32_t up = (T + r) >> B;
  uint32_t qb = f32_bits((fl + static_cast<float>(static_cast<int32_t>(up))) * pow2_bits(e - M));
  qb = (big | (qb > maxb ? ~0u : 0u)) ? maxb : qb;
  const uint32_t normal = ((((qb >> 23) - 127 + Bias) << M) | ((qb >> (23 - M)) & ((1u << M) - 1)));
  const uint32_t sub = static_cast<uint32_t>(static_cast<int32_t>(bits_f32(qb) * pow2_bits(M - Emin)));
  return qb >= f32_bits(pow2_bits(Emin)) ? normal : sub;
}

// The inputs and their r zero-padded to L. A whole block (the common case) is copied without the
// zeroing: the compiler made each memset a `rep stos`, 28 % of the MX SR kernel's samples.
template <size_t L>
HIFSIM_AI void pad_inputs(const float* x, const uint32_t* rin, size_t n, float* xp, uint32_t* r) {
  if (n != L) {
    std::memset(xp, 0, L * sizeof(float));
    std::memset(r, 0, L * sizeof(uint32_t));
  }
  std::memcpy(xp, x, n * sizeof(float));
  std::memcpy(r, rin, n * sizeof(uint32_t));
}

// MX: the floor rule's scale from the block's largest magnitude bits (as round-to-nearest chooses
// it; a NaN/Inf block: scale NaN, codes 0, the reference's rule), then v = |x| 2^-shared (two exact
// power-of-two steps), code = sign | magnitude code. One pass over the block: the scale is not
// taken from a round-to-nearest quantization whose codes would be thrown away.
template <int M, int Emin, int Emax, int Bias, int SignBit>
HIFSIM_AI void mx_body(const float* x, size_t n, const uint32_t* rin, unsigned B, float maxval, uint8_t* codes,
                       uint8_t& scale) {
  float xp[kMxBlock];
  uint32_t r[kMxBlock], c[kMxBlock];  // local arrays: the uint8_t output would alias everything
  pad_inputs<kMxBlock>(x, rin, n, xp, r);
  uint32_t amax = 0;
  for (size_t i = 0; i < static_cast<size_t>(kMxBlock); ++i) {
    const uint32_t a = f32_bits(xp[i]) & 0x7FFFFFFFu;
    amax = a > amax ? a : amax;
  }
  if (amax >= 0x7F800000u) {
    scale = kE8M0NaN;
    std::memset(codes, 0, kMxBlock);
    return;
  }
  const int shared = mx_floor_shared_exponent(amax, Emax);
  scale = static_cast<uint8_t>(shared + 127);
  const float two_b = static_cast<float>(1u << B);
  const float s1 = pow2_bits(-shared / 2), s2 = pow2_bits(-shared - (-shared / 2));
  for (size_t i = 0; i < static_cast<size_t>(kMxBlock); ++i) {
    const uint32_t xb = f32_bits(xp[i]);
    const float v = (bits_f32(xb & 0x7FFFFFFFu) * s1) * s2;
    c[i] = ((xb >> 31) << SignBit) | sr_mag_code<M, Emin, Bias>(v, r[i], B, two_b, maxval);
  }
  for (size_t i = 0; i < static_cast<size_t>(kMxBlock); ++i) codes[i] = static_cast<uint8_t>(i < n ? c[i] : 0);
}

// NVFP4, one pass over a block: finiteness and amax (integer max of the magnitude bits: for finite
// values the reference's std::max of fabs), the scale as round-to-nearest chooses it (the fast
// path's scale arithmetic; the reference's own call, a generic E4M3 conversion, for a degenerate
// tensor scale), the FP32 values the reference's element conversion rounds (TE: x * enc; torchao:
// x / total, clamped), their codes (sign from the value). false (nothing written) for a block with
// NaN or Inf: the reference's rules.
HIFSIM_AI bool nvfp4_body(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe, const uint32_t* rin,
                          unsigned B, float block_amax, uint8_t* codes, uint8_t& scale) {
  float xp[kNvfp4Block], v[kNvfp4Block];
  uint32_t r[kNvfp4Block], c[kNvfp4Block];
  pad_inputs<kNvfp4Block>(x, rin, n, xp, r);
  uint32_t amax = 0, inf_nan = 0;
  for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i) {
    const uint32_t a = f32_bits(xp[i]) & 0x7FFFFFFFu;
    inf_nan |= a >= 0x7F800000u ? 1u : 0u;
    amax = a > amax ? a : amax;
  }
  if (inf_nan) return false;
  const float bmax = block_amax < 0.0f ? bits_f32(amax) : block_amax;
  float factor;
  if (!nvfp4_scale_code_fast(bmax, ts, recipe, scale, &factor)) {
    uint8_t tmp[kNvfp4Block];
    nvfp4_quantize_block(x, 0, ts, recipe, tmp, scale, nullptr, bmax);
    factor = recipe == NvfpRecipe::te ? std::fmin(1.0f / (minifloat_decode(kE4M3, scale) * ts.decode), FLT_MAX)
                                      : ts.decode * minifloat_decode(kE4M3, scale);
  }
  if (recipe == NvfpRecipe::te) {
    const float e = factor;
    for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i) v[i] = xp[i] * e;
  } else {
    const float total = factor;
    for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i) v[i] = std::fmin(std::fmax(xp[i] / total, -6.0f), 6.0f);
  }
  const float two_b = static_cast<float>(1u << B);
  for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i) {
    const uint32_t vb = f32_bits(v[i]);
    c[i] = ((vb >> 31) << 3) | sr_mag_code<1, 0, 1>(bits_f32(vb & 0x7FFFFFFFu), r[i], B, two_b, 6.0f);
  }
  for (size_t i = 0; i < static_cast<size_t>(kNvfp4Block); ++i) codes[i] = static_cast<uint8_t>(i < n ? c[i] : 0);
  return true;
}

// HiF4: 4|y| = |bf16(x)| * REC * 2^(2 - E1_8 - E1_16) (exact), rounded to an integer, saturated at 7.
HIFSIM_AI void hif4_body(const float* x, uint32_t e8, uint32_t e16, float rec, const uint32_t* r, unsigned B,
                         uint8_t* nib) {
  uint32_t c[64];
  const float two_b = static_cast<float>(1u << B);
  for (int k = 0; k < 64; ++k) {
    const uint32_t u = f32_bits(x[k]);  // BF16 RNE (a NaN makes the whole unit NaN before this loop)
    const uint32_t h = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
    const uint32_t sh = ((e8 >> (k >> 3)) & 1u) + ((e16 >> (k >> 2)) & 1u);
    const float y4 = (bits_f32((h & 0x7FFFu) << 16) * rec) * bits_f32((129u - sh) << 23);  // * 2^(2 - sh)
    const uint32_t yb = f32_bits(y4);
    const float yc = bits_f32(yb < 0x40E00000u ? yb : 0x40E00000u);  // min(y4, 7), also +Inf; >= 0: truncation is floor
    const float fl = static_cast<float>(static_cast<int32_t>(yc));
    const float frac = yc - fl;
    const uint32_t T = static_cast<uint32_t>(static_cast<int32_t>(frac * two_b));
    uint32_t m = static_cast<uint32_t>(static_cast<int32_t>(fl)) + ((T + r[k]) >> B);
    m = m > 7 ? 7 : m;
    const uint32_t neg = (h >> 15) & static_cast<uint32_t>((h & 0x7FFFu) != 0);
    c[k] = (neg << 3) | m;
  }
  for (int k = 0; k < 64; ++k) nib[k] = static_cast<uint8_t>(c[k]);
}

using MxFn = void (*)(const float*, size_t, const uint32_t*, unsigned, float, uint8_t*, uint8_t&);
#define HIFSIM_SR_MX(NAME, M, EMIN, EMAX, BIAS, SB)                                                                    \
  __attribute__((target("avx2"))) void NAME##_avx2(const float* x, size_t n, const uint32_t* r, unsigned B, float mx, \
                                                   uint8_t* c, uint8_t& s) {                                          \
    mx_body<M, EMIN, EMAX, BIAS, SB>(x, n, r, B, mx, c, s);                                                           \
  }                                                                                                                   \
  void NAME##_portable(const float* x, size_t n, const uint32_t* r, unsigned B, float mx, uint8_t* c, uint8_t& s) {   \
    mx_body<M, EMIN, EMAX, BIAS, SB>(x, n, r, B, mx, c, s);                                                           \
  }
HIFSIM_SR_MX(mx_e2m1, 1, 0, 2, 1, 3)
HIFSIM_SR_MX(mx_e4m3, 3, -6, 8, 7, 7)
HIFSIM_SR_MX(mx_e5m2, 2, -14, 15, 15, 7)
#undef HIFSIM_SR_MX

__attribute__((target("avx2"))) bool nvfp4_avx2(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                                               const uint32_t* r, unsigned B, float amax, uint8_t* c, uint8_t& s) {
  return nvfp4_body(x, n, ts, recipe, r, B, amax, c, s);
}
bool nvfp4_portable(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe, const uint32_t* r,
                    unsigned B, float amax, uint8_t* c, uint8_t& s) {
  return nvfp4_body(x, n, ts, recipe, r, B, amax, c, s);
}
__attribute__((target("avx2"))) void hif4_avx2(const float* x, uint32_t e8, uint32_t e16, float rec, const uint32_t* w,
                                               unsigned B, uint8_t* nib) {
  hif4_body(x, e8, e16, rec, w, B, nib);
}
void hif4_portable(const float* x, uint32_t e8, uint32_t e16, float rec, const uint32_t* w, unsigned B, uint8_t* nib) {
  hif4_body(x, e8, e16, rec, w, B, nib);
}

bool avx2() { return qdq_fast_isa() == QdqIsa::avx2; }

// The reference's form of r: the codec words (sr_word), for what the loops above do not handle.
struct Words {
  uint64_t w[64];
  Words(const uint32_t* r, size_t n, unsigned bits) {
    for (size_t k = 0; k < n; ++k) w[k] = sr_word(r[k], bits);
  }
};

}  // namespace

Hif4Unit hif4_quantize_sr(const float x[64], const Hif4Options& o, const uint32_t* r, unsigned bits) {
  if (bits > kSrFastMaxBits) {
    const Words w(r, 64, bits);
    Hif4Options ref = o;
    ref.rbits = w.w;
    return hif4_quantize(x, ref);
  }
  Hif4Unit u;
  if (hif4_quantize_sr_fast(x, o, r, bits, u)) return u;  // one pass (qdq_fast.cpp)
  Hif4Options rn = o;  // the scales and micro-exponents: as under round-to-nearest
  rn.element_rounding = Rounding::nearest_even;
  rn.rbits = nullptr;
  u = hif4_quantize_fast(x, rn);
  if (u.e6m2 == kE6M2NaN) return u;
  const float rec = hif4_reciprocal(u.e6m2);
  if (avx2()) hif4_avx2(x, u.e1_8, u.e1_16, rec, r, bits, u.nib);
  else hif4_portable(x, u.e1_8, u.e1_16, rec, r, bits, u.nib);
  return u;
}

void mx_quantize_block_sr(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, const uint32_t* r,
                          unsigned bits, uint8_t* codes, uint8_t& scale) {
  if (bits > kSrFastMaxBits || n > static_cast<size_t>(kMxBlock)) {
    const Words w(r, n, bits);
    MxOptions ref = o;
    ref.rbits = w.w;
    return mx_quantize_block(elem, x, n, ref, codes, scale);
  }
  if (o.scale_rule != MxScaleRule::floor) {  // the scale: as round-to-nearest chooses it (reference)
    const Words w(r, n, bits);
    MxOptions ref = o;
    ref.rbits = w.w;
    return mx_quantize_block(elem, x, n, ref, codes, scale);
  }
  const bool a = avx2();
  const MxFn fn = elem.ebits == 2 ? (a ? mx_e2m1_avx2 : mx_e2m1_portable)
                  : elem.ebits == 4 ? (a ? mx_e4m3_avx2 : mx_e4m3_portable)
                                    : (a ? mx_e5m2_avx2 : mx_e5m2_portable);
  fn(x, n, r, bits, minifloat_decode(elem, elem.max_finite), codes, scale);
}

void nvfp4_quantize_block_sr(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                             const uint32_t* r, unsigned bits, float block_amax, uint8_t* codes, uint8_t& scale) {
  if (n <= static_cast<size_t>(kNvfp4Block) && bits <= kSrFastMaxBits &&
      (avx2() ? nvfp4_avx2 : nvfp4_portable)(x, n, ts, recipe, r, bits, block_amax, codes, scale))
    return;
  const Words w(r, n, bits);  // NaN / Inf in the block, B > 30: the reference
  nvfp4_quantize_block(x, n, ts, recipe, codes, scale, w.w, block_amax);
}

}  // namespace hifsim::fmt
