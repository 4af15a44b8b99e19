// cosim_sparse_residual_add: rtl/sparse_residual_add.sv, Verilated in cosim/common/cosim_top.sv
// (STAGES=5, FP32 RNE accumulator; --sweep: STAGES 0..4 with the reduced and RZ accumulators),
// against its bench (model/verif/sparse_residual_add_bench.cpp: the stimulus,
// hifsim::dp::SparseResidualHif4Dot + hifsim::dp::Accumulator and the coverage bins).
#include "Vsparse_residual_add_main.h"
#include "Vsparse_residual_add_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  // The parameter word of an instance: {ROUND_RZ[7], MANT_BITS[6:0]}.
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vsparse_residual_add_main,
                                     Vsparse_residual_add_sweep>(
      argc, argv, {"sparse_residual_add", {{"MANT_BITS", 0, 7}, {"ROUND_RZ", 7, 1}, {"STAGES"}}, 20000, 1000000,
                   3000});
}
