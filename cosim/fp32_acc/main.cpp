// cosim_fp32_acc: rtl/fp32_acc.sv, Verilated in fp32_acc_cosim_top.sv (every parameter set of
// scripts/synth.sh side by side; no pipeline, no sweep), against its bench
// (model/verif/fp32_acc_bench.cpp: the stimulus, hifsim::dp::Accumulator and the coverage bins).
#include "Vfp32_acc_main.h"
#include "common/harness_main.hpp"

using hifsim::SplitMix64;

namespace {

// One clock step's words: ctl (bit 0 clear, 1 init, 2 add_valid), init_value, addend.
struct Ports {
  template <class M>
  static void set(M& m, const uint32_t* w) {
    m.clear = w[0] & 1;
    m.init = (w[0] >> 1) & 1;
    m.add_valid = (w[0] >> 2) & 1;
    m.init_value = w[1];
    m.addend = w[2];
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = hifsim::cosim::port_word(m.acc, i);
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    m.clear = m.init = m.add_valid = 0;
    m.init_value = r.next32();
    m.addend = r.next32();
  }
};

}  // namespace

int main(int argc, char** argv) {
  // The parameter word of an instance: {ROUND_RZ[7], MANT_BITS[6:0]} (fp32_acc_cosim_top.sv).
  return hifsim::cosim::harness_main<hifsim::cosim::StepDriver, Vfp32_acc_main, hifsim::cosim::NoModel,
                                     hifsim::cosim::MutantModel, Ports>(
      argc, argv, {"fp32_acc", {{"MANT_BITS", 0, 7}, {"ROUND_RZ", 7, 1}}, 30000, 1000000, 0});
}
