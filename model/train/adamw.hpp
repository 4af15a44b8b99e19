// AdamW (Loshchilov & Hutter, arXiv 1711.05101) with FP32 state, bias correction and decoupled
// weight decay applied to matrices only (not to the RMSNorm gains), as llama2.c's train.py
// configures torch.optim.AdamW. Element-wise, so thread-invariant by construction.
#pragma once
#include <vector>

#include "train/llama_step.hpp"

namespace hifsim::train {

struct AdamWConfig {
  float beta1 = 0.9f, beta2 = 0.95f, eps = 1e-8f, weight_decay = 0.1f;
};

class AdamW {
 public:
  AdamW(const LlamaWeights& w, AdamWConfig cfg);
  // One update with learning rate lr; `grads` already clipped. step counts from 1.
  void update(LlamaWeights& w, const Gradients& grads, float lr, int step);

 private:
  AdamWConfig cfg_;
  std::vector<std::vector<float>> m_, v_;
};

}  // namespace hifsim::train
