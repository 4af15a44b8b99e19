// Training recipes as files (configs/recipes/*.yaml, docs/training.md "Recipes"): for each GEMM
// kind of a linear layer -- fprop Y = X*W^T, dgrad dX = dY*W, wgrad dW = dY^T*X -- the format its
// bit-exact engine runs, the rounding of the gradient operand and of the other operand, the
// random Hadamard transform size and the weight block shape; the layers kept in a higher
// precision; the attention scheme; Rollout-ResQ; the optimizer's second-moment storage.
//
// One reader (load_recipe) shared by train, trace and compare. Unknown keys and bad values are
// hifsim::Error(file, field, reason); the loader checks what a recipe says, the commands say
// what they cannot run yet (check_trainable).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "formats/format.hpp"

namespace hifsim::train {

enum class GemmKind { fprop = 0, dgrad = 1, wgrad = 2 };
inline constexpr std::array<GemmKind, 3> kGemmKinds = {GemmKind::fprop, GemmKind::dgrad, GemmKind::wgrad};
const char* gemm_kind_name(GemmKind k);  // "fprop", "dgrad", "wgrad"

enum class OperandRounding { nearest, stochastic };  // nearest = the format's round-to-nearest

struct KindRecipe {
  std::optional<fmt::Format> format;  // unset: "fp32", the FP32 reference GEMM (no engine)
  OperandRounding rounding = OperandRounding::nearest;           // activations and weights
  OperandRounding gradient_rounding = OperandRounding::nearest;  // dY (dgrad, wgrad only)
  int rht = 0;                       // 0 = none; else 16, 32 or 64 along this GEMM's K
  bool rht_random_signs = true;      // random sign vector per seed, or a fixed (deterministic) one
  bool weight_blocks_2d = false;     // NVFP4 16x16 weight blocks (fprop, dgrad)
  bool pow2_tensor_scale = false;    // each operand times 2^e (its RMS brought to ~1) before
                                     // quantization, the product times 2^-(eA+eB): exact rescaling
  std::string format_name() const;   // "fp32" or the format's name
};

enum class AttentionScheme { fp32, full_stack_fp4 };

struct Recipe {
  std::string name, path, description;
  std::array<KindRecipe, 3> kinds;  // indexed by GemmKind
  // Linear layers run in keep_format instead (all three kinds, round-to-nearest): names are
  // "classifier", "layers.N" (every projection of block N) or "layers.N.wq" and so on.
  std::vector<std::string> keep_layers;
  std::optional<fmt::Format> keep_format;  // unset = fp32
  AttentionScheme attention = AttentionScheme::fp32;
  bool rollout_resq = false;               // rollout forwards only (trace/compare); not a training step
  std::string rollout_resq_sparsity = "2:4";
  std::optional<fmt::Format> second_moment;  // AdamW v stored in this format (unset: fp32)
  bool second_moment_sqrt = false;           // store sqrt(v) quantized, square it back (transform)
  bool second_moment_linear4 = false;      // second_moment: linear4-rank1 (Li et al., train/linear4_state.hpp)
  std::vector<std::string> sources;        // citations, free text

  const KindRecipe& kind(GemmKind k) const { return kinds[static_cast<int>(k)]; }
  bool keeps(const std::string& layer) const;  // layer: "classifier" or "layers.3.wq"
};

// `name_or_path`: a file path, or a name looked up as configs/recipes/<name>.yaml in the data
// folder (util/install.hpp).
Recipe load_recipe(const std::string& name_or_path);
// The recipe names shipped in configs/recipes (sorted), for messages.
std::vector<std::string> shipped_recipe_names();

// What this build of `hifsim train` cannot run yet: throws hifsim::Error(recipe path, field,
// "not yet: ...") naming the first such rule.
void check_trainable(const Recipe& r);

}  // namespace hifsim::train
