// The few vector operations the GEMM tile kernels need, once per CPU variant. Included only
// by gemm_variant_*.cpp, each of which defines HIFSIM_VARIANT_NS (its own namespace, so no
// function here is shared between translation units compiled with different target flags)
// and one of HIFSIM_VARIANT_PORTABLE / _AVX2 / _AVX512 before including this file (the avxvnni
// variant defines _AVX2 and _AVXVNNI: the AVX2 operations with the ymm VNNI dot products).
//
// Vector types: VI (L int32 lanes), VF (L floats), VD (LD doubles), VH (LD floats).
// Every product the kernels form is exact, so fma_exact(a, b, c) may be fused or not: a*b+c
// rounds once either way.
#pragma once
#include <cstdint>
#include <cstring>

#if defined(HIFSIM_VARIANT_AVX2) || defined(HIFSIM_VARIANT_AVX512)
#include <immintrin.h>
#endif

namespace hifsim::dp::HIFSIM_VARIANT_NS {

#define HIFSIM_INLINE inline __attribute__((always_inline))

#if defined(HIFSIM_VARIANT_AVX512)
struct Isa {
  static constexpr int L = 16, LD = 8;
  static constexpr int kPairGroups = 0;  // dot4 is one instruction: no int16 stage
  using VI = __m512i;
  using VF = __m512;
  using VD = __m512d;
  using VH = __m256;
  // ---- int32 ----
  static HIFSIM_INLINE VI set1_i(int32_t x) { return _mm512_set1_epi32(x); }
  static HIFSIM_INLINE VI load_i(const void* p) { return _mm512_loadu_si512(p); }
  static HIFSIM_INLINE VI bcast4(const int8_t* p) {
    int32_t x;
    std::memcpy(&x, p, 4);
    return _mm512_set1_epi32(x);
  }
  // acc[l] += sum_j b[4l+j] * a[4l+j]: b unsigned bytes, a signed bytes (vpdpbusd, no saturation).
  static HIFSIM_INLINE VI dot4(VI acc, VI b_u8, VI a_s8) { return _mm512_dpbusd_epi32(acc, b_u8, a_s8); }
  static HIFSIM_INLINE VI add_i(VI a, VI b) { return _mm512_add_epi32(a, b); }
  static HIFSIM_INLINE VI mullo_i(VI a, VI b) { return _mm512_mullo_epi32(a, b); }
  static HIFSIM_INLINE VI sllv_i(VI a, VI count) { return _mm512_sllv_epi32(a, count); }
  static HIFSIM_INLINE void store_i(int32_t* p, VI x) { _mm512_storeu_si512(p, x); }
  // Lanes whose |x| > limit, as a bit mask.
  static HIFSIM_INLINE unsigned abs_gt(VI x, int32_t limit) {
    return _mm512_cmpgt_epi32_mask(_mm512_abs_epi32(x), _mm512_set1_epi32(limit));
  }
  // Lanes that are not zero, as a bit mask.
  static HIFSIM_INLINE unsigned nonzero(VI x) { return _mm512_test_epi32_mask(x, x); }
  // The fp integer kernel's operations (gemm_kernels_fpi.hpp).
  static HIFSIM_INLINE VI zero_i() { return _mm512_setzero_si512(); }
  // acc + per int32 lane the two int16 products of b and a: one vpdpwssd (no saturation, 32-bit
  // wrap-around like vpmaddwd + vpaddd; the fp integer kernel proves the sum is below 2^31).
  static HIFSIM_INLINE VI madd16(VI acc, VI b, VI a) { return _mm512_dpwssd_epi32(acc, b, a); }
  static HIFSIM_INLINE unsigned le_i(VI x, int32_t hi) { return _mm512_cmple_epi32_mask(x, _mm512_set1_epi32(hi)); }
  static HIFSIM_INLINE unsigned in_range_i(VI x, int32_t lo, int32_t hi) {
    return _mm512_cmpge_epi32_mask(x, _mm512_set1_epi32(lo)) & _mm512_cmple_epi32_mask(x, _mm512_set1_epi32(hi));
  }
  static HIFSIM_INLINE unsigned le_f(VF x, float lim) { return _mm512_cmp_ps_mask(x, _mm512_set1_ps(lim), _CMP_LE_OQ); }
  static HIFSIM_INLINE VF pow2_f(VI e) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(e, _mm512_set1_epi32(127)), 23)); }
  // ---- float ----
  static HIFSIM_INLINE VF zero_f() { return _mm512_setzero_ps(); }
  static HIFSIM_INLINE VF set1_f(float x) { return _mm512_set1_ps(x); }
  static HIFSIM_INLINE VF load_f(const float* p) { return _mm512_loadu_ps(p); }
  static HIFSIM_INLINE void store_f(float* p, VF x) { _mm512_storeu_ps(p, x); }
  static HIFSIM_INLINE VF cvt_f(VI x) { return _mm512_cvtepi32_ps(x); }
  static HIFSIM_INLINE VF mul_f(VF a, VF b) { return _mm512_mul_ps(a, b); }
  static HIFSIM_INLINE VF add_f(VF a, VF b) { return _mm512_add_ps(a, b); }
  static HIFSIM_INLINE VF fma_exact_f(VF a, VF b, VF c) { return _mm512_fmadd_ps(a, b, c); }
  // Lanes where x is not in [lo, hi] (NaN included), as a bit mask.
  static HIFSIM_INLINE unsigned outside_f(VF x, float lo, float hi) {
    return static_cast<unsigned>(static_cast<__mmask16>(~(_mm512_cmp_ps_mask(x, _mm512_set1_ps(lo), _CMP_GE_OQ) &
                                                          _mm512_cmp_ps_mask(x, _mm512_set1_ps(hi), _CMP_LE_OQ))));
  }
  // NaN lanes replaced by the canonical quiet NaN 0x7FC00000.
  static HIFSIM_INLINE VF canon_nan_f(VF x) {
    return _mm512_mask_mov_ps(x, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm512_castsi512_ps(_mm512_set1_epi32(0x7FC00000)));
  }
  // ---- double ----
  static HIFSIM_INLINE VD zero_d() { return _mm512_setzero_pd(); }
  static HIFSIM_INLINE VD set1_d(double x) { return _mm512_set1_pd(x); }
  static HIFSIM_INLINE VD load_d(const double* p) { return _mm512_loadu_pd(p); }
  static HIFSIM_INLINE void store_d(double* p, VD x) { _mm512_storeu_pd(p, x); }
  static HIFSIM_INLINE VD cvt_d_lo(VI x) { return _mm512_cvtepi32_pd(_mm512_castsi512_si256(x)); }
  static HIFSIM_INLINE VD cvt_d_hi(VI x) { return _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(x, 1)); }
  static HIFSIM_INLINE VD mul_d(VD a, VD b) { return _mm512_mul_pd(a, b); }
  static HIFSIM_INLINE VD add_d(VD a, VD b) { return _mm512_add_pd(a, b); }
  static HIFSIM_INLINE VD sub_d(VD a, VD b) { return _mm512_sub_pd(a, b); }
  static HIFSIM_INLINE VD abs_d(VD a) { return _mm512_abs_pd(a); }
  static HIFSIM_INLINE VD fma_exact_d(VD a, VD b, VD c) { return _mm512_fmadd_pd(a, b, c); }
  // a*b + c, used only for error bounds (which carry a margin for a second rounding).
  static HIFSIM_INLINE VD fma_d(VD a, VD b, VD c) { return _mm512_fmadd_pd(a, b, c); }
  // Lanes where a <= b, as a bit mask; x with those lanes set to +0.
  static HIFSIM_INLINE unsigned le_bits_d(VD a, VD b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
  static HIFSIM_INLINE VD zero_le_d(VD x, VD a, VD b) {
    return _mm512_maskz_mov_pd(static_cast<__mmask8>(~_mm512_cmp_pd_mask(a, b, _CMP_LE_OQ)), x);
  }
  static HIFSIM_INLINE VD max_d(VD a, VD b) { return _mm512_max_pd(a, b); }
  static HIFSIM_INLINE VD floor_d(VD a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  // 2^e for integer-valued e in [-1022, 1023].
  static HIFSIM_INLINE VD pow2_d(VD e) { return _mm512_scalef_pd(_mm512_set1_pd(1.0), e); }
  // Sign bit of s applied to the non-negative x.
  static HIFSIM_INLINE VD copysign_d(VD x, VD s) {
    return _mm512_castsi512_pd(_mm512_or_si512(
        _mm512_castpd_si512(x), _mm512_and_si512(_mm512_castpd_si512(s), _mm512_set1_epi64(INT64_MIN))));
  }
  // Where t != x (bits dropped), the odd number 2 * floor(x / 2) + 1 (the sticky jam), else x.
  static HIFSIM_INLINE VD jam_d(VD x, VD t) {
    const __mmask8 dropped = _mm512_cmp_pd_mask(x, t, _CMP_NEQ_OQ);
    const VD odd = _mm512_fmadd_pd(_mm512_set1_pd(2.0), floor_d(_mm512_mul_pd(x, _mm512_set1_pd(0.5))), _mm512_set1_pd(1.0));
    return _mm512_mask_mov_pd(t, dropped, odd);
  }
  // ---- double -> float (RNE, subnormals kept: MXCSR default) ----
  static HIFSIM_INLINE VF f_from_dd(VD lo, VD hi) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
  }
  static HIFSIM_INLINE VH h_from_d(VD x) { return _mm512_cvtpd_ps(x); }
  static HIFSIM_INLINE VH load_h(const float* p) { return _mm256_loadu_ps(p); }
  static HIFSIM_INLINE void store_h(float* p, VH x) { _mm256_storeu_ps(p, x); }
  static HIFSIM_INLINE VH add_h(VH a, VH b) { return _mm256_add_ps(a, b); }
  // Lanes where a and b have identical bits, as a bit mask.
  static HIFSIM_INLINE unsigned same_bits_h(VH a, VH b) {
    return _mm256_cmpeq_epi32_mask(_mm256_castps_si256(a), _mm256_castps_si256(b));
  }
};
#elif defined(HIFSIM_VARIANT_AVX2)
struct Isa {
  static constexpr int L = 8, LD = 4;
#if defined(HIFSIM_VARIANT_AVXVNNI)
  static constexpr int kPairGroups = 0;  // dot4 is one vpdpbusd ymm: no int16 stage
#else
  // vpmaddubsw pair sums (|.| <= 3136) are added in int16 for 8 groups of 4 k (<= 25088, no
  // overflow) before one vpmaddwd widens them: 2 instead of 3 instructions per group.
  static constexpr int kPairGroups = 8;
#endif
  using VI = __m256i;
  using VF = __m256;
  using VD = __m256d;
  using VH = __m128;
  static HIFSIM_INLINE VI set1_i(int32_t x) { return _mm256_set1_epi32(x); }
  static HIFSIM_INLINE VI load_i(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static HIFSIM_INLINE VI bcast4(const int8_t* p) {
    int32_t x;
    std::memcpy(&x, p, 4);
    return _mm256_set1_epi32(x);
  }
#if defined(HIFSIM_VARIANT_AVXVNNI)
  // acc[l] += sum_j b[4l+j] * a[4l+j]: b unsigned bytes, a signed bytes (VEX vpdpbusd, no
  // saturation, the sum wraps like vpaddd): the same int32 as the AVX-512 variant's dot4.
  static HIFSIM_INLINE VI dot4(VI acc, VI b_u8, VI a_s8) { return _mm256_dpbusd_avx_epi32(acc, b_u8, a_s8); }
#else
  // vpmaddubsw pairs (|b*a + b*a| <= 2 * 56 * 28 = 3136 for every code range here: never
  // saturates), then vpmaddwd against ones to int32.
  static HIFSIM_INLINE VI dot4(VI acc, VI b_u8, VI a_s8) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(b_u8, a_s8), _mm256_set1_epi16(1)));
  }
#endif
  static HIFSIM_INLINE VI add_i(VI a, VI b) { return _mm256_add_epi32(a, b); }
  static HIFSIM_INLINE VI mullo_i(VI a, VI b) { return _mm256_mullo_epi32(a, b); }
  static HIFSIM_INLINE VI sllv_i(VI a, VI count) { return _mm256_sllv_epi32(a, count); }
  static HIFSIM_INLINE void store_i(int32_t* p, VI x) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x); }
  static HIFSIM_INLINE VI zero_i() { return _mm256_setzero_si256(); }
  static HIFSIM_INLINE VI pairs(VI b_u8, VI a_s8) { return _mm256_maddubs_epi16(b_u8, a_s8); }
  // The empty asm keeps GCC from re-associating the chain into a tree of 32 live pair vectors
  // (it spilled them all to the stack).
  static HIFSIM_INLINE VI add16(VI a, VI b) {
    VI r = _mm256_add_epi16(a, b);
    __asm__("" : "+x"(r));
    return r;
  }
  static HIFSIM_INLINE VI widen_add(VI acc, VI p16) { return _mm256_add_epi32(acc, _mm256_madd_epi16(p16, _mm256_set1_epi16(1))); }
  // acc + per int32 lane the two int16 products of b and a (vpmaddwd). Wrapping, like vpaddd:
  // the sum is exact modulo 2^32 (the fp integer kernel proves it is below 2^31).
#if defined(HIFSIM_VARIANT_AVXVNNI)
  // One VEX vpdpwssd: the two products summed into acc with 32-bit wrap-around, the same int32.
  static HIFSIM_INLINE VI madd16(VI acc, VI b, VI a) { return _mm256_dpwssd_avx_epi32(acc, b, a); }
#else
  static HIFSIM_INLINE VI madd16(VI acc, VI b, VI a) { return _mm256_add_epi32(acc, _mm256_madd_epi16(b, a)); }
#endif
  // Lanes with x <= hi, as a bit mask.
  static HIFSIM_INLINE unsigned le_i(VI x, int32_t hi) {
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(hi + 1), x))));
  }
  // Lanes with lo <= x <= hi, as a bit mask.
  static HIFSIM_INLINE unsigned in_range_i(VI x, int32_t lo, int32_t hi) {
    const __m256i in = _mm256_andnot_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(lo), x), _mm256_cmpgt_epi32(_mm256_set1_epi32(hi + 1), x));
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(in)));
  }
  static HIFSIM_INLINE unsigned abs_gt(VI x, int32_t limit) {
    const __m256i gt = _mm256_cmpgt_epi32(_mm256_abs_epi32(x), _mm256_set1_epi32(limit));
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(gt)));
  }
  static HIFSIM_INLINE unsigned nonzero(VI x) {
    const __m256i z = _mm256_cmpeq_epi32(x, _mm256_setzero_si256());
    return ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(z))) & 0xFFu;
  }
  static HIFSIM_INLINE VF zero_f() { return _mm256_setzero_ps(); }
  static HIFSIM_INLINE VF set1_f(float x) { return _mm256_set1_ps(x); }
  static HIFSIM_INLINE VF load_f(const float* p) { return _mm256_loadu_ps(p); }
  static HIFSIM_INLINE void store_f(float* p, VF x) { _mm256_storeu_ps(p, x); }
  static HIFSIM_INLINE VF cvt_f(VI x) { return _mm256_cvtepi32_ps(x); }
  static HIFSIM_INLINE VF mul_f(VF a, VF b) { return _mm256_mul_ps(a, b); }
  static HIFSIM_INLINE VF add_f(VF a, VF b) { return _mm256_add_ps(a, b); }
  static HIFSIM_INLINE VF fma_exact_f(VF a, VF b, VF c) { return _mm256_fmadd_ps(a, b, c); }
  // Lanes with x <= lim (NaN: no), as a bit mask.
  static HIFSIM_INLINE unsigned le_f(VF x, float lim) {
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(x, _mm256_set1_ps(lim), _CMP_LE_OQ)));
  }
  // 2^e for e in [-126, 127] (the exponent field).
  static HIFSIM_INLINE VF pow2_f(VI e) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(127)), 23)); }
  static HIFSIM_INLINE unsigned outside_f(VF x, float lo, float hi) {
    const __m256 in = _mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(lo), _CMP_GE_OQ), _mm256_cmp_ps(x, _mm256_set1_ps(hi), _CMP_LE_OQ));
    return ~static_cast<unsigned>(_mm256_movemask_ps(in)) & 0xFFu;
  }
  static HIFSIM_INLINE VF canon_nan_f(VF x) {
    return _mm256_blendv_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
  }
  static HIFSIM_INLINE VD zero_d() { return _mm256_setzero_pd(); }
  static HIFSIM_INLINE VD set1_d(double x) { return _mm256_set1_pd(x); }
  static HIFSIM_INLINE VD load_d(const double* p) { return _mm256_loadu_pd(p); }
  static HIFSIM_INLINE void store_d(double* p, VD x) { _mm256_storeu_pd(p, x); }
  static HIFSIM_INLINE VD cvt_d_lo(VI x) { return _mm256_cvtepi32_pd(_mm256_castsi256_si128(x)); }
  static HIFSIM_INLINE VD cvt_d_hi(VI x) { return _mm256_cvtepi32_pd(_mm256_extracti128_si256(x, 1)); }
  static HIFSIM_INLINE VD mul_d(VD a, VD b) { return _mm256_mul_pd(a, b); }
  static HIFSIM_INLINE VD add_d(VD a, VD b) { return _mm256_add_pd(a, b); }
  static HIFSIM_INLINE VD sub_d(VD a, VD b) { return _mm256_sub_pd(a, b); }
  static HIFSIM_INLINE VD abs_d(VD a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
  static HIFSIM_INLINE VD fma_exact_d(VD a, VD b, VD c) { return _mm256_fmadd_pd(a, b, c); }
  static HIFSIM_INLINE VD fma_d(VD a, VD b, VD c) { return _mm256_fmadd_pd(a, b, c); }
  static HIFSIM_INLINE unsigned le_bits_d(VD a, VD b) {
    return static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(a, b, _CMP_LE_OQ)));
  }
  static HIFSIM_INLINE VD zero_le_d(VD x, VD a, VD b) { return _mm256_andnot_pd(_mm256_cmp_pd(a, b, _CMP_LE_OQ), x); }
  static HIFSIM_INLINE VD max_d(VD a, VD b) { return _mm256_max_pd(a, b); }
  static HIFSIM_INLINE VD floor_d(VD a) { return _mm256_floor_pd(a); }
  // 2^e for integer-valued e in [-1022, 1023]: e + 1023 lands in the low mantissa bits of
  // e + (2^52 + 1023); shifting them into the exponent field gives 2^e.
  static HIFSIM_INLINE VD pow2_d(VD e) {
    const __m256i bits = _mm256_castpd_si256(_mm256_add_pd(e, _mm256_set1_pd(0x1p52 + 1023.0)));
    return _mm256_castsi256_pd(_mm256_slli_epi64(bits, 52));
  }
  static HIFSIM_INLINE VD copysign_d(VD x, VD s) {
    return _mm256_or_pd(x, _mm256_and_pd(s, _mm256_set1_pd(-0.0)));
  }
  static HIFSIM_INLINE VD jam_d(VD x, VD t) {
    const VD dropped = _mm256_cmp_pd(x, t, _CMP_NEQ_OQ);
    const VD odd = _mm256_fmadd_pd(_mm256_set1_pd(2.0), floor_d(_mm256_mul_pd(x, _mm256_set1_pd(0.5))), _mm256_set1_pd(1.0));
    return _mm256_blendv_pd(t, odd, dropped);
  }
  static HIFSIM_INLINE VF f_from_dd(VD lo, VD hi) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
  }
  static HIFSIM_INLINE VH h_from_d(VD x) { return _mm256_cvtpd_ps(x); }
  static HIFSIM_INLINE VH load_h(const float* p) { return _mm_loadu_ps(p); }
  static HIFSIM_INLINE void store_h(float* p, VH x) { _mm_storeu_ps(p, x); }
  static HIFSIM_INLINE VH add_h(VH a, VH b) { return _mm_add_ps(a, b); }
  static HIFSIM_INLINE unsigned same_bits_h(VH a, VH b) {
    return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(a), _mm_castps_si128(b)))));
  }
};
#else
// Portable C++: the same operations on small arrays (the compiler may vectorise them for the
// baseline ISA). Double -> float conversions are C++ casts (IEEE round to nearest even).
struct Isa {
  static constexpr int L = 8, LD = 4;
  static constexpr int kPairGroups = 0;
  struct VI { int32_t v[8]; };
  struct VF { float v[8]; };
  struct VD { double v[4]; };
  struct VH { float v[4]; };
  static HIFSIM_INLINE VI set1_i(int32_t x) {
    VI r;
    for (int l = 0; l < L; ++l) r.v[l] = x;
    return r;
  }
  static HIFSIM_INLINE VI load_i(const void* p) {
    VI r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static HIFSIM_INLINE VI bcast4(const int8_t* p) {
    int32_t x;
    std::memcpy(&x, p, 4);
    return set1_i(x);
  }
  static HIFSIM_INLINE VI dot4(VI acc, VI b_u8, VI a_s8) {
    for (int l = 0; l < L; ++l) {
      uint8_t b[4];
      int8_t a[4];
      std::memcpy(b, &b_u8.v[l], 4);
      std::memcpy(a, &a_s8.v[l], 4);
      const int32_t d = b[0] * a[0] + b[1] * a[1] + b[2] * a[2] + b[3] * a[3];  // |d| < 2^17
      acc.v[l] = static_cast<int32_t>(static_cast<uint32_t>(acc.v[l]) + static_cast<uint32_t>(d));  // wraps like vpaddd
    }
    return acc;
  }
  static HIFSIM_INLINE VI add_i(VI a, VI b) {  // wraps like vpaddd (no signed overflow)
    for (int l = 0; l < L; ++l) a.v[l] = static_cast<int32_t>(static_cast<uint32_t>(a.v[l]) + static_cast<uint32_t>(b.v[l]));
    return a;
  }
  static HIFSIM_INLINE VI mullo_i(VI a, VI b) {  // the low 32 bits, wrapping like vpmulld (no signed overflow)
    for (int l = 0; l < L; ++l)
      a.v[l] = static_cast<int32_t>(static_cast<uint32_t>(a.v[l]) * static_cast<uint32_t>(b.v[l]));
    return a;
  }
  static HIFSIM_INLINE VI sllv_i(VI a, VI count) {
    for (int l = 0; l < L; ++l) a.v[l] = static_cast<int32_t>(static_cast<uint32_t>(a.v[l]) << count.v[l]);
    return a;
  }
  static HIFSIM_INLINE void store_i(int32_t* p, VI x) { std::memcpy(p, x.v, sizeof x.v); }
  static HIFSIM_INLINE VI zero_i() { return set1_i(0); }
  static HIFSIM_INLINE VI madd16(VI acc, VI b, VI a) {
    for (int l = 0; l < L; ++l) {
      int16_t x[2], y[2];
      std::memcpy(x, &b.v[l], 4);
      std::memcpy(y, &a.v[l], 4);
      const uint32_t s = static_cast<uint32_t>(acc.v[l]) + static_cast<uint32_t>(x[0] * y[0]) + static_cast<uint32_t>(x[1] * y[1]);
      acc.v[l] = static_cast<int32_t>(s);  // wraps like vpaddd
    }
    return acc;
  }
  static HIFSIM_INLINE unsigned le_i(VI x, int32_t hi) {
    unsigned m = 0;
    for (int l = 0; l < L; ++l)
      if (x.v[l] <= hi) m |= 1u << l;
    return m;
  }
  static HIFSIM_INLINE unsigned in_range_i(VI x, int32_t lo, int32_t hi) {
    unsigned m = 0;
    for (int l = 0; l < L; ++l)
      if (x.v[l] >= lo && x.v[l] <= hi) m |= 1u << l;
    return m;
  }
  static HIFSIM_INLINE unsigned le_f(VF x, float lim) {
    unsigned m = 0;
    for (int l = 0; l < L; ++l)
      if (x.v[l] <= lim) m |= 1u << l;
    return m;
  }
  static HIFSIM_INLINE VF pow2_f(VI e) {
    VF r;
    for (int l = 0; l < L; ++l) {
      const uint32_t bits = static_cast<uint32_t>(e.v[l] + 127) << 23;
      std::memcpy(&r.v[l], &bits, 4);
    }
    return r;
  }
  static HIFSIM_INLINE unsigned outside_f(VF x, float lo, float hi) {
    unsigned m = 0;
    for (int l = 0; l < L; ++l)
      if (!(x.v[l] >= lo && x.v[l] <= hi)) m |= 1u << l;
    return m;
  }
  static HIFSIM_INLINE unsigned abs_gt(VI x, int32_t limit) {
    unsigned m = 0;
    for (int l = 0; l < L; ++l)
      if ((x.v[l] < 0 ? -x.v[l] : x.v[l]) > limit) m |= 1u << l;
    return m;
  }
  static HIFSIM_INLINE unsigned nonzero(VI x) {
    unsigned m = 0;
    for (int l = 0; l < L; ++l)
      if (x.v[l] != 0) m |= 1u << l;
    return m;
  }
  static HIFSIM_INLINE VF zero_f() { return set1_f(0.0f); }
  static HIFSIM_INLINE VF set1_f(float x) {
    VF r;
    for (int l = 0; l < L; ++l) r.v[l] = x;
    return r;
  }
  static HIFSIM_INLINE VF load_f(const float* p) {
    VF r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static HIFSIM_INLINE void store_f(float* p, VF x) { std::memcpy(p, x.v, sizeof x.v); }
  static HIFSIM_INLINE VF cvt_f(VI x) {
    VF r;
    for (int l = 0; l < L; ++l) r.v[l] = static_cast<float>(x.v[l]);
    return r;
  }
  static HIFSIM_INLINE VF mul_f(VF a, VF b) {
    for (int l = 0; l < L; ++l) a.v[l] *= b.v[l];
    return a;
  }
  static HIFSIM_INLINE VF add_f(VF a, VF b) {
    for (int l = 0; l < L; ++l) a.v[l] += b.v[l];
    return a;
  }
  static HIFSIM_INLINE VF fma_exact_f(VF a, VF b, VF c) { return add_f(mul_f(a, b), c); }
  static HIFSIM_INLINE VF canon_nan_f(VF x) {
    const uint32_t q = 0x7FC00000u;
    for (int l = 0; l < L; ++l)
      if (x.v[l] != x.v[l]) std::memcpy(&x.v[l], &q, 4);
    return x;
  }
  static HIFSIM_INLINE VD zero_d() { return set1_d(0.0); }
  static HIFSIM_INLINE VD set1_d(double x) {
    VD r;
    for (int l = 0; l < LD; ++l) r.v[l] = x;
    return r;
  }
  static HIFSIM_INLINE VD load_d(const double* p) {
    VD r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static HIFSIM_INLINE void store_d(double* p, VD x) { std::memcpy(p, x.v, sizeof x.v); }
  static HIFSIM_INLINE VD cvt_d_lo(VI x) {
    VD r;
    for (int l = 0; l < LD; ++l) r.v[l] = x.v[l];
    return r;
  }
  static HIFSIM_INLINE VD cvt_d_hi(VI x) {
    VD r;
    for (int l = 0; l < LD; ++l) r.v[l] = x.v[LD + l];
    return r;
  }
  static HIFSIM_INLINE VD mul_d(VD a, VD b) {
    for (int l = 0; l < LD; ++l) a.v[l] *= b.v[l];
    return a;
  }
  static HIFSIM_INLINE VD add_d(VD a, VD b) {
    for (int l = 0; l < LD; ++l) a.v[l] += b.v[l];
    return a;
  }
  static HIFSIM_INLINE VD sub_d(VD a, VD b) {
    for (int l = 0; l < LD; ++l) a.v[l] -= b.v[l];
    return a;
  }
  static HIFSIM_INLINE VD abs_d(VD a) {
    for (int l = 0; l < LD; ++l) a.v[l] = __builtin_fabs(a.v[l]);
    return a;
  }
  static HIFSIM_INLINE VD fma_exact_d(VD a, VD b, VD c) { return add_d(mul_d(a, b), c); }
  // Only used for error bounds (which carry a margin for it): two roundings are fine.
  static HIFSIM_INLINE VD fma_d(VD a, VD b, VD c) { return add_d(mul_d(a, b), c); }
  static HIFSIM_INLINE unsigned le_bits_d(VD a, VD b) {
    unsigned m = 0;
    for (int l = 0; l < LD; ++l) m |= (a.v[l] <= b.v[l] ? 1u : 0u) << l;
    return m;
  }
  static HIFSIM_INLINE VD zero_le_d(VD x, VD a, VD b) {
    for (int l = 0; l < LD; ++l)
      if (a.v[l] <= b.v[l]) x.v[l] = 0.0;
    return x;
  }
  static HIFSIM_INLINE VD max_d(VD a, VD b) {
    for (int l = 0; l < LD; ++l) a.v[l] = a.v[l] > b.v[l] ? a.v[l] : b.v[l];
    return a;
  }
  static HIFSIM_INLINE VD floor_d(VD a) {
    for (int l = 0; l < LD; ++l) a.v[l] = __builtin_floor(a.v[l]);
    return a;
  }
  static HIFSIM_INLINE VD pow2_d(VD e) {
    for (int l = 0; l < LD; ++l) e.v[l] = __builtin_ldexp(1.0, static_cast<int>(e.v[l]));
    return e;
  }
  static HIFSIM_INLINE VD copysign_d(VD x, VD s) {
    for (int l = 0; l < LD; ++l) x.v[l] = __builtin_copysign(x.v[l], s.v[l]);
    return x;
  }
  static HIFSIM_INLINE VD jam_d(VD x, VD t) {
    for (int l = 0; l < LD; ++l)
      if (x.v[l] != t.v[l]) t.v[l] = 2.0 * __builtin_floor(x.v[l] * 0.5) + 1.0;
    return t;
  }
  static HIFSIM_INLINE VF f_from_dd(VD lo, VD hi) {
    VF r;
    for (int l = 0; l < LD; ++l) {
      r.v[l] = static_cast<float>(lo.v[l]);
      r.v[LD + l] = static_cast<float>(hi.v[l]);
    }
    return r;
  }
  static HIFSIM_INLINE VH h_from_d(VD x) {
    VH r;
    for (int l = 0; l < LD; ++l) r.v[l] = static_cast<float>(x.v[l]);
    return r;
  }
  static HIFSIM_INLINE VH load_h(const float* p) {
    VH r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static HIFSIM_INLINE void store_h(float* p, VH x) { std::memcpy(p, x.v, sizeof x.v); }
  static HIFSIM_INLINE VH add_h(VH a, VH b) {
    for (int l = 0; l < LD; ++l) a.v[l] += b.v[l];
    return a;
  }
  static HIFSIM_INLINE unsigned same_bits_h(VH a, VH b) {
    unsigned m = 0;
    for (int l = 0; l < LD; ++l) m |= (std::memcmp(&a.v[l], &b.v[l], 4) == 0 ? 1u : 0u) << l;
    return m;
  }
};
#endif

}  // namespace hifsim::dp::HIFSIM_VARIANT_NS
