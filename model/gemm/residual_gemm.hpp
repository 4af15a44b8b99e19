// The GEMM with the Rollout-ResQ residual correction of datapath/residual.hpp (methods.md
// section 1): the operands Q(X) and S(Q(R)), the fake-quantized activation, and
// Y = Q(X) Q(W)ᵀ + S(Q(R)) Q(W)ᵀ fused (one accumulator over [Xq | Rs]) or unfused (two GEMMs
// from +0.0, then one FP32 RNE add).
#pragma once
#include <cstddef>
#include <vector>

#include "datapath/residual.hpp"
#include "gemm/gemm.hpp"

namespace hifsim::dp {

struct ResidualOperands {
  fmt::QTensor main;      // Q(X)
  fmt::QTensor residual;  // S(Q(R))
};
ResidualOperands make_residual_operands(const float* x, size_t rows, size_t cols, const GemmSpec& gs,
                                        const ResidualSpec& rs);

// The corrected activation as values (fake quantization with the residual, as the model-level
// perplexity uses it): y = deq(Q(X)) + deq(S(Q(R))), rows x cols, one FP32 addition per
// element; kind none gives quantize_dequantize with gs.quant.
void residual_quantize_dequantize(const float* x, size_t rows, size_t cols, const GemmSpec& gs, const ResidualSpec& rs,
                                  float* y);

// Y = Q(X) Q(W)ᵀ (+ the residual term), M x N.
std::vector<float> gemm_with_residual(const float* X, size_t M, size_t K, const float* W, size_t N,
                                      const GemmSpec& gs, const ResidualSpec& rs);

}  // namespace hifsim::dp
