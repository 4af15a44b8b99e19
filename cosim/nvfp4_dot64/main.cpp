// cosim_nvfp4_dot64: rtl/nvfp4_dot64.sv, Verilated in cosim/common/scaled_fp4_dot_cosim_top.sv
// (STAGES=5, every cut point; --sweep: STAGES 0..4), against its bench
// (model/verif/nvfp4_dot64_bench.cpp: the stimulus, hifsim::dp::Nvfp4Dot64 and the coverage bins).
#include "Vnvfp4_dot64_main.h"
#include "Vnvfp4_dot64_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: a (0..7), b (8..15), sa (16), sb (17).
struct Ports {
  static constexpr const char* kUnit = "nvfp4_dot64";
  static std::vector<Params> params(const std::vector<Instance>& inst) { return stages_params(inst); }
  template <class M>
  static void set(M& m, const uint32_t* w) {
    set_ab(m, w, 8);
    m.sa = w[16];
    m.sb = w[17];
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t) { out[0] = m.out; }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    set_ab_random(m, r, 8);
    m.sa = r.next32();
    m.sb = r.next32();
  }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vnvfp4_dot64_main, Vnvfp4_dot64_sweep, MutantModel>(
      argc, argv, {"nvfp4_dot64", 60000, 1000000, 3000});
}
