// cosim_sr_quantizer: rtl/sr_quantizer.sv, Verilated in cosim/common/cosim_top.sv (5 sets at
// STAGES=6, every cut point: NVFP4, S1P2, MXFP4 at B = 8, NVFP4 at B = 5, S1P2 at B = 32; --sweep:
// STAGES 0..5 with one set each), against its bench (model/verif/sr_quantizer_bench.cpp: the
// stimulus, hifsim::dp::SrQuantizer and the coverage bins).
#include "Vsr_quantizer_main.h"
#include "Vsr_quantizer_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: {FMT, SR_BITS} in bits 7..6, 5..0.
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vsr_quantizer_main, Vsr_quantizer_sweep>(
      argc, argv, {"sr_quantizer", {{"SR_BITS", 0, 6}, {"FMT", 6, 2}, {"STAGES"}}, 20000, 1000000, 4000});
}
