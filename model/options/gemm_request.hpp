// The bit-exact GEMM engine's options (`hifsim gemm`, trace, compare; Python gemm and dot): the
// quantizer options plus accumulator, alignment window, HiF8 lanes and kernel; the Rollout-ResQ
// residual options. Read into GemmOptions, then turned into a dp::GemmSpec for one format (the
// format-dependent checks: --align-* apply only to hif8 and bf16).
#pragma once
#include <optional>

#include "datapath/residual.hpp"
#include "gemm/gemm.hpp"
#include "options/option.hpp"

namespace hifsim::opt {

struct GemmOptions {
  fmt::QuantOptions quant;
  dp::AccSpec acc;
  int hif8_lanes = 64;
  std::optional<int> align_width;               // given: hif8/bf16 only
  std::optional<dp::AlignPolicy> align_policy;  // given: hif8/bf16 only
  dp::GemmKernel kernel = dp::GemmKernel::automatic;
  fmt::RhtSpec rht;                             // random Hadamard transform (docs/training.md)
  Spelling spelling;                            // how the front end names options (format checks)
};

// --acc, --align-width, --align-policy, --hif8-lanes, --kernel, --rht, --rht-seed, --rht-signs and the
// quantizer options.
const Options<GemmOptions>& gemm_options();
// The spec for format f (every cross-option check, dp::validate included).
dp::GemmSpec gemm_spec(const GemmOptions& o, fmt::Format f);

// --residual, --residual-mode.
const Options<dp::ResidualSpec>& residual_options();

}  // namespace hifsim::opt
