// An 8 x 8 block of FP32 transposed in AVX2 registers (unpack, shuffle, 128-bit lane permute): a
// copy, so the same bits. Shared by the training GEMM's transposes (gemm/train_gemm.cpp) and the
// transposing Hadamard transform (formats/hadamard.cpp).
#pragma once
#include <immintrin.h>

namespace hifsim::fmt {

// a[i] = row i on entry; a[j] = column j on return.
__attribute__((target("avx2"), always_inline)) inline void transpose8x8_avx2(__m256 a[8]) {
  __m256 u[8], s[8];
  for (int i = 0; i < 8; i += 2) {
    u[i] = _mm256_unpacklo_ps(a[i], a[i + 1]);
    u[i + 1] = _mm256_unpackhi_ps(a[i], a[i + 1]);
  }
  for (int h = 0; h < 8; h += 4) {  // rows 0-3, then 4-7: columns 0-3 of each 128-bit half
    s[h + 0] = _mm256_shuffle_ps(u[h + 0], u[h + 2], 0x44);
    s[h + 1] = _mm256_shuffle_ps(u[h + 0], u[h + 2], 0xEE);
    s[h + 2] = _mm256_shuffle_ps(u[h + 1], u[h + 3], 0x44);
    s[h + 3] = _mm256_shuffle_ps(u[h + 1], u[h + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    a[j] = _mm256_permute2f128_ps(s[j], s[j + 4], 0x20);
    a[j + 4] = _mm256_permute2f128_ps(s[j], s[j + 4], 0x31);
  }
}

}  // namespace hifsim::fmt
