// cosim_sparse_residual_add: rtl/sparse_residual_add.sv, Verilated in
// sparse_residual_add_cosim_top.sv (STAGES=5, FP32 RNE accumulator; --sweep: STAGES 0..4 with the
// reduced and RZ accumulators), against its bench (model/verif/sparse_residual_add_bench.cpp: the
// stimulus, hifsim::dp::SparseResidualHif4Dot + hifsim::dp::Accumulator and the coverage bins).
#include "Vsparse_residual_add_main.h"
#include "Vsparse_residual_add_sweep.h"
#include "common/harness_main.hpp"
#include "common/ports.hpp"

using namespace hifsim::cosim;
using hifsim::SplitMix64;
using hifsim::verif::Params;

namespace {

// One transaction's words: r (0..6), w (7..15), acc_start (word 16 bit 0), init_value (17); cfg of an
// instance: {ROUND_RZ[7], MANT_BITS[6:0]}.
struct Ports {
  static constexpr const char* kUnit = "sparse_residual_add";
  static std::vector<Params> params(const std::vector<Instance>& inst) {
    std::vector<Params> p;
    for (const Instance& i : inst)
      p.push_back({{"MANT_BITS", static_cast<int>(i.params & 0x7F)}, {"ROUND_RZ", static_cast<int>((i.params >> 7) & 1)},
                   {"STAGES", i.stages}});
    return p;
  }
  template <class M>
  static void set(M& m, const uint32_t* w) {
    for (int k = 0; k < 7; ++k) m.r[k] = w[k];
    for (int k = 0; k < 9; ++k) m.w[k] = w[7 + k];
    m.acc_start = w[16] & 1;
    m.init_value = w[17];
  }
  template <class M>
  static void get(const M& m, uint32_t* out, size_t) {
    out[0] = m.out_dot;
    out[1] = m.out_acc;
    out[2] = m.acc;
  }
  template <class M>
  static void idle(M& m, SplitMix64& r) {
    for (int k = 0; k < 7; ++k) m.r[k] = r.next32();
    for (int k = 0; k < 9; ++k) m.w[k] = r.next32();
    m.acc_start = r.next() & 1;
    m.init_value = r.next32();
  }
};

}  // namespace

int main(int argc, char** argv) {
  return harness_main<Ports, StreamDriver, Vsparse_residual_add_main, Vsparse_residual_add_sweep, MutantModel>(
      argc, argv, {"sparse_residual_add", 20000, 1000000, 3000});
}
