// AdamW (Loshchilov & Hutter, arXiv 1711.05101) with FP32 state, bias correction and decoupled
// weight decay applied to matrices only (not to the RMSNorm gains), as llama2.c's train.py
// configures torch.optim.AdamW. Element-wise (the v quantizer is thread-invariant), so the same
// bits for any thread count.
#pragma once
#include <optional>
#include <vector>

#include "formats/format.hpp"

#include "train/llama_step.hpp"

namespace hifsim::train {

struct AdamWConfig {
  float beta1 = 0.9f, beta2 = 0.95f, eps = 1e-8f, weight_decay = 0.1f;
  // Second-moment storage (Full-Stack FP4's question): after each update v (or sqrt(v) with
  // v_sqrt) is quantized and dequantized per parameter tensor in this format, blocks along each
  // row, round-to-nearest, and the stored value is what the update and the next step use.
  std::optional<fmt::Format> v_format;
  bool v_sqrt = false;
  // Instead: Li et al.'s zero-free linear 4-bit code with rank-1 normalisation (linear4_state.hpp).
  bool v_linear4_rank1 = false;
  unsigned threads = 0;
};

class AdamW {
 public:
  AdamW(const LlamaWeights& w, AdamWConfig cfg);
  // One update with learning rate lr; `grads` already clipped. step counts from 1.
  void update(LlamaWeights& w, const Gradients& grads, float lr, int step);

 private:
  void store_second_moment(std::vector<float>& v, size_t rows, size_t cols) const;
  AdamWConfig cfg_;
  std::vector<std::vector<float>> m_, v_;
};

}  // namespace hifsim::train
