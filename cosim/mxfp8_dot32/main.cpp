// cosim_mxfp8_dot32: rtl/mxfp8_dot32.sv, Verilated in cosim/common/cosim_top.sv (E4M3 and E5M2 side
// by side at STAGES=3, every cut point; --sweep: STAGES 0..2), against its bench
// (model/verif/mxfp8_dot32_bench.cpp: the stimulus, hifsim::dp::Mxfp8Dot32 and the coverage bins).
#include "Vmxfp8_dot32_main.h"
#include "Vmxfp8_dot32_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: {E5M2[0]}.
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vmxfp8_dot32_main, Vmxfp8_dot32_sweep>(
      argc, argv, {"mxfp8_dot32", {{"E5M2", 0, 1}, {"STAGES"}}, 50000, 1000000, 3000});
}
