// cosim_hif8_dot: rtl/hif8_dot.sv, Verilated in hif8_dot_cosim_top.sv (4 parameter sets at
// STAGES=4, every cut point; --sweep: STAGES 0..3 with every other set), against its bench
// (model/verif/hif8_dot_bench.cpp: the stimulus, hifsim::dp::Hif8DotN and the coverage bins).
#include "Vhif8_dot_main.h"
#include "Vhif8_dot_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: a (0..15), b (16..31); cfg of an instance: {STICKY[15], N[14:8], W[7:0]}.
struct Ports {
  static constexpr const char* kUnit = "hif8_dot";
  static std::vector<Params> params(const std::vector<Instance>& inst) {
    std::vector<Params> p;
    for (const Instance& i : inst)
      p.push_back({{"N", static_cast<int>((i.params >> 8) & 0x7F)}, {"W", static_cast<int>(i.params & 0xFF)},
                   {"STICKY", static_cast<int>((i.params >> 15) & 1)}, {"STAGES", i.stages}});
    return p;
  }
  template <class M>
  static void set(M& m, const uint32_t* w) { set_ab(m, w, 16); }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = port_word(m.out, i);
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) { set_ab_random(m, r, 16); }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vhif8_dot_main, Vhif8_dot_sweep, MutantModel>(
      argc, argv, {"hif8_dot", 40000, 1000000, 6000});
}
