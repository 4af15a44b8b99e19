// cosim_fp32_acc: rtl/fp32_acc.sv, Verilated in fp32_acc_cosim_top.sv (every parameter set of
// scripts/synth.sh side by side; no pipeline, no sweep), against its bench
// (model/verif/fp32_acc_bench.cpp: the stimulus, hifsim::dp::Accumulator and the coverage bins).
#include "Vfp32_acc_main.h"
#include "common/harness_main.hpp"

namespace {

// The words and ports are cosim_top's (BusPorts); only the idle / reset inputs differ: every control
// off, junk on init_value and addend.
struct Ports : hifsim::cosim::BusPorts {
  template <class M>
  static void idle(M& m, hifsim::SplitMix64& r) {
    m.in[0] = 0;
    m.in[1] = r.next32();
    m.in[2] = r.next32();
  }
};

}  // namespace

int main(int argc, char** argv) {
  // The parameter word of an instance: {ROUND_RZ[7], MANT_BITS[6:0]} (fp32_acc_cosim_top.sv).
  return hifsim::cosim::harness_main<hifsim::cosim::StepDriver, Vfp32_acc_main, hifsim::cosim::NoModel,
                                     hifsim::cosim::MutantModel, Ports>(
      argc, argv, {"fp32_acc", {{"MANT_BITS", 0, 7}, {"ROUND_RZ", 7, 1}}, 30000, 1000000, 0});
}
