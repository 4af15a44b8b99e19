// cosim_hif4_quantizer: rtl/hif4_quantizer.sv, Verilated in hif4_quantizer_cosim_top.sv (2 option
// sets at STAGES=4, every cut point; --sweep: STAGES 0..3 with one option alone each), against its
// bench (model/verif/hif4_quantizer_bench.cpp: the stimulus, hifsim::fmt::hif4_quantize_bf16 and
// the coverage bins).
#include "Vhif4_quantizer_main.h"
#include "Vhif4_quantizer_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: x (0..31); cfg of an instance: {INF_TO_NAN, CMP_BF16, ELEM_RNE} in bits 2..0.
struct Ports {
  static constexpr const char* kUnit = "hif4_quantizer";
  static std::vector<Params> params(const std::vector<Instance>& inst) {
    std::vector<Params> p;
    for (const Instance& i : inst)
      p.push_back({{"ELEM_RNE", static_cast<int>(i.params & 1)}, {"CMP_BF16", static_cast<int>((i.params >> 1) & 1)},
                   {"INF_TO_NAN", static_cast<int>((i.params >> 2) & 1)}, {"STAGES", i.stages}});
    return p;
  }
  template <class M>
  static void set(M& m, const uint32_t* w) {
    for (int i = 0; i < 32; ++i) m.x[i] = w[i];
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = port_word(m.unit, i);
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    for (int i = 0; i < 32; ++i) m.x[i] = r.next32();
  }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vhif4_quantizer_main, Vhif4_quantizer_sweep, MutantModel>(
      argc, argv, {"hif4_quantizer", 30000, 1000000, 6000});
}
