// NVIDIA NVFP4: 16 x E2M1 elements + one E4M3 block scale, plus one FP32 per-tensor scale.
// Two recipes (../shared/reference/mx-nvfp4-fp8.md section 4; docs/formats.md):
//   te      -- TransformerEngine / cuBLAS, FP32-input path (default)
//   torchao -- pytorch/ao nvfp4_quantize
#pragma once
#include <cstddef>
#include <cstdint>

namespace hifsim::fmt {

constexpr int kNvfp4Block = 16;

enum class NvfpRecipe { te, torchao };

// Per-tensor scales. `decode` multiplies dequantized block values (S_dec for TE, the
// per-tensor scale for torchao); `encode` is TE's S_enc (unused by torchao).
struct Nvfp4TensorScale {
  float encode = 1.0f;
  float decode = 1.0f;
};

// From the tensor amax (finite, >= 0). amax = 0 gives encode = decode = 1 in both recipes.
Nvfp4TensorScale nvfp4_tensor_scale(float amax, NvfpRecipe recipe);

// Quantizes n <= 16 finite values (missing ones are zeros): 16 E2M1 codes + an E4M3 scale code.
// With `rbits` (one random word per element, formats/stochastic.hpp) the elements round
// stochastically; the scale stays round-to-nearest. `block_amax` >= 0 replaces the block's own
// amax (the 16 x 16 weight blocks: one amax shared by 16 rows).
void nvfp4_quantize_block(const float* x, size_t n, const Nvfp4TensorScale& ts, NvfpRecipe recipe, uint8_t* codes,
                          uint8_t& scale, const uint64_t* rbits = nullptr, float block_amax = -1.0f);

// (e2m1 * e4m3) exactly, then * decode scale rounded once to FP32 (RNE).
float nvfp4_dequantize(uint8_t code, uint8_t scale, float decode_scale);

}  // namespace hifsim::fmt
