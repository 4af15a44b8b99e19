// The quantizer's options (fmt::QuantOptions): `hifsim quantize`, gemm, trace, compare and the
// Python functions quantize/quantize_dequantize/gemm/dot; the element-code subset of `hifsim
// encode` / hifsim.encode. Cross-option checks against a format stay in fmt::validate_options.
#pragma once
#include "formats/tensor.hpp"
#include "options/option.hpp"

namespace hifsim::opt {

// --rounding, --saturate, --seed, --sr-bits, --sr-stream, --hybrid-compare, --hybrid-threshold, --threads.
const Options<fmt::QuantOptions>& code_options();
// The code options plus --nvfp4-recipe, --hif4-convention, --hif4-compare, --hif4-inf, --mx-convention,
// --mx-scale, --nvfp4-2d, --nvfp4-tensor-scale.
const Options<fmt::QuantOptions>& quant_options();

}  // namespace hifsim::opt
