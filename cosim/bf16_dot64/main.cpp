// cosim_bf16_dot64: rtl/bf16_dot64.sv, Verilated in bf16_dot64_cosim_top.sv (W=64 sticky at
// STAGES=4, every cut point; --sweep: STAGES 0..3 with the other sets), against its bench
// (model/verif/bf16_dot64_bench.cpp: the stimulus, hifsim::dp::Bf16Dot64 and the coverage bins).
#include "Vbf16_dot64_main.h"
#include "Vbf16_dot64_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: a (0..31), b (32..63); cfg of an instance: {STICKY[15], W[7:0]}.
struct Ports {
  static constexpr const char* kUnit = "bf16_dot64";
  static std::vector<Params> params(const std::vector<Instance>& inst) {
    std::vector<Params> p;
    for (const Instance& i : inst)
      p.push_back({{"W", static_cast<int>(i.params & 0xFF)}, {"STICKY", static_cast<int>((i.params >> 15) & 1)},
                   {"STAGES", i.stages}});
    return p;
  }
  template <class M>
  static void set(M& m, const uint32_t* w) { set_ab(m, w, 32); }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = port_word(m.out, i);
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) { set_ab_random(m, r, 32); }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vbf16_dot64_main, Vbf16_dot64_sweep, MutantModel>(
      argc, argv, {"bf16_dot64", 30000, 1000000, 6000});
}
