// `hifsim train` as one call: fine-tune a llama2.c model (stories260K) on the shipped text for N
// steps under a recipe, every linear-layer GEMM through the recipe's bit-exact engine, and report
// per step the loss, the gradient norm, the SQNR of all weight gradients against an FP32 shadow
// step (same weights, same batch, FP32 GEMMs) and the per-kind SQNR of the step's GEMM outputs
// against FP32 GEMMs of the same operands (docs/training.md "Trainer").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "train/llama_weights.hpp"
#include "train/recipe.hpp"

namespace hifsim::train {

struct TrainRequest {
  std::string checkpoint;      // llama2.c file
  std::string text;            // the training text (bytes -> tokens: text_batches.hpp)
  Recipe recipe;
  int steps = 200;
  int batch = 4, seq_len = 64;  // tokens per step = batch * seq_len
  uint64_t seed = 0;
  unsigned threads = 0;
  float lr = 1e-3f, min_lr_fraction = 0.1f, grad_clip = 1.0f;
  int warmup = 10;
  bool shadow = true;          // the FP32 shadow step and per-kind SQNR (not for the fp32 recipe)
  bool keep_first_gradients = false;  // return step 1's gradients and batch (the torch check)
};

struct TrainRow {
  int step = 0;                // 1-based
  double loss = 0, grad_norm = 0, grad_sqnr_db = 0, lr = 0, seconds = 0;
  double kind_sqnr_db[3] = {0, 0, 0};  // fprop, dgrad, wgrad
  double shadow_loss = 0;      // the FP32 shadow's loss on the same weights (= loss for fp32)
};

struct TrainOutcome {
  std::vector<TrainRow> rows;
  double final_loss = 0;       // mean loss of the last min(10, steps) steps
  std::string csv;             // loss.csv
  std::string svg;             // loss.svg
  double seconds = 0;
  size_t parameters = 0;
  std::string checkpoint_hash;
  std::vector<Param> first_gradients;  // keep_first_gradients: step 1's gradient of every parameter
  std::vector<int> first_inputs, first_targets;
  double first_loss = 0;
};

// The llama2.c checkpoint of `--model`: "stories260k" -> $HIFSIM_DATA/stories260K.bin, else
// ../shared/data/stories260K.bin beside the data folder (the layout python/hifsim/capture uses),
// else /work/shared/data/stories260K.bin (scripts/capture/ensure_traces.sh searches the same);
// "llama2c:PATH" -> PATH. Throws hifsim::Error for anything else.
std::string checkpoint_path(const std::string& model);

// learning rate of step s (1-based): linear warmup, then cosine to lr * min_lr_fraction.
float learning_rate(const TrainRequest& r, int step);
TrainOutcome run_training(const TrainRequest& r);
// The loss plot (SVG), one or more named curves.
std::string loss_svg(const std::vector<std::pair<std::string, std::vector<double>>>& curves, const std::string& title);

}  // namespace hifsim::train
