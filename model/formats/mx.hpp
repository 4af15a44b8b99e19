// OCP Microscaling v1.0 blocks: 32 elements (FP4 E2M1, FP8 E4M3 or E5M2) sharing one E8M0
// scale. ../shared/reference/mx-nvfp4-fp8.md section 3; docs/formats.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "formats/minifloat.hpp"

namespace hifsim::fmt {

constexpr int kMxBlock = 32;

// How the shared exponent is chosen from the block amax.
// Every published rule the project could source (docs/formats.md, "MX conventions").
enum class MxScaleRule {
  floor,      // OCP: floor(log2 amax) - emax_elem (default; microxcaling, torchao FLOOR)
  ceil,       // ceil(log2(amax / max_elem)) exactly: never clips (ARCQuant's MXFP4 path)
  rceil,      // NVIDIA (cuDNN/cuBLAS block scaling, PTX cvt.rp.ue8m0x2.f32, torchao RCEIL):
              // E8M0 = FP32 amax * FP32(1/max_elem) rounded up to a power of two
  pow2_ceil,  // torchao CEIL: ceil(log2 amax) - emax_elem (amax rounded up to a power of two)
  even,       // torchao EVEN (Modular compute_mxfp4_even_scale): amax rounded to the element's
              // mantissa bits (half up on the FP32 bits), then floor(log2) - emax_elem
};
const char* mx_scale_rule_name(MxScaleRule r);  // "floor", "ceil", "rceil", "pow2-ceil", "even"

// A named MX convention: a scale rule and an element rounding, as one published stack uses them.
struct MxConvention {
  const char* name;
  MxScaleRule rule;
  Rounding rounding;
  const char* source;
};
const std::vector<MxConvention>& mx_conventions();  // "ocp" (the default) first

struct MxOptions {
  Rounding rounding = Rounding::nearest_even;  // OCP recommendation and hardware; nearest_away = microxcaling
  MxScaleRule scale_rule = MxScaleRule::floor;
  const uint64_t* rbits = nullptr;  // Rounding::stochastic: one random word per element (sr_word)
};

// Largest exponent of the element format's normal range (E2M1 2, E4M3 8, E5M2 15).
int mx_emax(const MiniFloatSpec& elem);

// Quantizes n <= 32 values (missing ones count as zeros). Any NaN or Inf in the block makes
// the scale NaN (0xFF) and every element code 0 (project convention).
void mx_quantize_block(const MiniFloatSpec& elem, const float* x, size_t n, const MxOptions& o, uint8_t* codes,
                       uint8_t& scale);

// Dequantized element: elem value * 2^(scale - 127), exact in FP32 (or NaN for scale 0xFF).
float mx_dequantize(const MiniFloatSpec& elem, uint8_t code, uint8_t scale);

}  // namespace hifsim::fmt
