// cosim_hif4_quantizer: rtl/hif4_quantizer.sv, Verilated in cosim/common/cosim_top.sv (3 option
// sets at STAGES=4, every cut point; --sweep: STAGES 0..3 with one option alone each), against its
// bench (model/verif/hif4_quantizer_bench.cpp: the stimulus, hifsim::fmt::hif4_quantize_bf16 and
// the coverage bins).
#include "Vhif4_quantizer_main.h"
#include "Vhif4_quantizer_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: {ASCEND_A6, INF_TO_NAN, CMP_BF16, ELEM_RNE} in bits 3..0.
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vhif4_quantizer_main,
                                     Vhif4_quantizer_sweep>(
      argc, argv,
      {"hif4_quantizer", {{"ELEM_RNE", 0, 1}, {"CMP_BF16", 1, 1}, {"INF_TO_NAN", 2, 1}, {"ASCEND_A6", 3, 1}, {"STAGES"}}, 30000, 1000000,
       6000});
}
