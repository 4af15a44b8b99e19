// Command-line options of the bit-exact GEMM engine, shared by gemm, trace and compare.
#pragma once
#include <string>
#include <vector>

#include "args.hpp"
#include "datapath/residual.hpp"
#include "gemm/gemm.hpp"

namespace hifsim::cli {

// --acc, --align-width, --align-policy, --hif8-lanes, --kernel (plus the quantizer options).
void add_gemm_options(ArgParser& p);
// Fills everything but the format.
dp::GemmSpec read_gemm_options(const ArgParser& p, fmt::Format f);
// A comma list of tensor formats (--formats); errors name the unknown one and list the choices.
std::vector<fmt::Format> parse_tensor_formats(const std::string& list);
// --residual, --residual-mode
void add_residual_options(ArgParser& p);
dp::ResidualSpec read_residual_options(const ArgParser& p);

}  // namespace hifsim::cli
