// Command-line options shared by every command that quantizes (quantize, gemm, trace, ...).
#pragma once
#include "args.hpp"
#include "formats/tensor.hpp"

namespace hifsim::cli {

// Declares --rounding, --saturate, --seed, --nvfp4-recipe, --hif4-compare, --hif4-inf,
// --mx-scale, --hybrid-compare, --hybrid-threshold, --threads.
void add_quant_options(ArgParser& p);
// Reads them back; errors name the option and the reason.
fmt::QuantOptions read_quant_options(const ArgParser& p);

}  // namespace hifsim::cli
