// The training GEMMs (gemm/train_gemm.hpp, docs/training.md): each GEMM quantized along its own
// reduction axis, checked on hand-computed MXFP4 cases where re-quantizing the transposed operand
// and re-using the forward pass's quantization differ; the random Hadamard transform with BF16
// within BF16 error of the exact product and different from the plain GEMM; stochastic rounding
// through the engine independent of the thread count.
// Mutations shown failing (docs/training.md): wgrad re-using the fprop quantization of X (quantize
// along I, then transpose the dequantized copy: dW = (4, 2.25) instead of (4.5, 2.25)); the RHT
// applied to A only (the BF16 + RHT result leaves the BF16 error bound).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "formats/qdq_fast.hpp"
#include "gemm/gemm_stats.hpp"
#include "gemm/train_gemm.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace hifsim;
using namespace hifsim::dp;

namespace {

// dgrad's and wgrad's FP32 transposes: element by element on both instruction-set paths, edge
// rows and columns (shapes not multiples of the AVX2 path's 8 x 8 blocks) included.
TEST(TrainGemm, TransposeIsElementByElementOnBothPaths) {
  for (fmt::QdqIsa isa : {fmt::QdqIsa::portable, fmt::QdqIsa::avx2}) {
    if (isa == fmt::QdqIsa::avx2 && !fmt::qdq_fast_cpu_has_avx2()) continue;
    fmt::qdq_fast_set_isa(isa);
    for (auto [rows, cols] : {std::pair<size_t, size_t>{1, 1}, {7, 9}, {8, 8}, {17, 40}, {64, 33}, {3, 24}}) {
      std::vector<float> x(rows * cols);
      for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) + 0.5f;
      const std::vector<float> t = transpose(x.data(), rows, cols);
      size_t bad = 0;
      for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) bad += t[c * rows + r] != x[r * cols + c];
      EXPECT_EQ(bad, 0u) << rows << " x " << cols << " " << fmt::qdq_isa_name(isa);
    }
  }
  fmt::qdq_fast_set_isa(fmt::QdqIsa::automatic);
}

TrainGemmSpec mxfp4_spec() {
  TrainGemmSpec s;
  s.gemm.format = fmt::Format::mxfp4;
  s.gemm.threads = 1;
  return s;
}

// X (T = 2 tokens x I = 2): row 1 is small, so along I it gets its own fine scale (2^-4) while
// along T it shares the coarse scale of row 0. Hand-computed, MXFP4 (floor scale, RNE E2M1):
//   wgrad, X along T: column (4, 0.3): scale 2^0, 0.3 -> 0.5; column (2, 0.2): scale 2^-1,
//     0.4 -> 0.5 -> 0.25. dY = (1, 1) exact. dW = (4 + 0.5, 2 + 0.25) = (4.5, 2.25).
//   re-using the fprop quantization (X along I): row (0.3, 0.2) at scale 2^-4: 4.8 -> 4, 3.2 -> 3:
//     (0.25, 0.1875), which would give dW = (4.25, 2.1875).
//   fprop with W = (1, 1): Y = (4 + 2, 0.25 + 0.1875) = (6, 0.4375).
TEST(TrainGemm, EachGemmQuantizesAlongItsOwnAxis) {
  const std::vector<float> X = {4.0f, 2.0f, 0.3f, 0.2f};
  const std::vector<float> dY = {1.0f, 1.0f};  // T x O, O = 1
  const std::vector<float> W = {1.0f, 1.0f};   // O x I
  const TrainGemmSpec s = mxfp4_spec();
  EXPECT_EQ(wgrad(dY.data(), X.data(), 2, 2, 1, s), (std::vector<float>{4.5f, 2.25f}));
  EXPECT_EQ(fprop(X.data(), W.data(), 2, 2, 1, s), (std::vector<float>{6.0f, 0.4375f}));
  // dgrad: W (O = 2 x I = 1) = (4, 0.3) re-quantized along O: (4, 0.5); dY = (1, 1) (T = 1).
  // dX = 4.5 (re-using W's fprop rows, each its own block: 4 + 0.25 = 4.25).
  const std::vector<float> W2 = {4.0f, 0.3f}, dY2 = {1.0f, 1.0f};
  EXPECT_EQ(dgrad(dY2.data(), W2.data(), 1, 1, 2, s), (std::vector<float>{4.5f}));
}

TEST(TrainGemm, StreamIdsAreDistinct) {
  std::vector<uint32_t> ids;
  for (uint32_t layer = 0; layer < 3; ++layer)
    for (auto k : {TrainGemmKind::fprop, TrainGemmKind::dgrad, TrainGemmKind::wgrad})
      for (int op = 0; op < 2; ++op) ids.push_back(train_stream(layer, k, op));
  std::vector<uint32_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
}

std::vector<float> normal(size_t n, uint64_t seed) { return normal_values(n, SplitMix64(seed)); }

TEST(TrainGemm, HadamardWithBf16StaysWithinBf16Error) {
  const size_t M = 6, N = 5, K = 256;
  std::vector<float> A = normal(M * K, 1), B = normal(N * K, 2);
  for (size_t i = 0; i < K; i += 17) A[i] *= 30.0f;  // outliers: what the transform spreads out
  const std::vector<double> exact = gemm_fp64(A.data(), M, K, B.data(), N, 1);
  for (unsigned n : {16u, 32u, 64u}) {
    TrainGemmSpec s;
    s.gemm.format = fmt::Format::bf16;
    s.gemm.threads = 2;
    const std::vector<float> plain = train_gemm_nt(A.data(), M, B.data(), N, K, s);
    s.gemm.rht = fmt::RhtSpec{n, 9, fmt::RhtSigns::random};
    const std::vector<float> rht = train_gemm_nt(A.data(), M, B.data(), N, K, s);
    size_t differ = 0;
    for (size_t m = 0; m < M; ++m)
      for (size_t j = 0; j < N; ++j) {
        double na = 0, nb = 0;
        for (size_t k = 0; k < K; ++k) {
          na += double(A[m * K + k]) * A[m * K + k];
          nb += double(B[j * K + k]) * B[j * K + k];
        }
        // Two BF16 roundings of the transformed operands (2^-9 each, relative), the FP32
        // transform and accumulation: |err| <= 2^-8 (1 + 2^-4) ||a|| ||b||.
        const double bound = std::ldexp(1.0625, -8) * std::sqrt(na * nb);
        EXPECT_LE(std::fabs(rht[m * N + j] - exact[m * N + j]), bound) << "N " << n << " (" << m << ", " << j << ")";
        differ += rht[m * N + j] != plain[m * N + j];
      }
    EXPECT_GT(differ, M * N / 2) << "N " << n << ": the transform changes the rounding";
  }
}

TEST(TrainGemm, HadamardKMustBeAMultipleOfN) {
  std::vector<float> A(2 * 40, 1.0f), B(2 * 40, 1.0f);
  TrainGemmSpec s = mxfp4_spec();
  s.gemm.rht.n = 16;
  EXPECT_THROW(train_gemm_nt(A.data(), 2, B.data(), 2, 40, s), hifsim::Error);
}

TEST(TrainGemm, StochasticGemmIsThreadInvariant) {
  const size_t T = 48, I = 128, O = 40;
  const std::vector<float> dY = normal(T * O, 3), X = normal(T * I, 4);
  for (fmt::Format f : {fmt::Format::hif4, fmt::Format::nvfp4, fmt::Format::mxfp4, fmt::Format::bf16}) {
    TrainGemmSpec s;
    s.gemm.format = f;
    s.gemm.rht = fmt::RhtSpec{16, 5, fmt::RhtSigns::random};
    s.a.rounding = s.b.rounding = fmt::Rounding::stochastic;
    s.a.seed = s.b.seed = 99;
    s.a.sr_stream = train_stream(0, TrainGemmKind::wgrad, 0);
    s.b.sr_stream = train_stream(0, TrainGemmKind::wgrad, 1);
    s.gemm.threads = s.a.threads = s.b.threads = 1;
    const std::vector<float> one = wgrad(dY.data(), X.data(), T, I, O, s);
    s.gemm.threads = s.a.threads = s.b.threads = 3;
    EXPECT_EQ(one, wgrad(dY.data(), X.data(), T, I, O, s)) << fmt::format_info(f).name;
    // AVX2: transposed and transformed in one pass (rht_transpose_fast); portable: two passes.
    fmt::qdq_fast_set_isa(fmt::QdqIsa::portable);
    EXPECT_EQ(one, wgrad(dY.data(), X.data(), T, I, O, s)) << fmt::format_info(f).name << " portable";
    fmt::qdq_fast_set_isa(fmt::QdqIsa::automatic);
  }
}

}  // namespace
