// cosim_hadamard16: rtl/hadamard16.sv, Verilated in cosim/common/cosim_top.sv (STAGES=5, every cut
// point; --sweep: STAGES 0..4), against its bench (model/verif/hadamard16_bench.cpp: the stimulus,
// hifsim::dp::Hadamard16 (the RHT of formats/hadamard.hpp with N = 16) and the coverage bins).
#include "Vhadamard16_main.h"
#include "Vhadamard16_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vhadamard16_main, Vhadamard16_sweep>(
      argc, argv, {"hadamard16", {{"STAGES"}}, 50000, 1000000, 5000});
}
