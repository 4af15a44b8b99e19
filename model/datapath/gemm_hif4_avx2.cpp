// AVX2 HiF4 GEMM micro-kernel: one row of A against 8 rows of B. Compiled with -mavx2 and
// called only when the CPU supports AVX2 (gemm_avx2_available()).
//
// Per 64-block: the integer I = sum qA*qB of 64 int8 (|q| <= 28) via maddubs (|qA| x sign-
// adjusted qB, pair sums <= 1568: no saturation) and madd (to int32); 8 outputs' partial
// vectors are reduced with hadd into one vector of 8 I values, converted to float (exact,
// |I| <= 50176), multiplied by fA * fB (exact) and added to 8 FP32 accumulators (RNE per lane:
// exactly the sequential per-output accumulation of the portable kernel).
#include <immintrin.h>

#include "datapath/gemm_kernels.hpp"

namespace hifsim::dp {

namespace {
inline __m256i dot64_partial(__m256i a_abs0, __m256i a0, __m256i a_abs1, __m256i a1, const int8_t* b) {
  const __m256i ones = _mm256_set1_epi16(1);
  const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
  const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32));
  const __m256i p0 = _mm256_maddubs_epi16(a_abs0, _mm256_sign_epi8(b0, a0));
  const __m256i p1 = _mm256_maddubs_epi16(a_abs1, _mm256_sign_epi8(b1, a1));
  return _mm256_madd_epi16(_mm256_add_epi16(p0, p1), ones);  // 16-bit sums <= 3136: no overflow
}
}  // namespace

void hif4_avx2_row_x8(const int8_t* qa, const float* sa, const int8_t* const qb[8], const float* sb8, size_t nblk,
                      float* out8) {
  __m256 acc = _mm256_setzero_ps();
  for (size_t b = 0; b < nblk; ++b) {
    const int8_t* a = qa + b * 64;
    const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));
    const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 32));
    const __m256i aa0 = _mm256_abs_epi8(a0), aa1 = _mm256_abs_epi8(a1);
    __m256i v[8];
    for (int j = 0; j < 8; ++j) v[j] = dot64_partial(aa0, a0, aa1, a1, qb[j] + b * 64);
    const __m256i s01 = _mm256_hadd_epi32(v[0], v[1]), s23 = _mm256_hadd_epi32(v[2], v[3]);
    const __m256i s45 = _mm256_hadd_epi32(v[4], v[5]), s67 = _mm256_hadd_epi32(v[6], v[7]);
    const __m256i s0123 = _mm256_hadd_epi32(s01, s23), s4567 = _mm256_hadd_epi32(s45, s67);
    const __m256i I = _mm256_add_epi32(_mm256_permute2x128_si256(s0123, s4567, 0x20),
                                       _mm256_permute2x128_si256(s0123, s4567, 0x31));
    const __m256 scale = _mm256_mul_ps(_mm256_set1_ps(sa[b]), _mm256_loadu_ps(sb8 + b * 8));
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_cvtepi32_ps(I), scale));
  }
  _mm256_storeu_ps(out8, acc);
}

}  // namespace hifsim::dp
