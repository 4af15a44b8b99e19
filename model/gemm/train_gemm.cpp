#include "gemm/train_gemm.hpp"

#include <immintrin.h>

#include <memory>

#include "formats/hadamard.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/transpose8.hpp"

namespace hifsim::dp {

const char* train_gemm_name(TrainGemmKind k) {
  switch (k) {
    case TrainGemmKind::fprop: return "fprop";
    case TrainGemmKind::dgrad: return "dgrad";
    case TrainGemmKind::wgrad: return "wgrad";
  }
  return "?";
}

uint32_t train_stream(uint32_t layer, TrainGemmKind k, int operand) {
  return 8u * layer + 2u * static_cast<uint32_t>(k) + static_cast<uint32_t>(operand & 1);
}

namespace {
// Rows [r0, r1) of x, element by element.
void transpose_rows(const float* x, float* t, size_t rows, size_t cols, size_t r0, size_t r1) {
  constexpr size_t kTile = 32;  // cache blocking; the result does not depend on it
  for (size_t ra = r0; ra < r1; ra += kTile)
    for (size_t c0 = 0; c0 < cols; c0 += kTile)
      for (size_t r = ra; r < r1 && r < ra + kTile; ++r)
        for (size_t c = c0; c < cols && c < c0 + kTile; ++c) t[c * rows + r] = x[r * cols + c];
}

// AVX2: 8 x 8 blocks through registers (8 row loads, unpack / shuffle / lane permute, 8 column
// stores) instead of one strided store per element; a copy, so the same bits. Edge columns and
// rows element by element.
__attribute__((target("avx2"))) void transpose_avx2(const float* x, float* t, size_t rows, size_t cols) {
  size_t r0 = 0;
  for (; r0 + 8 <= rows; r0 += 8) {
    size_t c0 = 0;
    for (; c0 + 8 <= cols; c0 += 8) {
      __m256 a[8];
      for (int i = 0; i < 8; ++i) a[i] = _mm256_loadu_ps(x + (r0 + i) * cols + c0);
      fmt::transpose8x8_avx2(a);
      for (int j = 0; j < 8; ++j) _mm256_storeu_ps(t + (c0 + j) * rows + r0, a[j]);
    }
    for (; c0 < cols; ++c0)
      for (size_t i = 0; i < 8; ++i) t[c0 * rows + r0 + i] = x[(r0 + i) * cols + c0];
  }
  transpose_rows(x, t, rows, cols, r0, rows);
}
}  // namespace

namespace {
// FP32 scratch that the transform or the transpose writes in full: no zeroing (a std::vector
// would memset it first; 4 MB per 1024 x 1024 operand).
using Scratch = std::unique_ptr<float[]>;
Scratch scratch(size_t n) { return Scratch(new float[n]); }

void transpose_into(const float* x, size_t rows, size_t cols, float* t) {
  if (fmt::qdq_fast_isa() == fmt::QdqIsa::avx2) transpose_avx2(x, t, rows, cols);
  else transpose_rows(x, t, rows, cols, 0, rows);
}

// The two operands' GEMM specs (each with its own quantization), validated.
void specs(const TrainGemmSpec& s, size_t K, GemmSpec& ga, GemmSpec& gb) {
  ga = gb = s.gemm;
  ga.quant = s.a;
  gb.quant = s.b;
  validate(ga);
  validate(gb);
  fmt::validate_rht(s.gemm.rht, K, "training GEMM");
}

// The RHT of A into ha and of B into hb (in place when ha == A, hb == B: rht_rows allows it), then
// both quantized and multiplied.
std::vector<float> rht_gemm(const float* A, float* ha, size_t M, const float* B, float* hb, size_t N, size_t K,
                            const GemmSpec& ga, const GemmSpec& gb) {
  fmt::rht_rows(ga.rht, A, ha, M, K, ga.threads);
  fmt::rht_rows(ga.rht, B, hb, N, K, ga.threads);
  return gemm_quantized(quantize_operand(ha, M, K, ga), quantize_operand(hb, N, K, gb), ga);
}

// train_gemm_nt of two operands it may overwrite (the transposed copies of dgrad and wgrad): the
// RHT in place, no third copy.
std::vector<float> train_gemm_nt_scratch(float* A, size_t M, float* B, size_t N, size_t K, const TrainGemmSpec& s) {
  GemmSpec ga, gb;
  specs(s, K, ga, gb);
  if (!s.gemm.rht.on()) return gemm_quantized(quantize_operand(A, M, K, ga), quantize_operand(B, N, K, gb), ga);
  return rht_gemm(A, A, M, B, B, N, K, ga, gb);
}
}  // namespace

std::vector<float> transpose(const float* x, size_t rows, size_t cols) {
  std::vector<float> t(rows * cols);
  transpose_into(x, rows, cols, t.data());
  return t;
}

std::vector<float> train_gemm_nt(const float* A, size_t M, const float* B, size_t N, size_t K, const TrainGemmSpec& s) {
  GemmSpec ga, gb;
  specs(s, K, ga, gb);
  if (!s.gemm.rht.on()) return gemm_quantized(quantize_operand(A, M, K, ga), quantize_operand(B, N, K, gb), ga);
  const Scratch ha = scratch(M * K), hb = scratch(N * K);
  return rht_gemm(A, ha.get(), M, B, hb.get(), N, K, ga, gb);
}

std::vector<float> fprop(const float* X, const float* W, size_t T, size_t I, size_t O, const TrainGemmSpec& s) {
  return train_gemm_nt(X, T, W, O, I, s);
}

std::vector<float> dgrad(const float* dY, const float* W, size_t T, size_t I, size_t O, const TrainGemmSpec& s) {
  const Scratch wt = scratch(I * O);  // I x O: W re-quantized along O
  transpose_into(W, O, I, wt.get());
  return train_gemm_nt(dY, T, wt.get(), I, O, s);
}

std::vector<float> wgrad(const float* dY, const float* X, size_t T, size_t I, size_t O, const TrainGemmSpec& s) {
  const Scratch dyt = scratch(O * T), xt = scratch(I * T);  // O x T, I x T: along T
  GemmSpec ga, gb;
  specs(s, T, ga, gb);
  // Transposed and transformed in one pass where the AVX2 kernel takes the shapes; else the
  // transposes, then the RHT in place: the same bits.
  const unsigned th = s.gemm.threads;
  if (fmt::rht_transpose_fast(s.gemm.rht, dY, dyt.get(), T, O, th) && fmt::rht_transpose_fast(s.gemm.rht, X, xt.get(), T, I, th))
    return gemm_quantized(quantize_operand(dyt.get(), O, T, ga), quantize_operand(xt.get(), I, T, gb), ga);
  transpose_into(dY, T, O, dyt.get());
  transpose_into(X, T, I, xt.get());
  return train_gemm_nt_scratch(dyt.get(), O, xt.get(), I, T, s);
}

}  // namespace hifsim::dp
