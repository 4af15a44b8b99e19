// cosim_mxfp4_dot64: rtl/mxfp4_dot64.sv, Verilated in cosim/common/cosim_top.sv
// (STAGES=4, every cut point; --sweep: STAGES 0..3), against its bench
// (model/verif/mxfp4_dot64_bench.cpp: the stimulus, hifsim::dp::Mxfp4Dot64 and the coverage bins).
#include "Vmxfp4_dot64_main.h"
#include "Vmxfp4_dot64_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: none (STAGES only).
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vmxfp4_dot64_main, Vmxfp4_dot64_sweep>(
      argc, argv, {"mxfp4_dot64", {{"STAGES"}}, 60000, 1000000, 3000});
}
