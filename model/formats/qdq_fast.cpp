// Fast quantize-dequantize kernels (see qdq_fast.hpp). Every kernel is an always-inline body
// compiled twice: once inside a function with __attribute__((target("avx2"))) and once for the
// baseline target, so the auto-vectoriser produces an AVX2 and a portable version of the same
// source. Bit-exactness arguments are next to each kernel; test_qdq_fast.cpp checks them.
//
// This file is compiled with -ffp-contract=off (model/formats/CMakeLists.txt): a fused
// multiply-add would change rounding.
#include "formats/qdq_fast.hpp"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/hif8.hpp"
#include "formats/minifloat.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"
#include "formats/scales.hpp"
#include "util/parallel.hpp"

#define HIFSIM_AI inline __attribute__((always_inline))

namespace hifsim::fmt {
namespace {

HIFSIM_AI uint32_t ld(const float* p) {
  uint32_t u;
  std::memcpy(&u, p, 4);
  return u;
}
HIFSIM_AI void st(float* p, uint32_t u) { std::memcpy(p, &u, 4); }

// ---- BF16: round the FP32 bit pattern (RNE or truncation), NaN -> canonical quiet NaN, sign kept. ----
template <bool Rz>
HIFSIM_AI void k_bf16(const float* __restrict x, float* __restrict y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = ld(x + i);
    const bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
    const uint32_t r = Rz ? (u & 0xFFFF0000u) : ((u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u);
    st(y + i, nan ? ((u & 0x80000000u) | 0x7FC00000u) : r);
  }
}

// ---- HiF8 -------------------------------------------------------------------------------------
// On the FP32 magnitude bits a: the HiF8 value nearest a keeps mw mantissa bits (3, 2, 1 for
// |e| <= 3, 7, 15; 0 in the denormal range e <= -16, where the hidden bit is the significand's
// LSB). Rounding is an add of half the quantum and a mask (ties away), or add half-1 plus the
// kept LSB (ties to even), or a mask alone (truncation); a carry lands on a power of two, always
// representable. Then the special ranges: e = -23 (2^-23 <= a < 2^-22: 0 or 2^-22), a < 2^-23
// (0), the overflow threshold (40960 ties away to the Inf slot; RNE keeps 40960 at 32768).
// Mode: 0 = away, 1 = rne, 2 = rz.
// The rounded magnitude bits for the magnitude bits a of a non-NaN input (0, a grid value, or the
// overflow result: 2^15 saturated, +Inf otherwise).
template <int Mode, bool Sat>
HIFSIM_AI uint32_t hif8_round_mag(uint32_t a) {
  const uint32_t ex = a >> 23;
  const uint32_t ae = ex >= 127u ? ex - 127u : 127u - ex;
  const uint32_t half = ae <= 3u ? (1u << 19) : ae <= 7u ? (1u << 20) : ae <= 15u ? (1u << 21) : (1u << 22);
  const uint32_t q = half << 1;
  uint32_t r;
  if (Mode == 0) r = (a + half) & ~(q - 1u);
  else if (Mode == 1) r = (a + half - 1u + (ae >= 16u ? 1u : ((a & q) ? 1u : 0u))) & ~(q - 1u);
  else r = a & ~(q - 1u);
  // e = -23: TA -> 2^-22; RNE -> 0 at exactly 2^-23, else 2^-22; RZ -> 0.
  const uint32_t r23 = Mode == 0 ? 0x34800000u : Mode == 1 ? (a == 0x34000000u ? 0u : 0x34800000u) : 0u;
  r = ex == 104u ? r23 : r;
  r = a < 0x34000000u ? 0u : r;
  const uint32_t ovf = Sat ? 0x47000000u : 0x7F800000u;
  if (Mode == 0) r = a >= 0x47200000u ? ovf : r;
  else if (Mode == 1) r = a > 0x47200000u ? ovf : r;
  else r = a >= 0x7F800000u ? ovf : (r > 0x47000000u ? 0x47000000u : r);
  return r;
}

template <int Mode, bool Sat>
HIFSIM_AI void k_hif8(const float* __restrict x, float* __restrict y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = ld(x + i);
    const uint32_t a = u & 0x7FFFFFFFu, s = u & 0x80000000u;
    const uint32_t r = hif8_round_mag<Mode, Sat>(a);
    const uint32_t out = a > 0x7F800000u ? 0x7FC00000u : (r == 0u ? 0u : (s | r));
    st(y + i, out);
  }
}

// HiF8 codes: the rounded magnitude is 0, +Inf or a grid value 2^E * (1 + m/8) (E in [-22, 15], m
// the 3 top mantissa bits, of which the band keeps 3, 2 or 1), whose code is the layout of
// hif8.hpp computed in lanes from E's band: |E| 8..15: 11 s eee m; 4..7: 10 s ee mm; 2..3:
// 01 s e mmm; 1: 001 s mmm; 0: 0001 mmm; E <= -16 (denormal 2^(M-23)): 0000 M with M = E + 23
// (s = E < 0, e the bits of |E| below its implicit MSB). Integer selects only, so the loop
// vectorises. NaN -> 0x80, zero -> 0x00 (no -0), Inf -> 0x6F | sign.
HIFSIM_AI uint32_t mask_if(bool c) { return 0u - static_cast<uint32_t>(c); }
HIFSIM_AI uint32_t pick(uint32_t m, uint32_t x, uint32_t y) { return (x & m) | (y & ~m); }
// Masks rather than selects throughout: with selects GCC turns the band chain into branches and
// the loop does not vectorise.
HIFSIM_AI uint32_t hif8_grid_code(uint32_t r) {
  const uint32_t eb = r >> 23;  // biased exponent
  const uint32_t neg = mask_if(eb < 127u);
  const uint32_t ae = pick(neg, 127u - eb, eb - 127u), es = neg & 0x10u, m3 = (r >> 20) & 7u;
  uint32_t code = 0x60u | es | ((ae - 8u) << 1) | (m3 >> 2);
  code = pick(mask_if(ae <= 7u), 0x40u | es | ((ae - 4u) << 2) | (m3 >> 1), code);
  code = pick(mask_if(ae <= 3u), 0x20u | es | ((ae - 2u) << 3) | m3, code);
  code = pick(mask_if(ae == 1u), 0x10u | (es >> 1) | m3, code);
  code = pick(mask_if(ae == 0u), 0x08u | m3, code);
  code = pick(mask_if(eb <= 111u), eb - 104u, code);  // E <= -16: M = E + 23
  return code & 0x7Fu;
}

template <int Mode, bool Sat>
HIFSIM_AI void k_hif8_codes(const float* __restrict x, uint16_t* __restrict c, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = ld(x + i);
    const uint32_t a = u & 0x7FFFFFFFu, sc = (u >> 24) & 0x80u;
    const uint32_t r = hif8_round_mag<Mode, Sat>(a);
    uint32_t code = (sc | hif8_grid_code(r)) & ~mask_if(r == 0u);
    code = pick(mask_if(r == 0x7F800000u), sc | kHif8PosInf, code);
    code = pick(mask_if(a > 0x7F800000u), kHif8NaN, code);
    c[i] = static_cast<uint16_t>(code);
  }
}

// ---- IEEE-like minifloat elements (E2M1, E4M3, E5M2) --------------------------------------------
// Rounds |v| to the element grid: quantum 2^(max(e, emin) - M). Adding C = 2^(qe + 23) makes the
// FP32 adder round |v| to a multiple of 2^qe with ties to even (the sum lies in [C, 2C), whose
// ulp is 2^qe, and C's own bits are even), and subtracting C is exact. Ties away: if the
// remainder |v| - r (exact by Sterbenz) is exactly +q/2, RNE went down on a tie: add q.
// Then saturate (MX, NVFP4, --saturate) or overflow (Inf for E5M2, NaN for E4M3).
struct ElemParams {
  int emin, emax, mbits;
  float maxv;        // largest finite element
  uint32_t ovf;      // magnitude bits of a non-saturated overflow (Inf or quiet NaN)
};
constexpr ElemParams kP2M1{0, 2, 1, 6.0f, 0};
constexpr ElemParams kP4M3{-6, 8, 3, 448.0f, 0x7FC00000u};
constexpr ElemParams kP5M2{-14, 15, 2, 57344.0f, 0x7F800000u};

// Magnitude of the quantized element for a non-negative, non-NaN FP32 `a` (bits `ab`).
template <bool Away>
HIFSIM_AI float elem_round(float a, uint32_t ab, const ElemParams& p) {
  int32_t eb = static_cast<int32_t>(ab >> 23);
  const int32_t lo = p.emin + 127, hi = p.emax + 128;
  eb = eb < lo ? lo : eb;
  eb = eb > hi ? hi : eb;
  const float c = bits_f32(static_cast<uint32_t>(eb - p.mbits + 23) << 23);
  float r = (a + c) - c;
  if (Away) {
    const float qv = bits_f32(static_cast<uint32_t>(eb - p.mbits) << 23);
    const uint32_t up = f32_bits(r + qv), keep = f32_bits(r);
    // Integer mask, not a select: a select lets the compiler sink the (trapping) add into a
    // branch, which stopped the MX loops from vectorising.
    const uint32_t tie = 0u - static_cast<uint32_t>(f32_bits(a - r) == f32_bits(qv * 0.5f));
    r = bits_f32((up & tie) | (keep & ~tie));
  }
  return r;
}

// Element-wise fp8: NaN -> NaN with the input's sign; overflow -> Inf/NaN or +-max.
template <bool Away, bool Sat>
HIFSIM_AI void k_fp8(const float* __restrict x, float* __restrict y, size_t n, ElemParams p) {
  const uint32_t maxb = f32_bits(p.maxv);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = ld(x + i);
    const uint32_t ab = u & 0x7FFFFFFFu, s = u & 0x80000000u;
    uint32_t rb = f32_bits(elem_round<Away>(bits_f32(ab), ab, p));
    rb = rb > maxb ? (Sat ? maxb : p.ovf) : rb;
    rb = ab > 0x7F800000u ? 0x7FC00000u : rb;
    st(y + i, s | rb);
  }
}

// ---- MX: 32-element blocks with an E8M0 scale (floor rule) -------------------------------------
// shared = floor(log2 amax) - emax from the bit fields, clamped at -127; elements are scaled by
// 2^-shared (exact: any FP32 rounding only happens far below half the smallest element), rounded
// with elem_round and clamped to max, then scaled back (exact). A NaN/Inf anywhere -> all NaN.
// The floor rule's shared exponent of a finite block from its largest magnitude's bits.
HIFSIM_AI int mx_shared_exponent(uint32_t amax, const ElemParams& p) { return mx_floor_shared_exponent(amax, p.emax); }

template <bool Away>
HIFSIM_AI void k_mx(const float* __restrict x, float* __restrict y, size_t n, ElemParams p) {
  uint32_t amax = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = ld(x + i) & 0x7FFFFFFFu;
    amax = a > amax ? a : amax;
  }
  if (amax >= 0x7F800000u) {
    for (size_t i = 0; i < n; ++i) st(y + i, 0x7FC00000u);
    return;
  }
  const int shared = mx_shared_exponent(amax, p);
  const float down = pow2f(-shared), up = pow2f(shared);
  const uint32_t maxb = f32_bits(p.maxv);
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i] * down;
    const uint32_t vb = f32_bits(v);
    const uint32_t ab = vb & 0x7FFFFFFFu;
    uint32_t rb = f32_bits(elem_round<Away>(bits_f32(ab), ab, p));
    rb = rb > maxb ? maxb : rb;  // saturate (integer min on non-negative floats)
    y[i] = bits_f32((vb & 0x80000000u) | rb) * up;
  }
}

// The same blocks as codes (mx_quantize_block_fast): the rounded magnitude lies on the element
// grid, so its code is read off its FP32 fields: normal, exponent - emin + 1 above the mantissa's
// top mbits; below 2^emin (subnormal, zero), value * 2^(mbits - emin), an integer (`sub_scale`).
// Both are computed and one selected with integer operations, so the loop vectorises.
HIFSIM_AI uint32_t elem_code(uint32_t rb, uint32_t sign, const ElemParams& p, int sign_bit, float sub_scale) {
  const uint32_t normal = ((((rb >> 23) - static_cast<uint32_t>(127 + p.emin - 1)) << p.mbits) |
                           ((rb >> (23 - p.mbits)) & ((1u << p.mbits) - 1u)));
  // Masks rather than selects: a select lets the compiler sink the (trapping) conversion into a
  // branch, which stops vectorisation.
  const uint32_t below = 0u - static_cast<uint32_t>(rb < (static_cast<uint32_t>(127 + p.emin) << 23));
  const uint32_t rs = rb & below;  // keeps the conversion in range
  const uint32_t sub = static_cast<uint32_t>(static_cast<int32_t>(bits_f32(rs) * sub_scale));
  const uint32_t mag = (sub & below) | (normal & ~below);
  return (sign >> 31 << sign_bit) | mag;
}

// A block is copied into a zero-padded local array first: fixed-length loops vectorise, and a
// padding +0 gets code 0 as in the reference.
template <bool Away>
HIFSIM_AI void k_mx_codes(const float* __restrict xin, size_t n, ElemParams p, int sign_bit, uint8_t* __restrict codes,
                          uint8_t& scale) {
  alignas(32) float x[32] = {};
  std::memcpy(x, xin, n * sizeof(float));
  uint32_t amax = 0;
  for (int i = 0; i < 32; ++i) {
    const uint32_t a = ld(x + i) & 0x7FFFFFFFu;
    amax = a > amax ? a : amax;
  }
  if (amax >= 0x7F800000u) {
    std::memset(codes, 0, 32);
    scale = kE8M0NaN;
    return;
  }
  const int shared = mx_shared_exponent(amax, p);
  scale = static_cast<uint8_t>(shared + 127);
  const float down = pow2f(-shared), sub_scale = pow2f(p.mbits - p.emin);
  const uint32_t maxb = f32_bits(p.maxv);
  alignas(32) uint32_t c[32];
  for (int i = 0; i < 32; ++i) {
    const uint32_t vb = f32_bits(x[i] * down), ab = vb & 0x7FFFFFFFu;
    uint32_t rb = f32_bits(elem_round<Away>(bits_f32(ab), ab, p));
    rb = rb > maxb ? maxb : rb;
    c[i] = elem_code(rb, vb & 0x80000000u, p, sign_bit, sub_scale);
  }
  for (int i = 0; i < 32; ++i) codes[i] = static_cast<uint8_t>(c[i]);
}

// ---- Element-wise codes (fp8, bf16; hif8 above) ---------------------------------------------------
// fp8: the rounded magnitude's code (elem_code); an overflow (a rounded value above max, or the
// NaN that rounding an Inf gives) -> max finite when saturating, else the Inf / NaN code; a NaN
// input -> the NaN code; the input's sign on every result, zeros included (minifloat_encode).
struct Fp8Codes {
  ElemParams p;
  uint32_t max_code, ovf_code, nan_code;
  float sub_scale;  // 2^(mbits - emin)
};
constexpr Fp8Codes kC4M3{kP4M3, 0x7E, 0x7F, 0x7F, 512.0f};
constexpr Fp8Codes kC5M2{kP5M2, 0x7B, 0x7C, 0x7E, 65536.0f};

template <bool Away, bool Sat>
HIFSIM_AI void k_fp8_codes(const float* __restrict x, uint16_t* __restrict c, size_t n, const Fp8Codes k) {
  const uint32_t maxb = f32_bits(k.p.maxv);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = ld(x + i);
    const uint32_t ab = u & 0x7FFFFFFFu, sc = (u >> 24) & 0x80u;
    const uint32_t rb = f32_bits(elem_round<Away>(bits_f32(ab), ab, k.p));
    const uint32_t over = 0u - static_cast<uint32_t>(rb > maxb);
    uint32_t code = elem_code(rb & ~over, 0u, k.p, 7, k.sub_scale);  // masked: the conversion stays in range
    code = (code & ~over) | ((Sat ? k.max_code : k.ovf_code) & over);
    const uint32_t nan = 0u - static_cast<uint32_t>(ab > 0x7F800000u);  // a mask: see k_hif8_codes
    code = (code & ~nan) | (k.nan_code & nan);
    c[i] = static_cast<uint16_t>(sc | code);
  }
}

// bf16: bf16_from_f32_rne / _rz on the bits, the quiet NaN with the input's sign.
template <bool Rz>
HIFSIM_AI void k_bf16_codes(const float* __restrict x, uint16_t* __restrict c, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = ld(x + i);
    const uint32_t r = Rz ? (u >> 16) : ((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
    c[i] = static_cast<uint16_t>((u & 0x7FFFFFFFu) > 0x7F800000u ? (((u >> 16) & 0x8000u) | 0x7FC0u) : r);
  }
}

// ---- NVFP4 blocks (16 x E2M1, E4M3 scale) -------------------------------------------------------
// The per-block scale arithmetic is the reference's own (nvfp4.cpp), in the same FP32 operation
// order; the element loop is the vectorised E2M1 rounding. Output (e2m1 * e4m3) * decode: the first
// product is exact, the second rounds once, exactly as nvfp4_dequantize.
// The block's E4M3 scale code, its value, and the factor the elements are scaled by: a multiplier
// (te recipe) or a divisor (paper recipe), in the reference's FP32 operation order. One copy for
// the quantize-dequantize and the code kernels, so the two cannot round the scale differently.
struct Nvfp4BlockScale {
  uint8_t code;
  float value;   // decoded E4M3 scale
  float factor;  // te: multiply the elements by it; paper: divide them by it
};
// The E4M3 scale is rounded like the elements (elem_round, nearest even, then the saturating clamp
// at 448 as an integer minimum) and its code read off the rounded value (elem_code), with no
// branch: minifloat_encode's special cases cannot occur (the argument is finite and >= 0), so a
// loop over several blocks' scales vectorises (chunk_body's NVFP4 batches of eight).
HIFSIM_AI uint32_t e4m3_sat_rne(float v, uint8_t& code) {
  uint32_t rb = f32_bits(elem_round<false>(v, f32_bits(v), kP4M3));
  rb = rb > 0x43E00000u ? 0x43E00000u : rb;  // min(r, 448)
  code = static_cast<uint8_t>(elem_code(rb, 0u, kP4M3, 7, 512.0f));
  return rb;
}

HIFSIM_AI Nvfp4BlockScale nvfp4_block_scale(float bmax, const Nvfp4TensorScale& ts, NvfpRecipe recipe) {
  Nvfp4BlockScale b{};
  if (recipe == NvfpRecipe::te) {
    const float t = bmax * (ts.encode * (1.0f / 6.0f));
    b.value = bits_f32(e4m3_sat_rne(FLT_MAX < t ? FLT_MAX : t, b.code));
    const float f = 1.0f / (b.value * ts.decode);
    b.factor = FLT_MAX < f ? FLT_MAX : f;  // std::min's operand order (NaN-safe alike)
  } else {
    float t = (bmax / 6.0f) / ts.decode;
    t = t < 0x1p-9f ? 0x1p-9f : t;
    t = 448.0f < t ? 448.0f : t;  // std::clamp's comparisons
    b.value = bits_f32(e4m3_sat_rne(t, b.code));
    b.factor = ts.decode * b.value;
  }
  return b;
}

HIFSIM_AI float block_amax(const float* __restrict x, size_t n) {
  float bmax = 0.0f;
  for (size_t i = 0; i < n; ++i) bmax = std::max(bmax, std::fabs(x[i]));
  return bmax;
}

// The elements of one block whose scale b is known.
HIFSIM_AI void k_nvfp4_block(const float* __restrict x, float* __restrict y, size_t n, const Nvfp4TensorScale& ts,
                             NvfpRecipe recipe, const Nvfp4BlockScale& b) {
  const float sv = b.value;
  if (recipe == NvfpRecipe::te) {
    const float e = b.factor;
    const float dec = ts.decode;
    for (size_t i = 0; i < n; ++i) {
      const float v = x[i] * e;
      const uint32_t vb = f32_bits(v), ab = vb & 0x7FFFFFFFu;
      uint32_t rb = f32_bits(elem_round<false>(bits_f32(ab), ab, kP2M1));
      rb = rb > 0x40C00000u ? 0x40C00000u : rb;  // min(r, 6) on the bits (non-negative floats)
      const float rs = bits_f32((vb & 0x80000000u) | rb);
      y[i] = (rs * sv) * dec;
    }
  } else {
    const float total = b.factor;
    const float dec = ts.decode;
    for (size_t i = 0; i < n; ++i) {
      // clamp(v, -6, 6) = sign(v) * min(|v|, 6), -0 kept.
      const uint32_t vq = f32_bits(x[i] / total);
      uint32_t ab = vq & 0x7FFFFFFFu;
      ab = ab > 0x40C00000u ? 0x40C00000u : ab;
      const uint32_t vb = (vq & 0x80000000u) | ab;
      const float r = elem_round<false>(bits_f32(ab), ab, kP2M1);
      const float rs = bits_f32((vb & 0x80000000u) | f32_bits(r));
      y[i] = (rs * sv) * dec;
    }
  }
}

// NVFP4 as codes (nvfp4_quantize_block_fast): the block scale exactly as the reference computes
// it, the elements rounded as above and read off as E2M1 codes.
// The E2M1 codes of one block's 16 elements whose scale b is known.
HIFSIM_AI void k_nvfp4_elem_codes(const float* __restrict x, NvfpRecipe recipe, const Nvfp4BlockScale& b,
                                  uint32_t* __restrict c) {
  if (recipe == NvfpRecipe::te) {
    const float e = b.factor;
    for (int i = 0; i < 16; ++i) {
      const uint32_t vb = f32_bits(x[i] * e), ab = vb & 0x7FFFFFFFu;
      uint32_t rb = f32_bits(elem_round<false>(bits_f32(ab), ab, kP2M1));
      rb = rb > 0x40C00000u ? 0x40C00000u : rb;
      c[i] = elem_code(rb, vb & 0x80000000u, kP2M1, 3, 2.0f);
    }
  } else {
    const float total = b.factor;
    for (int i = 0; i < 16; ++i) {
      const uint32_t vq = f32_bits(x[i] / total);
      uint32_t ab = vq & 0x7FFFFFFFu;
      ab = ab > 0x40C00000u ? 0x40C00000u : ab;
      const uint32_t rb = f32_bits(elem_round<false>(bits_f32(ab), ab, kP2M1));
      c[i] = elem_code(rb, vq & 0x80000000u, kP2M1, 3, 2.0f);
    }
  }
}

HIFSIM_AI void k_nvfp4_codes(const float* __restrict xin, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                             uint8_t* __restrict codes, uint8_t& scale) {
  alignas(32) float x[16] = {};
  std::memcpy(x, xin, n * sizeof(float));
  const Nvfp4BlockScale b = nvfp4_block_scale(block_amax(x, 16), ts, recipe);  // padding zeros change no max
  scale = b.code;
  alignas(32) uint32_t c[16];
  k_nvfp4_elem_codes(x, recipe, b, c);
  // Missing elements are code 0 in the reference, whatever the padding zero would give.
  for (int i = 0; i < 16; ++i) codes[i] = static_cast<size_t>(i) < n ? static_cast<uint8_t>(c[i]) : 0;
}

// Eight full blocks (finite values, a regular tensor scale): their maxima, then their eight
// scales in one branch-free loop, then their elements (as the quantize-dequantize kernel).
HIFSIM_AI void k_nvfp4_codes8(const float* __restrict x, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                              uint8_t* __restrict codes, uint8_t* __restrict scales) {
  alignas(32) float bmax[8];
  for (int t = 0; t < 8; ++t) bmax[t] = block_amax(x + 16 * t, 16);
  Nvfp4BlockScale sc[8];
  if (recipe == NvfpRecipe::te)
    for (int t = 0; t < 8; ++t) sc[t] = nvfp4_block_scale(bmax[t], ts, NvfpRecipe::te);
  else
    for (int t = 0; t < 8; ++t) sc[t] = nvfp4_block_scale(bmax[t], ts, NvfpRecipe::torchao);
  for (int t = 0; t < 8; ++t) {
    scales[t] = sc[t].code;
    alignas(32) uint32_t c[16];
    k_nvfp4_elem_codes(x + 16 * t, recipe, sc[t], c);
    for (int i = 0; i < 16; ++i) codes[16 * t + i] = static_cast<uint8_t>(c[i]);
  }
}

// No NaN or Inf among x[0..n) (exponent field all ones), as one OR over the values (it vectorises).
HIFSIM_AI bool all_finite(const float* __restrict x, size_t n) {
  uint32_t special = 0;
  for (size_t i = 0; i < n; ++i) special |= static_cast<uint32_t>((f32_bits(x[i]) & 0x7F800000u) == 0x7F800000u);
  return special == 0;
}

// ---- HiF4: one 64-element unit -------------------------------------------------------------------
// hif4.md 2 in FP32: the inputs rounded to BF16 (integer RNE on the bits); peaks by integer max on
// magnitude bits (monotone for non-negative floats, Inf included); SF = RNE_bf16(Vmax * C7) (the FP32
// product of two BF16 values is exact), clamped; E6M2 by integer RNE on SF's bits (the rounded
// pattern *is* the E6M2 value); REC from the LUT; threshold compares on exact FP32 products
// (8-bit x 8-bit significands); each element |x| * REC * 2^(2 - e8 - e16) is exact, rounded to an
// integer m (ties away: (int)(y + 0.5), exact for every y that can occur; ties to even: the 2^23
// magic number), clamped to 7. The quantize-dequantize kernel decodes m * (2^(e8+e16) * scale / 4),
// exact; the code kernel emits the unit's codes (hif4_quantize_fast).
struct Hif4Front {
  alignas(32) uint32_t a[64];   // BF16-rounded magnitudes (FP32 bits)
  alignas(32) uint32_t sg[64];  // sign bit of each nonzero BF16 element (s = (x < 0), -0 -> +0)
  alignas(32) float fin[64];    // REC * 2^(2 - e8 - e16) of the element's group
  alignas(32) float m[64];      // the element's magnitude code m in 0..7
  uint32_t rb = 0;              // SF rounded to E6M2, as FP32 bits
  uint8_t level[16] = {};       // e8 + e16 of each group of 4
  uint8_t e1_8 = 0;
  uint16_t e1_16 = 0;
  bool nan = false;
};

// Everything but the element codes f.m: BF16 inputs, signs, peaks, scale, micro-exponents, fin.
// CmpBf16: the level compares read the products rounded to BF16 (Hif4Compare::bf16_rounded,
// the golden's eb_tmp / ec_tmp) instead of the exact ones.
template <bool CmpBf16 = false>
HIFSIM_AI void hif4_scales(const float* __restrict xin, Hif4Front& f) {
  uint32_t nan = 0;
  for (int k = 0; k < 64; ++k) {
    const uint32_t u = ld(xin + k);
    nan |= (u & 0x7FFFFFFFu) > 0x7F800000u ? 1u : 0u;
    const uint32_t b = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    f.a[k] = b & 0x7FFFFFFFu;
    f.sg[k] = f.a[k] != 0u ? (b & 0x80000000u) : 0u;
  }
  f.nan = nan != 0;
  if (f.nan) return;
  alignas(32) uint32_t v16[16];
  for (int j = 0; j < 16; ++j) {
    const uint32_t m01 = f.a[4 * j] > f.a[4 * j + 1] ? f.a[4 * j] : f.a[4 * j + 1];
    const uint32_t m23 = f.a[4 * j + 2] > f.a[4 * j + 3] ? f.a[4 * j + 2] : f.a[4 * j + 3];
    v16[j] = m01 > m23 ? m01 : m23;
  }
  uint32_t v8[8], vmax = 0;
  for (int i = 0; i < 8; ++i) {
    v8[i] = v16[2 * i] > v16[2 * i + 1] ? v16[2 * i] : v16[2 * i + 1];
    vmax = v8[i] > vmax ? v8[i] : vmax;
  }
  // SF = RNE_bf16(Vmax * C7), clamped; E6M2 = SF rounded to 2 mantissa bits, ties to even.
  const uint32_t pb = f32_bits(bits_f32(vmax) * 0.142578125f);
  float sf = bits_f32((pb + 0x7FFFu + ((pb >> 16) & 1u)) & 0xFFFF0000u);
  sf = sf < 0x1p-48f ? 0x1p-48f : sf;
  sf = sf > 49152.0f ? 49152.0f : sf;
  const uint32_t sb = f32_bits(sf);
  f.rb = (sb + 0xFFFFFu + ((sb >> 21) & 1u)) & 0xFFE00000u;
  const uint32_t ebits = f.rb >> 23, mbits = (f.rb >> 21) & 3u;  // E6M2 E = ebits - 79
  // REC = sig/128 * 2^((M == 0 ? 48 : 47) - E - 7), E = ebits - 79 (hif4_reciprocal's LUT).
  const float rec = static_cast<float>(kHif4RecipSig[mbits]) *
                    bits_f32((static_cast<uint32_t>((mbits == 0 ? 48 : 47) - (static_cast<int>(ebits) - 79) - 7 + 127)) << 23);
  const float fin_of[3] = {rec * 4.0f, rec * 2.0f, rec};
  // V x REC, exact in FP32 (8-bit x 8-bit significands, in range after the clamp); with CmpBf16
  // rounded to BF16 (RNE on the bits: the product is finite), as hif4_quantize_bf16's product().
  auto product = [rec](uint32_t v) {
    const float p = bits_f32(v) * rec;
    if (!CmpBf16) return p;
    const uint32_t pb = f32_bits(p);
    return bits_f32((pb + 0x7FFFu + ((pb >> 16) & 1u)) & 0xFFFF0000u);
  };
  for (int j = 0; j < 16; ++j) {
    const int e8 = product(v8[j >> 1]) >= 4.0f ? 1 : 0;
    const int e16 = product(v16[j]) * (e8 ? 0.5f : 1.0f) >= 2.0f ? 1 : 0;
    f.level[j] = static_cast<uint8_t>(e8 + e16);
    f.e1_8 = static_cast<uint8_t>(f.e1_8 | (e8 << (j >> 1)));
    f.e1_16 = static_cast<uint16_t>(f.e1_16 | (e16 << j));
    for (int t = 0; t < 4; ++t) f.fin[4 * j + t] = fin_of[e8 + e16];
  }
}

template <bool Rne, bool CmpBf16 = false>
HIFSIM_AI void hif4_front(const float* __restrict xin, Hif4Front& f) {
  hif4_scales<CmpBf16>(xin, f);
  if (f.nan) return;
  // Non-negative floats order like their bit patterns: the clamps are integer minima (which
  // vectorise; float selects do not if-convert under -ftrapping-math).
  for (int k = 0; k < 64; ++k) {
    uint32_t yb = f32_bits(bits_f32(f.a[k]) * f.fin[k]);
    yb = yb > 0x41000000u ? 0x41000000u : yb;  // min(y4, 8): also Inf
    const float y4 = bits_f32(yb);
    float m;
    if (Rne) m = (y4 + 8388608.0f) - 8388608.0f;
    else m = static_cast<float>(static_cast<int32_t>(y4 + 0.5f));
    uint32_t mb = f32_bits(m);
    mb = mb > 0x40E00000u ? 0x40E00000u : mb;  // min(m, 7)
    f.m[k] = bits_f32(mb);
  }
}

template <bool Rne>
HIFSIM_AI void k_hif4_unit(const float* __restrict xin, float* __restrict y, size_t n) {
  alignas(32) float pad[64];
  if (n < 64) {  // zero-padded last unit of a row
    std::memset(pad, 0, sizeof pad);
    std::memcpy(pad, xin, n * sizeof(float));
    xin = pad;
  }
  Hif4Front f;
  hif4_front<Rne>(xin, f);
  if (f.nan) {
    for (size_t k = 0; k < n; ++k) st(y + k, 0x7FC00000u);
    return;
  }
  const float quarter = bits_f32(f.rb) * 0.25f;
  const float fout_of[3] = {quarter, quarter * 2.0f, quarter * 4.0f};
  alignas(32) float fout[64], out[64];
  for (int j = 0; j < 16; ++j)
    for (int t = 0; t < 4; ++t) fout[4 * j + t] = fout_of[f.level[j]];
  for (int k = 0; k < 64; ++k) out[k] = bits_f32(f32_bits(f.m[k] * fout[k]) | f.sg[k]);
  std::memcpy(y, out, n * sizeof(float));
}

HIFSIM_AI bool hif4_unit_scales(const Hif4Front& f, Hif4Unit& u) {
  u = Hif4Unit{};
  if (f.nan) {
    u.e6m2 = kE6M2NaN;
    return false;
  }
  u.e6m2 = static_cast<uint8_t>((((f.rb >> 23) - 79u) << 2) | ((f.rb >> 21) & 3u));
  u.e1_8 = f.e1_8;
  u.e1_16 = f.e1_16;
  return true;
}

template <bool Rne, bool CmpBf16>
HIFSIM_AI void k_hif4_codes(const float* __restrict x, Hif4Unit& u) {
  Hif4Front f;
  hif4_front<Rne, CmpBf16>(x, f);
  if (!hif4_unit_scales(f, u)) return;
  for (int k = 0; k < 64; ++k) u.nib[k] = static_cast<uint8_t>((f.sg[k] >> 28) | static_cast<uint32_t>(f.m[k]));
}

// Stochastic elements on the same front (the scales are round-to-nearest's): y4 = |x| * fin is
// exact, its floor and fraction too; T = the fraction's top B bits (B <= 30: frac * 2^B truncated,
// exact); m = floor + ((T + r) >> B), clamped to 7 (stochastic.hpp's rule; the reference is
// hif4_element_sr). One pass: no round-to-nearest codes computed and thrown away.
HIFSIM_AI void k_hif4_codes_sr(const float* __restrict x, const uint32_t* __restrict r, unsigned B, Hif4Unit& u) {
  Hif4Front f;
  hif4_scales(x, f);
  if (!hif4_unit_scales(f, u)) return;
  const float two_b = static_cast<float>(1u << B);
  alignas(32) uint32_t c[64];
  for (int k = 0; k < 64; ++k) {
    uint32_t yb = f32_bits(bits_f32(f.a[k]) * f.fin[k]);
    yb = yb < 0x40E00000u ? yb : 0x40E00000u;  // min(y4, 7), also Inf; >= 0: truncation is floor
    const float yc = bits_f32(yb);
    const float fl = static_cast<float>(static_cast<int32_t>(yc));
    const uint32_t T = static_cast<uint32_t>(static_cast<int32_t>((yc - fl) * two_b));
    uint32_t m = static_cast<uint32_t>(static_cast<int32_t>(fl)) + ((T + r[k]) >> B);
    m = m > 7 ? 7 : m;
    c[k] = (f.sg[k] >> 28) | m;
  }
  for (int k = 0; k < 64; ++k) u.nib[k] = static_cast<uint8_t>(c[k]);
}

// ---- drivers --------------------------------------------------------------------------------------
// The parallel work is split into units (elements for the element-wise formats, blocks for the
// block formats); each worker calls chunk_avx2 or chunk_portable on its range of units. Those two
// are the only functions compiled twice, and every kernel is always-inlined into them, so the
// whole loop nest is built for the chosen target.
struct Job {
  Format f;
  const float* x;
  float* y;
  size_t rows, cols, blk, nb;  // nb = blocks per row (blk = 1 for element-wise formats)
  Rounding r;
  bool sat;
  NvfpRecipe recipe;
  Nvfp4TensorScale ts;
};

HIFSIM_AI void chunk_body(const Job& j, size_t b, size_t e) {
  const float* x = j.x;
  float* y = j.y;
  const bool away = j.r == Rounding::nearest_away;
  switch (j.f) {
    case Format::bf16:
      if (j.r == Rounding::toward_zero) k_bf16<true>(x + b, y + b, e - b);
      else k_bf16<false>(x + b, y + b, e - b);
      return;
    case Format::hif8:
      if (j.r == Rounding::nearest_away) {
        if (j.sat) k_hif8<0, true>(x + b, y + b, e - b);
        else k_hif8<0, false>(x + b, y + b, e - b);
      } else if (j.r == Rounding::nearest_even) {
        if (j.sat) k_hif8<1, true>(x + b, y + b, e - b);
        else k_hif8<1, false>(x + b, y + b, e - b);
      } else {
        if (j.sat) k_hif8<2, true>(x + b, y + b, e - b);
        else k_hif8<2, false>(x + b, y + b, e - b);
      }
      return;
    case Format::fp4_e2m1:  // plain element-wise E2M1 (no scale): always saturating, NaN never reaches it
      if (away) k_fp8<true, true>(x + b, y + b, e - b, kP2M1);
      else k_fp8<false, true>(x + b, y + b, e - b, kP2M1);
      return;
    case Format::fp8_e4m3: case Format::fp8_e5m2: {
      const ElemParams p = j.f == Format::fp8_e4m3 ? kP4M3 : kP5M2;
      if (away) {
        if (j.sat) k_fp8<true, true>(x + b, y + b, e - b, p);
        else k_fp8<true, false>(x + b, y + b, e - b, p);
      } else {
        if (j.sat) k_fp8<false, true>(x + b, y + b, e - b, p);
        else k_fp8<false, false>(x + b, y + b, e - b, p);
      }
      return;
    }
    default:
      break;
  }
  if (j.f == Format::nvfp4) {
    // Eight blocks at a time: their maxima, then their eight scales in one branch-free loop (it
    // vectorises), then their elements.
    for (size_t g = b; g < e; g += 8) {
      const size_t m = std::min<size_t>(8, e - g);
      alignas(32) float bmax[8] = {};
      for (size_t t = 0; t < m; ++t) {
        const size_t bi = g + t, c0 = (bi % j.nb) * j.blk;
        bmax[t] = block_amax(x + (bi / j.nb) * j.cols + c0, std::min(j.blk, j.cols - c0));
      }
      Nvfp4BlockScale sc[8];
      if (j.recipe == NvfpRecipe::te)
        for (int t = 0; t < 8; ++t) sc[t] = nvfp4_block_scale(bmax[t], j.ts, NvfpRecipe::te);
      else
        for (int t = 0; t < 8; ++t) sc[t] = nvfp4_block_scale(bmax[t], j.ts, NvfpRecipe::torchao);
      for (size_t t = 0; t < m; ++t) {
        const size_t bi = g + t, row = bi / j.nb, c0 = (bi % j.nb) * j.blk;
        k_nvfp4_block(x + row * j.cols + c0, y + row * j.cols + c0, std::min(j.blk, j.cols - c0), j.ts, j.recipe, sc[t]);
      }
    }
    return;
  }
  for (size_t bi = b; bi < e; ++bi) {
    const size_t row = bi / j.nb, c0 = (bi % j.nb) * j.blk;
    const size_t n = std::min(j.blk, j.cols - c0);
    const float* xb = x + row * j.cols + c0;
    float* yb = y + row * j.cols + c0;
    switch (j.f) {
      case Format::mxfp4:
        if (away) k_mx<true>(xb, yb, n, kP2M1);
        else k_mx<false>(xb, yb, n, kP2M1);
        break;
      case Format::mxfp8_e4m3:
        if (away) k_mx<true>(xb, yb, n, kP4M3);
        else k_mx<false>(xb, yb, n, kP4M3);
        break;
      case Format::mxfp8_e5m2:
        if (away) k_mx<true>(xb, yb, n, kP5M2);
        else k_mx<false>(xb, yb, n, kP5M2);
        break;
      case Format::hif4:
        if (j.r == Rounding::nearest_even) k_hif4_unit<true>(xb, yb, n);
        else k_hif4_unit<false>(xb, yb, n);
        break;
      default: break;
    }
  }
}

__attribute__((target("avx2"))) void chunk_avx2(const Job& j, size_t b, size_t e) { chunk_body(j, b, e); }
void chunk_portable(const Job& j, size_t b, size_t e) { chunk_body(j, b, e); }

HIFSIM_AI void hif4_codes_body(const float* x, Hif4Unit& u, bool rne, bool cmp_bf16) {
  if (cmp_bf16) {
    if (rne) k_hif4_codes<true, true>(x, u);
    else k_hif4_codes<false, true>(x, u);
  } else {
    if (rne) k_hif4_codes<true, false>(x, u);
    else k_hif4_codes<false, false>(x, u);
  }
}
__attribute__((target("avx2"))) void hif4_codes_avx2(const float* x, Hif4Unit& u, bool rne, bool cmp_bf16) {
  hif4_codes_body(x, u, rne, cmp_bf16);
}
void hif4_codes_portable(const float* x, Hif4Unit& u, bool rne, bool cmp_bf16) { hif4_codes_body(x, u, rne, cmp_bf16); }
__attribute__((target("avx2"))) void hif4_codes_sr_avx2(const float* x, const uint32_t* r, unsigned B, Hif4Unit& u) {
  k_hif4_codes_sr(x, r, B, u);
}
void hif4_codes_sr_portable(const float* x, const uint32_t* r, unsigned B, Hif4Unit& u) { k_hif4_codes_sr(x, r, B, u); }

struct BlockCodes {
  const float* x;
  size_t n;
  uint8_t* codes;
  uint8_t* scale;
  ElemParams p;  // mx
  int sign_bit;  // mx
  bool away;     // mx
  const Nvfp4TensorScale* ts;  // nvfp4 when set
  NvfpRecipe recipe;
};
HIFSIM_AI void block_codes_body(const BlockCodes& b) {
  if (b.ts) k_nvfp4_codes(b.x, b.n, *b.ts, b.recipe, b.codes, *b.scale);
  else if (b.away) k_mx_codes<true>(b.x, b.n, b.p, b.sign_bit, b.codes, *b.scale);
  else k_mx_codes<false>(b.x, b.n, b.p, b.sign_bit, b.codes, *b.scale);
}
__attribute__((target("avx2"))) void block_codes_avx2(const BlockCodes& b) { block_codes_body(b); }
void block_codes_portable(const BlockCodes& b) { block_codes_body(b); }
void block_codes(const BlockCodes& b) {
  if (qdq_fast_isa() == QdqIsa::avx2) block_codes_avx2(b);
  else block_codes_portable(b);
}

// Groups of eight full NVFP4 blocks (nvfp4_quantize_blocks_fast); false where a group holds NaN
// or Inf (the caller takes those blocks one by one).
struct Nvfp4Codes8 {
  const float* x;
  const Nvfp4TensorScale* ts;
  NvfpRecipe recipe;
  uint8_t* codes;
  uint8_t* scales;
};
HIFSIM_AI bool nvfp4_codes8_body(const Nvfp4Codes8& j) {
  if (!all_finite(j.x, 128)) return false;
  k_nvfp4_codes8(j.x, *j.ts, j.recipe, j.codes, j.scales);
  return true;
}
__attribute__((target("avx2"))) bool nvfp4_codes8_avx2(const Nvfp4Codes8& j) { return nvfp4_codes8_body(j); }
bool nvfp4_codes8_portable(const Nvfp4Codes8& j) { return nvfp4_codes8_body(j); }

struct ElemCodes {
  Format f;
  const float* x;
  size_t n;
  Rounding r;
  bool sat;
  uint16_t* codes;
};
HIFSIM_AI void elem_codes_body(const ElemCodes& j) {
  const float* x = j.x;
  uint16_t* c = j.codes;
  const size_t n = j.n;
  const bool away = j.r == Rounding::nearest_away;
  switch (j.f) {
    case Format::bf16:
      if (j.r == Rounding::toward_zero) k_bf16_codes<true>(x, c, n);
      else k_bf16_codes<false>(x, c, n);
      return;
    case Format::hif8:
      if (away) {
        if (j.sat) k_hif8_codes<0, true>(x, c, n);
        else k_hif8_codes<0, false>(x, c, n);
      } else if (j.r == Rounding::nearest_even) {
        if (j.sat) k_hif8_codes<1, true>(x, c, n);
        else k_hif8_codes<1, false>(x, c, n);
      } else {
        if (j.sat) k_hif8_codes<2, true>(x, c, n);
        else k_hif8_codes<2, false>(x, c, n);
      }
      return;
    default: {
      const Fp8Codes& k = j.f == Format::fp8_e4m3 ? kC4M3 : kC5M2;
      if (away) {
        if (j.sat) k_fp8_codes<true, true>(x, c, n, k);
        else k_fp8_codes<true, false>(x, c, n, k);
      } else {
        if (j.sat) k_fp8_codes<false, true>(x, c, n, k);
        else k_fp8_codes<false, false>(x, c, n, k);
      }
      return;
    }
  }
}
__attribute__((target("avx2"))) void elem_codes_avx2(const ElemCodes& j) { elem_codes_body(j); }
void elem_codes_portable(const ElemCodes& j) { elem_codes_body(j); }

std::atomic<int> g_isa{static_cast<int>(QdqIsa::automatic)};

bool handled(Format f, Rounding r, const QuantOptions& o) {
  switch (f) {
    case Format::bf16: return r == Rounding::nearest_even || r == Rounding::toward_zero;
    case Format::hif8: return r == Rounding::nearest_away || r == Rounding::nearest_even || r == Rounding::toward_zero;
    case Format::fp8_e4m3: case Format::fp8_e5m2: case Format::fp4_e2m1:
      return r == Rounding::nearest_even || r == Rounding::nearest_away;
    case Format::mxfp4: case Format::mxfp8_e4m3: case Format::mxfp8_e5m2:
      return (r == Rounding::nearest_even || r == Rounding::nearest_away) && o.mx_scale_rule == MxScaleRule::floor;
    case Format::nvfp4: return r == Rounding::nearest_even && !o.nvfp4_2d && o.nvfp4_tensor_scale;
    case Format::hif4:
      return (r == Rounding::nearest_even || r == Rounding::nearest_away) && o.hif4_compare == Hif4Compare::exact &&
             !o.hif4_inf_to_nan && o.hif4_convention == Hif4Convention::official;
    default: return false;
  }
}

}  // namespace

bool qdq_fast_cpu_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

void qdq_fast_set_isa(QdqIsa isa) { g_isa = static_cast<int>(isa); }

QdqIsa qdq_fast_isa() {
  const QdqIsa want = static_cast<QdqIsa>(g_isa.load());
  if (want == QdqIsa::portable) return QdqIsa::portable;
  return qdq_fast_cpu_has_avx2() ? QdqIsa::avx2 : QdqIsa::portable;
}

const char* qdq_isa_name(QdqIsa isa) {
  switch (isa) {
    case QdqIsa::automatic: return "automatic";
    case QdqIsa::portable: return "portable";
    case QdqIsa::avx2: return "avx2";
  }
  return "?";
}

Hif4Unit hif4_quantize_fast(const float x[64], const Hif4Options& o) {
  const bool rne = o.element_rounding == Rounding::nearest_even;
  if ((!rne && o.element_rounding != Rounding::nearest_away) || o.inf_to_nan || o.bf16_scaled_element ||
      o.zero_scale_code)
    return hif4_quantize(x, o);
  const bool cmp_bf16 = o.compare == Hif4Compare::bf16_rounded;
  Hif4Unit u;
  if (qdq_fast_isa() == QdqIsa::avx2) hif4_codes_avx2(x, u, rne, cmp_bf16);
  else hif4_codes_portable(x, u, rne, cmp_bf16);
  return u;
}

bool hif4_quantize_sr_fast(const float x[64], const Hif4Options& o, const uint32_t* r, unsigned bits, Hif4Unit& u) {
  if (bits > 30 || o.compare != Hif4Compare::exact || o.inf_to_nan || o.bf16_scaled_element || o.zero_scale_code)
    return false;
  if (qdq_fast_isa() == QdqIsa::avx2) hif4_codes_sr_avx2(x, r, bits, u);
  else hif4_codes_sr_portable(x, r, bits, u);
  return true;
}

void mx_quantize_block_fast(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, uint8_t* codes,
                            uint8_t& scale) {
  const bool away = o.rounding == Rounding::nearest_away;
  const ElemParams* p = elem.ebits == 2 && elem.mbits == 1   ? &kP2M1
                        : elem.ebits == 4 && elem.mbits == 3 ? &kP4M3
                        : elem.ebits == 5 && elem.mbits == 2 ? &kP5M2
                                                             : nullptr;
  if (!p || (!away && o.rounding != Rounding::nearest_even) || o.scale_rule != MxScaleRule::floor || n > 32)
    return mx_quantize_block(elem, x, n, o, codes, scale);
  block_codes(BlockCodes{x, n, codes, &scale, *p, elem.sign_bit(), away, nullptr, {}});
}

namespace {
// A tensor scale the fast paths take: degenerate ones (an all-zero tensor) keep the reference's rules.
bool regular_tensor_scale(const Nvfp4TensorScale& ts) {
  return ts.decode > 0.0f && std::isfinite(ts.decode) && std::isfinite(ts.encode);
}
}  // namespace

void nvfp4_quantize_block_fast(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe, uint8_t* codes,
                               uint8_t& scale) {
  // NaN/Inf inputs and degenerate tensor scales keep the reference's rules.
  bool finite = n <= 16 && regular_tensor_scale(ts);
  for (size_t i = 0; i < n && finite; ++i) finite = std::isfinite(x[i]);
  if (!finite) return nvfp4_quantize_block(x, n, ts, recipe, codes, scale);
  block_codes(BlockCodes{x, n, codes, &scale, {}, 0, false, &ts, recipe});
}

void nvfp4_quantize_blocks_fast(const float* x, size_t nblocks, const Nvfp4TensorScale& ts, NvfpRecipe recipe,
                                uint8_t* codes, uint8_t* scales) {
  size_t i = 0;
  if (regular_tensor_scale(ts)) {
    const bool avx2 = qdq_fast_isa() == QdqIsa::avx2;
    for (; i + 8 <= nblocks; i += 8) {
      const Nvfp4Codes8 j{x + 16 * i, &ts, recipe, codes + 16 * i, scales + i};
      if (avx2 ? nvfp4_codes8_avx2(j) : nvfp4_codes8_portable(j)) continue;
      for (size_t t = i; t < i + 8; ++t) nvfp4_quantize_block_fast(x + 16 * t, 16, ts, recipe, codes + 16 * t, scales[t]);
    }
  }
  for (; i < nblocks; ++i) nvfp4_quantize_block_fast(x + 16 * i, 16, ts, recipe, codes + 16 * i, scales[i]);
}

bool nvfp4_scale_code_fast(float bmax, const Nvfp4TensorScale& ts, NvfpRecipe recipe, uint8_t& code, float* factor) {
  if (!regular_tensor_scale(ts)) return false;
  const Nvfp4BlockScale b = nvfp4_block_scale(bmax, ts, recipe);
  code = b.code;
  if (factor) *factor = b.factor;
  return true;
}

bool encode_codes_fast(Format f, const float* x, size_t n, Rounding r, bool saturate, uint16_t* codes) {
  const bool ok = f == Format::bf16   ? (r == Rounding::nearest_even || r == Rounding::toward_zero)
                  : f == Format::hif8 ? (r == Rounding::nearest_away || r == Rounding::nearest_even ||
                                         r == Rounding::toward_zero)
                  : (f == Format::fp8_e4m3 || f == Format::fp8_e5m2) &&
                        (r == Rounding::nearest_even || r == Rounding::nearest_away);
  if (!ok) return false;
  const ElemCodes j{f, x, n, r, saturate, codes};
  if (qdq_fast_isa() == QdqIsa::avx2) elem_codes_avx2(j);
  else elem_codes_portable(j);
  return true;
}

float nvfp4_checked_amax(const float* x, size_t rows, size_t cols, unsigned threads, const std::string& where) {
  // The largest |x| bit pattern is the bit pattern of the largest |x| (finite values); NaN and
  // Inf patterns lie above every finite one.
  std::atomic<uint32_t> amax{0};
  parallel_for(rows * cols, threads, [&](size_t b, size_t e) {
    uint32_t m = 0;
    for (size_t i = b; i < e; ++i) {
      const uint32_t a = ld(x + i) & 0x7FFFFFFFu;
      m = a > m ? a : m;
    }
    uint32_t cur = amax.load();
    while (m > cur && !amax.compare_exchange_weak(cur, m)) {
    }
  }, 1 << 16);
  if (amax.load() >= 0x7F800000u) check_representable(Format::nvfp4, x, rows, cols, where);  // throws
  return bits_f32(amax.load());
}

bool qdq_fast(Format f, const float* x, float* y, size_t rows, size_t cols, const QuantOptions& o) {
  const Rounding r = o.rounding ? *o.rounding : format_info(f).default_rounding;
  if (!handled(f, r, o)) return false;
  Job j{f, x, y, rows, cols, format_info(f).block, 0, r, o.saturate, o.nvfp4_recipe, {}};
  j.nb = (cols + j.blk - 1) / j.blk;
  if (f == Format::nvfp4) j.ts = nvfp4_tensor_scale(nvfp4_checked_amax(x, rows, cols, o.threads, "input"), o.nvfp4_recipe);
  const size_t units = j.blk == 1 ? rows * cols : rows * j.nb;
  const size_t min_chunk = j.blk == 1 ? (1u << 15) : std::max<size_t>(1, 16384 / j.blk);
  void (*fn)(const Job&, size_t, size_t) = qdq_fast_isa() == QdqIsa::avx2 ? chunk_avx2 : chunk_portable;
  parallel_for(units, o.threads, [&](size_t b, size_t e) { fn(j, b, e); }, min_chunk);
  return true;
}

}  // namespace hifsim::fmt
