// cosim_mxfp8_dot32: rtl/mxfp8_dot32.sv, Verilated in mxfp8_dot32_cosim_top.sv (E4M3 and E5M2 side
// by side at STAGES=3, every cut point; --sweep: STAGES 0..2), against its bench
// (model/verif/mxfp8_dot32_bench.cpp: the stimulus, hifsim::dp::Mxfp8Dot32 and the coverage bins).
#include "Vmxfp8_dot32_main.h"
#include "Vmxfp8_dot32_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// The bench's words: E4M3 a (0..7), b (8..15), E5M2 a (16..23), b (24..31), word 32 = sa4 | sb4 << 8 |
// sa5 << 16 | sb5 << 24; cfg bit 0 of an instance is its E5M2 parameter.
struct Ports {
  static constexpr const char* kUnit = "mxfp8_dot32";
  static std::vector<Params> params(const std::vector<Instance>& inst) {
    std::vector<Params> p;
    for (const Instance& i : inst) p.push_back({{"E5M2", static_cast<int>(i.params & 1)}, {"STAGES", i.stages}});
    return p;
  }
  template <class M>
  static void set(M& m, const uint32_t* w) {
    for (int i = 0; i < 8; ++i) {
      m.a4[i] = w[i];
      m.b4[i] = w[8 + i];
      m.a5[i] = w[16 + i];
      m.b5[i] = w[24 + i];
    }
    m.sa4 = static_cast<uint8_t>(w[32]);
    m.sb4 = static_cast<uint8_t>(w[32] >> 8);
    m.sa5 = static_cast<uint8_t>(w[32] >> 16);
    m.sb5 = static_cast<uint8_t>(w[32] >> 24);
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = port_word(m.out, i);
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    for (int i = 0; i < 8; ++i) {
      m.a4[i] = r.next32();
      m.b4[i] = r.next32();
      m.a5[i] = r.next32();
      m.b5[i] = r.next32();
    }
    m.sa4 = static_cast<uint8_t>(r.next());
    m.sb4 = static_cast<uint8_t>(r.next());
    m.sa5 = static_cast<uint8_t>(r.next());
    m.sb5 = static_cast<uint8_t>(r.next());
  }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vmxfp8_dot32_main, Vmxfp8_dot32_sweep, MutantModel>(
      argc, argv, {"mxfp8_dot32", 50000, 1000000, 3000});
}
