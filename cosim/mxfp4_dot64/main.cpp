// cosim_mxfp4_dot64: rtl/mxfp4_dot64.sv, Verilated in cosim/common/scaled_fp4_dot_cosim_top.sv
// (STAGES=4, every cut point; --sweep: STAGES 0..3), against its bench
// (model/verif/mxfp4_dot64_bench.cpp: the stimulus, hifsim::dp::Mxfp4Dot64 and the coverage bins).
#include "Vmxfp4_dot64_main.h"
#include "Vmxfp4_dot64_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: a (0..7), b (8..15), word 16 = sa | sb << 16.
struct Ports {
  static constexpr const char* kUnit = "mxfp4_dot64";
  static std::vector<Params> params(const std::vector<Instance>& inst) { return stages_params(inst); }
  template <class M>
  static void set(M& m, const uint32_t* w) {
    set_ab(m, w, 8);
    m.sa = static_cast<uint16_t>(w[16]);
    m.sb = static_cast<uint16_t>(w[16] >> 16);
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t) { out[0] = m.out; }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    set_ab_random(m, r, 8);
    m.sa = static_cast<uint16_t>(r.next32());
    m.sb = static_cast<uint16_t>(r.next32());
  }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vmxfp4_dot64_main, Vmxfp4_dot64_sweep, MutantModel>(
      argc, argv, {"mxfp4_dot64", 60000, 1000000, 3000});
}
