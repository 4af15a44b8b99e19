// cosim_hif4_dot64: rtl/hif4_dot64.sv, Verilated in cosim/common/cosim_top.sv (STAGES=3; --sweep:
// STAGES 0, 1, 2, 4, 5), against its bench (model/verif/hif4_dot64_bench.cpp: the stimulus,
// hifsim::dp::Hif4Dot64 and the coverage bins).
#include "Vhif4_dot64_main.h"
#include "Vhif4_dot64_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: none (STAGES only).
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vhif4_dot64_main, Vhif4_dot64_sweep>(
      argc, argv, {"hif4_dot64", {{"STAGES"}}, 100000, 4000000, 20000});
}
