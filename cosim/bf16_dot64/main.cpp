// cosim_bf16_dot64: rtl/bf16_dot64.sv, Verilated in cosim/common/cosim_top.sv (W=64 sticky at
// STAGES=4, every cut point; --sweep: STAGES 0..3 with the other sets), against its bench
// (model/verif/bf16_dot64_bench.cpp: the stimulus, hifsim::dp::Bf16Dot64 and the coverage bins).
#include "Vbf16_dot64_main.h"
#include "Vbf16_dot64_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: {STICKY[15], W[7:0]}.
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vbf16_dot64_main, Vbf16_dot64_sweep>(
      argc, argv, {"bf16_dot64", {{"W", 0, 8}, {"STICKY", 15, 1}, {"STAGES"}}, 30000, 1000000, 6000});
}
