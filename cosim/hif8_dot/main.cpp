// cosim_hif8_dot: rtl/hif8_dot.sv, Verilated in cosim/common/cosim_top.sv (4 parameter sets at
// STAGES=4, every cut point; --sweep: STAGES 0..3 with every other set), against its bench
// (model/verif/hif8_dot_bench.cpp: the stimulus, hifsim::dp::Hif8DotN and the coverage bins).
#include "Vhif8_dot_main.h"
#include "Vhif8_dot_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: {STICKY[15], N[14:8], W[7:0]}.
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vhif8_dot_main, Vhif8_dot_sweep>(
      argc, argv, {"hif8_dot", {{"N", 8, 7}, {"W", 0, 8}, {"STICKY", 15, 1}, {"STAGES"}}, 40000, 1000000, 6000});
}
