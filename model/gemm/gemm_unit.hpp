// The dot unit a GEMM spec runs on, as the hardware descriptions take it (datapath/hw.hpp): the
// engine's lanes and window applied to the unit. Here, not in hw.hpp, because the units never
// use the engine.
#pragma once
#include "datapath/hw.hpp"
#include "gemm/gemm.hpp"

namespace hifsim::dp::hw {

DotParams dot_params(const GemmSpec& g, int stages);

}  // namespace hifsim::dp::hw
