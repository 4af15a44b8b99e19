// cosim_nvfp4_dot64: rtl/nvfp4_dot64.sv, Verilated in cosim/common/cosim_top.sv
// (STAGES=5, every cut point; --sweep: STAGES 0..4), against its bench
// (model/verif/nvfp4_dot64_bench.cpp: the stimulus, hifsim::dp::Nvfp4Dot64 and the coverage bins).
#include "Vnvfp4_dot64_main.h"
#include "Vnvfp4_dot64_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: none (STAGES only).
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vnvfp4_dot64_main, Vnvfp4_dot64_sweep>(
      argc, argv, {"nvfp4_dot64", {{"STAGES"}}, 60000, 1000000, 3000});
}
