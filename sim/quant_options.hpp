// Command-line options shared by every command that quantizes (quantize, gemm, trace, ...).
#pragma once
#include "args.hpp"
#include "formats/tensor.hpp"

namespace hifsim::cli {

// Declares --rounding, --saturate, --seed, --nvfp4-recipe, --hif4-compare, --hif4-convention, --hif4-inf,
// --mx-scale, --hybrid-compare, --hybrid-threshold, --threads.
void add_quant_options(ArgParser& p);
// Reads them back; errors name the option and the reason.
fmt::QuantOptions read_quant_options(const ArgParser& p);

// The element-wise code options of `hifsim encode` (and hifsim.encode in Python): --rounding,
// --saturate, --seed, --hybrid-compare, --hybrid-threshold, --threads.
void add_code_options(ArgParser& p);
// Reads them back and checks them against the code format f.
fmt::QuantOptions read_code_options(const ArgParser& p, fmt::Format f);

}  // namespace hifsim::cli
