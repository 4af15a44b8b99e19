#include "train/fp32_gemm.hpp"

#include "util/parallel.hpp"

namespace hifsim::train {

void fp32_gemm(const float* A, size_t M, size_t K, const float* B, size_t N, float* C, unsigned threads) {
  parallel_for(M, threads, [&](size_t m0, size_t m1) {
    for (size_t m = m0; m < m1; ++m) {
      const float* a = A + m * K;
      for (size_t n = 0; n < N; ++n) {
        const float* b = B + n * K;
        float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        size_t k = 0;
        for (; k + 8 <= K; k += 8)
          for (int j = 0; j < 8; ++j) s[j] += a[k + j] * b[k + j];
        for (int j = 0; k < K; ++k, ++j) s[j] += a[k] * b[k];
        C[m * N + n] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
      }
    }
  }, 16);
}

}  // namespace hifsim::train
