// One training step's maths for a llama2.c model: the forward pass and a hand-written backward,
// next-token cross-entropy averaged over the batch's tokens. RMSNorm, RoPE, attention (scores,
// causal softmax, P*V and their gradients), SwiGLU, the embedding and the loss in FP32 on the
// CPU; every linear-layer GEMM (the seven projections of each block and the classifier, which
// is the embedding matrix) through LinearGemms, i.e. the recipe's bit-exact engine.
//
// Deterministic for any thread count: parallel loops write disjoint outputs, every sum over
// tokens or heads runs in one thread in a fixed order (docs/training.md "Trainer").
#pragma once
#include <vector>

#include "train/linear_gemms.hpp"
#include "train/llama_weights.hpp"
#include "train/text_batches.hpp"

namespace hifsim::train {

// One gradient tensor per parameter (same order and shape as LlamaWeights::params).
using Gradients = std::vector<std::vector<float>>;

// Mean next-token loss of the batch; `grads` is resized and overwritten.
double loss_and_gradients(const LlamaWeights& w, const Batch& batch, LinearGemms& gemms, Gradients& grads);

}  // namespace hifsim::train
