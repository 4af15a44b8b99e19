// The one interface between the trainer and the recipes: every linear-layer GEMM of a training
// step -- fprop, dgrad, wgrad -- goes through LinearGemms::run, which quantizes both operands
// along this GEMM's own reduction axis K from their FP32 copies (a transposed operand is
// re-quantized, never reused from another GEMM) and runs the format's bit-exact GEMM engine
// (gemm/gemm.hpp, the engine of `hifsim gemm`), or the FP32 GEMM for fp32 rules.
//
// Random streams: the stochastic-rounding seed of an operand is counter-based on (run seed,
// step, GEMM number within the step, operand), and the GEMMs of a step are issued in a fixed
// order, so a run is the same bits for any thread count.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "train/recipe.hpp"

namespace hifsim::train {

// One linear-layer GEMM C (M x N) = A (M x K) * B^T (B: N x K) under the recipe's rule for `kind`
// and `layer` (a kept layer runs in keep_format, fp32 rules in the FP32 GEMM). Stochastic rounding
// of operand o draws from key counter_random(seed, 0x5EED0000 + step, 2 * call + o), stream o;
// no state, so any caller that numbers its GEMMs reproducibly gets the same bits (the trainer:
// call = issue order within the step; `hifsim trace --recipe`: step 0, call = the op's position
// in the trace).
void recipe_gemm(const Recipe& recipe, GemmKind kind, const std::string& layer, uint64_t seed, uint64_t step,
                 uint64_t call, unsigned threads, const float* A, size_t M, const float* B, size_t N, size_t K,
                 float* C);

class LinearGemms {
 public:
  // measure: also run the FP32 GEMM of the same operands and keep per-kind error sums.
  LinearGemms(const Recipe& recipe, uint64_t seed, unsigned threads, bool measure);
  void begin_step(uint64_t step);
  // C (M x N) = A (M x K) * B^T (B: N x K) as `kind` of `layer` ("layers.2.wq", "classifier").
  // For dgrad and wgrad A holds the gradient dY (dgrad: dY; wgrad: dY^T).
  void run(GemmKind kind, const std::string& layer, const float* A, size_t M, const float* B, size_t N, size_t K,
           float* C);
  // SQNR in dB of this step's `kind` outputs against the FP32 GEMMs of the same operands
  // (infinity when exact or not measured).
  double sqnr_db(GemmKind kind) const;
  unsigned threads() const { return threads_; }
  const Recipe& recipe() const { return recipe_; }

 private:
  const Recipe& recipe_;
  uint64_t seed_, step_ = 0, call_ = 0;
  unsigned threads_;
  bool measure_;
  std::array<double, 3> signal_{}, noise_{};
};

}  // namespace hifsim::train
