// cosim_transpose_buffer: rtl/transpose_buffer.sv, Verilated in cosim/common/cosim_top.sv (T=16
// W=32 STAGES=1; --sweep: T=8 W=16 STAGES=0), against its bench (model/verif/
// transpose_buffer_bench.cpp: tiles as sequences of T rows, their columns from dp::TransposeBuffer,
// whose cycle model is also the declared handshake). 22 junk cycles before the stream's reset
// leave a tile partly written: the stream checks that the reset dropped it.
#include "Vtranspose_buffer_main.h"
#include "Vtranspose_buffer_sweep.h"
#include "common/harness_main.hpp"

int main(int argc, char** argv) {
  return hifsim::cosim::harness_main<hifsim::cosim::StreamDriver, Vtranspose_buffer_main, Vtranspose_buffer_sweep>(
      argc, argv, {"transpose_buffer", {{"T", 0, 7}, {"W", 7, 6}, {"STAGES"}}, 5000, 1000000, 2000, 22});
}
