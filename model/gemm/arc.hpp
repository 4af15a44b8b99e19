// ARCQuant augmented residual channels as a GEMM transform (methods.md section 2;
// docs/datapath.md unit 8).
//
//   1. Calibration statistic per input channel: max over tokens of |x| (ARCQuant --act_sort_metric max).
//   2. Channel order: ascending argsort of the statistic (stable: equal values keep channel
//      order), so outlier channels go last.
//   3. S compensated channels, a multiple of the group G (the format's quantization block;
//      32 for element-wise formats): given, or "auto" -- per row thr = 0.125 * max|x|,
//      ratio = count(|x| > thr) / numel, S = ceil(K * ratio / G) * G, capped at K.
//   4. Activation: reorder, quantize, residual r = RNE_bf16(x - deq(q)) of the last S channels;
//      augmented K' = K + S layout [plain K-S | x_g, r_g, x_{g+1}, r_{g+1}, ...] (interleaved per group).
//   5. Weights: reorder the same way; each outlier group duplicated into its residual slot.
//   6. One standard GEMM over K' in the chosen format (group boundaries align with blocks, so the
//      duplicated weight groups get identical codes and scales, and NVFP4's tensor amax is unchanged).
#pragma once
#include <cstdint>
#include <vector>

#include "gemm/gemm.hpp"

namespace hifsim::dp {

struct ArcPlan {
  std::vector<uint32_t> order;  // channel order (ascending statistic; outliers last)
  size_t S = 0;                 // compensated channels (multiple of group)
  size_t group = 0;
  size_t K = 0;                 // padded K (a multiple of group)
};

size_t arc_group(fmt::Format f);
// Per-channel max |x| over rows.
std::vector<float> arc_channel_max(const float* x, size_t rows, size_t cols);
// S from the "auto" rule above.
size_t arc_auto_channels(const float* x, size_t rows, size_t cols, size_t group);
// S < 0 means auto. Throws hifsim::Error if S is not a multiple of the group or exceeds K.
ArcPlan arc_plan(const float* calib, size_t rows, size_t cols, long S, fmt::Format f);

// Augmented float operands (row-major, K' = plan.K + plan.S columns).
std::vector<float> arc_augment_activation(const float* x, size_t rows, size_t cols, const ArcPlan& plan,
                                          const GemmSpec& gs);
std::vector<float> arc_augment_weight(const float* w, size_t rows, size_t cols, const ArcPlan& plan);

// Y = X Wᵀ through the augmented GEMM. calib = x when no separate calibration set is given.
std::vector<float> gemm_arc(const float* X, size_t M, size_t K, const float* W, size_t N, const GemmSpec& gs,
                            const ArcPlan& plan);

}  // namespace hifsim::dp
