// The three GEMMs of a linear layer Y = X * W^T in training (docs/training.md, "The three GEMMs"),
// each quantized along its own reduction axis. X: T x I (tokens x in), W: O x I, dY: T x O.
//   fprop  Y  = X * W^T      (T x O)  K = I: A = X,    B = W
//   dgrad  dX = dY * W       (T x I)  K = O: A = dY,   B = W^T  re-quantized along O
//   wgrad  dW = dY^T * X     (O x I)  K = T: A = dY^T, B = X^T  both re-quantized along T
// A transposed operand is transposed in FP32 and quantized afresh from that high-precision copy,
// never reused from another GEMM's quantized tensor (what a training unit must do). Each operand
// has its own quantization options (a recipe rounds gradients stochastically, weights to
// nearest), and the GEMM's random Hadamard transform applies to both operands along its K.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gemm/gemm.hpp"

namespace hifsim::dp {

enum class TrainGemmKind : uint8_t { fprop, dgrad, wgrad };
const char* train_gemm_name(TrainGemmKind k);  // "fprop", "dgrad", "wgrad"

struct TrainGemmSpec {
  GemmSpec gemm;            // format, accumulator, kernel, threads, rht (gemm.quant is not used)
  fmt::QuantOptions a, b;   // operand A's and operand B's quantization (seed, sr_stream, rounding...)
};

// The stochastic-rounding stream id of an operand (docs/training.md): 8 * layer + 2 * kind +
// operand (0 = A, 1 = B), so no two tensors of a training step share random bits.
uint32_t train_stream(uint32_t layer, TrainGemmKind k, int operand);

// rows x cols -> cols x rows, FP32 (exact).
std::vector<float> transpose(const float* x, size_t rows, size_t cols);

// C = A * B^T with A (M x K) and B (N x K) given in FP32: the RHT of s.gemm.rht, then A quantized
// with s.a and B with s.b along K, then the bit-exact engine.
std::vector<float> train_gemm_nt(const float* A, size_t M, const float* B, size_t N, size_t K, const TrainGemmSpec& s);

std::vector<float> fprop(const float* X, const float* W, size_t T, size_t I, size_t O, const TrainGemmSpec& s);
std::vector<float> dgrad(const float* dY, const float* W, size_t T, size_t I, size_t O, const TrainGemmSpec& s);
std::vector<float> wgrad(const float* dY, const float* X, size_t T, size_t I, size_t O, const TrainGemmSpec& s);

}  // namespace hifsim::dp
