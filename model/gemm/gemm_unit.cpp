#include "gemm/gemm_unit.hpp"

namespace hifsim::dp::hw {

DotParams dot_params(const GemmSpec& g, int stages) { return dot_params(g.format, dot_width(g), effective_align(g), stages); }

}  // namespace hifsim::dp::hw
