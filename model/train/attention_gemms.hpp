// The attention GEMMs of a training step under a recipe's attention scheme (docs/training.md,
// "Attention"): `fp32` runs all six in the FP32 GEMM; `full_stack_fp4` (Full-Stack FP4, arXiv
// 2607.04422, ../shared/reference/methods.md 3.4) quantizes Q, K, V and dS to NVFP4, so
// S = Q*K^T, dQ = dS*K and dK = dS^T*Q run through the NVFP4 engine (round-to-nearest, 1x16
// blocks along each GEMM's own K), while O = P*V, dV = P^T*dO and dP = dO*V^T run through the BF16
// engine (block-scaled P loses its small probabilities; dP's error is multiplied into dS).
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "train/recipe.hpp"

namespace hifsim::train {

enum class AttentionGemm { qk, pv, dp, dv, dq, dk };
// The trace op names attn_qk, attn_pv, attn_dp, attn_dv, attn_dq, attn_dk; nullopt otherwise.
std::optional<AttentionGemm> attention_gemm_from_op(const std::string& op);
// The engine format of this attention GEMM under the recipe (nullopt: the FP32 GEMM).
std::optional<fmt::Format> attention_format(const Recipe& r, AttentionGemm g);

// C (M x N) = A (M x K) * B^T (B: N x K) for one head, in the format attention_format gives.
void attention_gemm(const Recipe& r, AttentionGemm g, unsigned threads, const float* A, size_t M, const float* B,
                    size_t N, size_t K, float* C);

}  // namespace hifsim::train
