#include "gemm/train_gemm.hpp"

#include "formats/hadamard.hpp"

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

std::vector<float> transpose(const float* x, size_t rows, size_t cols) {
  std::vector<float> t(rows * cols);
  constexpr size_t kTile = 32;  // cache blocking; the result does not depend on it
  for (size_t r0 = 0; r0 < rows; r0 += kTile)
    for (size_t c0 = 0; c0 < cols; c0 += kTile)
      for (size_t r = r0; r < rows && r < r0 + kTile; ++r)
        for (size_t c = c0; c < cols && c < c0 + kTile; ++c) t[c * rows + r] = x[r * cols + c];
  return t;
}

std::vector<float> train_gemm_nt(const float* A, size_t M, const float* B, size_t N, size_t K, const TrainGemmSpec& s) {
  GemmSpec ga = s.gemm, gb = s.gemm;
  ga.quant = s.a;
  gb.quant = s.b;
  validate(ga);
  validate(gb);
  fmt::validate_rht(s.gemm.rht, K, "training GEMM");
  if (!s.gemm.rht.on()) return gemm_quantized(quantize_operand(A, M, K, ga), quantize_operand(B, N, K, gb), ga);
  std::vector<float> ha(M * K), hb(N * K);
  fmt::rht_rows(s.gemm.rht, A, ha.data(), M, K, s.gemm.threads);
  fmt::rht_rows(s.gemm.rht, B, hb.data(), N, K, s.gemm.threads);
  return gemm_quantized(quantize_operand(ha.data(), M, K, ga), quantize_operand(hb.data(), N, K, gb), ga);
}

std::vector<float> fprop(const float* X, const float* W, size_t T, size_t I, size_t O, const TrainGemmSpec& s) {
  return train_gemm_nt(X, T, W, O, I, s);
}

std::vector<float> dgrad(const float* dY, const float* W, size_t T, size_t I, size_t O, const TrainGemmSpec& s) {
  const std::vector<float> wt = transpose(W, O, I);  // I x O: W re-quantized along O
  return train_gemm_nt(dY, T, wt.data(), I, O, s);
}

std::vector<float> wgrad(const float* dY, const float* X, size_t T, size_t I, size_t O, const TrainGemmSpec& s) {
  const std::vector<float> dyt = transpose(dY, T, O), xt = transpose(X, T, I);  // O x T, I x T: along T
  return train_gemm_nt(dyt.data(), O, xt.data(), I, T, s);
}

}  // namespace hifsim::dp
