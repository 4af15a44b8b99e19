// cosim_hif4_dot64: rtl/hif4_dot64.sv, Verilated in hif4_dot64_cosim_top.sv (STAGES=3; --sweep:
// STAGES 0, 1, 2, 4, 5), against its bench (model/verif/hif4_dot64_bench.cpp: the stimulus,
// hifsim::dp::Hif4Dot64 and the coverage bins).
#include "Vhif4_dot64_main.h"
#include "Vhif4_dot64_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: A's HiF4 unit (words 0..8, layout (A)), B's (9..17).
struct Ports {
  static constexpr const char* kUnit = "hif4_dot64";
  static std::vector<Params> params(const std::vector<Instance>& inst) { return stages_params(inst); }
  template <class M>
  static void set(M& m, const uint32_t* w) { set_ab(m, w, 9); }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t) { out[0] = m.out; }
  template <class M>
  static void idle(M& m, SplitMix64& r) { set_ab_random(m, r, 9); }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vhif4_dot64_main, Vhif4_dot64_sweep, MutantModel>(
      argc, argv, {"hif4_dot64", 100000, 4000000, 20000});
}
