// The FP32 GEMM of the trainer's FP32 paths (the fp32 recipe, the FP32 shadow, layers kept in
// FP32): C = A * B^T with A (M x K) and B (N x K) row-major. Each output is the sum of K FP32
// products in a fixed order -- eight interleaved partial sums (k mod 8), then added pairwise --
// computed by one thread, so the result does not depend on the thread count. Not a hardware
// model: the reference that low-precision GEMMs are compared against.
#pragma once
#include <cstddef>
#include <vector>

namespace hifsim::train {

void fp32_gemm(const float* A, size_t M, size_t K, const float* B, size_t N, float* C, unsigned threads);

}  // namespace hifsim::train
