// Quantizer conformance vectors per format x convention (hifsim vectors --all; docs/cosim.md
// "Conformance vectors per convention"): seeded FP32 blocks in, the packed block record out,
// from the model's quantizer (formats/tensor.hpp) under each named convention. For quantizers
// without RTL here (MX, NVFP4) and for the HiF4 conventions at the tensor interface.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "formats/tensor.hpp"

namespace hifsim::verif {

// One named convention of a block format: the options that select it.
struct FormatConvention {
  fmt::Format format;
  std::string name;    // "official", "ascend-a6", "ocp", "nvidia", "te", ...
  std::string option;  // the command-line options that select it ("" = the default)
  fmt::QuantOptions quant;
};
// Every convention of every block format (hif4, mxfp4, mxfp8-e4m3, mxfp8-e5m2, nvfp4).
std::vector<FormatConvention> format_conventions();

struct FormatVectors {
  std::string stimulus, expected, readme;  // $readmemh text, one block per line; README.md
  uint64_t vectors = 0;
  int stimulus_bits = 0, expected_bits = 0;
};
// `count` blocks (directed corners first, then seeded random: Gaussian, heavy-tailed, ties,
// tiny and huge blocks), quantized one block per tensor (NVFP4: the block is its own tensor, so
// its FP32 tensor scale is part of the expected record).
FormatVectors format_vectors(const FormatConvention& c, uint64_t count, uint64_t seed);

}  // namespace hifsim::verif
