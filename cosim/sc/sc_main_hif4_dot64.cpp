// cosim_sc_hif4_dot64: the SystemC build (verilator --sc) of rtl/hif4_dot64.sv, driven through
// Hif4DotRtlBridge from a SystemC testbench (sc_clock, a producer thread with random input
// bubbles, a consumer thread with random back-pressure) and compared with
// hifsim::dp::Hif4Dot64. CTest: cosim.sc_hif4_dot64 (one simulation per process).
#include <systemc>

#include <cstdio>
#include <deque>
#include <memory>
#include <string>

#include "common/cosim.hpp"
#include "verif/stimulus.hpp"
#include "datapath/hif4_dot.hpp"
#include "formats/bits.hpp"
#include "hif4_dot64_bridge.hpp"

using namespace hifsim;
using namespace hifsim::cosim;
using hifsim::verif::stim::hif4_pair_vector;

namespace {

const std::vector<std::string> kSources = {"corner", "uniform", "shaped", "tensor"};

SC_MODULE(Tb) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> rst_n;
  Hif4DotRtlBridge bridge;
  Session& s;
  VectorStream& vs;
  std::deque<std::pair<uint64_t, Vector>> sent;
  bool producer_done = false;
  uint64_t received = 0;

  SC_HAS_PROCESS(Tb);
  Tb(sc_core::sc_module_name n, Session& s_, VectorStream& vs_) : sc_module(n), clk("clk"), bridge("bridge"), s(s_), vs(vs_) {
    bridge.clk(clk);
    bridge.rst_n(rst_n);
    SC_THREAD(producer);
    SC_THREAD(consumer);
  }

  void producer() {
    SplitMix64 r(s.opt().seed * 7 + 1);
    rst_n.write(false);
    for (int i = 0; i < 3; ++i) sc_core::wait(clk.posedge_event());
    rst_n.write(true);
    sc_core::wait(clk.posedge_event());
    Vector v;
    uint64_t index = 0;
    while (vs.next(v, index)) {
      if (r.below(8) == 0) sc_core::wait(clk.posedge_event());  // an input bubble
      sent.emplace_back(index, v);
      bridge.push(stim::hif4_from_words(v.w.data()), stim::hif4_from_words(v.w.data() + stim::kHif4Words));
    }
    producer_done = true;
  }

  void consumer() {
    SplitMix64 r(s.opt().seed * 7 + 2);
    while (!(producer_done && sent.empty()) && !s.stop()) {
      if (r.below(4) == 0) sc_core::wait(clk.posedge_event());  // back-pressure: not ready this cycle
      if (sent.empty()) {  // nothing in flight yet
        sc_core::wait(clk.posedge_event());
        continue;
      }
      const uint32_t got = bridge.pop();
      const auto [index, v] = sent.front();
      sent.pop_front();
      uint32_t expected = fmt::f32_bits(dp::Hif4Dot64::compute(stim::hif4_from_words(v.w.data()),
                                                               stim::hif4_from_words(v.w.data() + stim::kHif4Words)).value);
      s.check(index, v, &expected, &got);
      s.count_vector(v);
      ++received;
    }
    sc_core::sc_stop();
  }
};

}  // namespace

int sc_main(int argc, char** argv) {
  Options o = parse_cli(argc, argv, "sc_hif4_dot64");
  Session s(o, kSources, {{"sign", 31, 31}, {"exponent", 30, 23}, {"mantissa", 22, 0}}, 1);
  s.set_count(o.count ? o.count : (o.level == Level::quick ? 20000 : 1000000));
  std::unique_ptr<stim::NpyBlocks> tensor;
  try {
    tensor.reset(new stim::NpyBlocks(o.npy.empty() ? stim::default_npy() : o.npy));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cosim_sc_hif4_dot64: %s\n", e.what());
    return kExitUsage;
  }
  // A few directed corners: zeros, maxima with both signs, NaN scales, the smallest result.
  std::vector<Vector> corners;
  {
    fmt::Hif4Unit z, mx, nan;
    mx.e6m2 = 0xFB;
    mx.e1_8 = 0xFF;
    mx.e1_16 = 0xFFFF;
    for (auto& n : mx.nib) n = 7;
    fmt::Hif4Unit mn = mx;
    for (auto& n : mn.nib) n = 0xF;
    nan = mx;
    nan.e6m2 = 0xFF;
    fmt::Hif4Unit tiny;
    tiny.nib[17] = 1;
    corners = {hif4_pair_vector(z, z, 0),    hif4_pair_vector(mx, mx, 0),  hif4_pair_vector(mx, mn, 0),
               hif4_pair_vector(nan, mx, 0), hif4_pair_vector(mx, nan, 0), hif4_pair_vector(tiny, tiny, 0)};
  }
  VectorStream vs(s, corners, [&](SplitMix64& r, Vector& v) {
    float x[64];
    const int src = 1 + static_cast<int>(r.below(3));
    fmt::Hif4Unit a, b;
    if (src == 1) {
      a = stim::hif4_uniform(r);
      b = stim::hif4_uniform(r);
    } else {
      for (fmt::Hif4Unit* u : {&a, &b}) {
        if (src == 2) stim::shaped_block(r, x, 64);
        else tensor->block(r, x, 64);
        *u = stim::hif4_quantize_random_opts(r, x);
      }
    }
    v = hif4_pair_vector(a, b, src);
  });
  sc_core::sc_clock clk("clk", 10, sc_core::SC_NS);
  Tb tb("tb", s, vs);
  tb.clk(clk);
  // Bounded: a unit that stops answering ends the run (reported as a hang) instead of spinning.
  sc_core::sc_start(sc_core::sc_time(10.0 * (20.0 * static_cast<double>(s.count()) + 1000.0), sc_core::SC_NS));
  std::printf("simulated %s\n", sc_core::sc_time_stamp().to_string().c_str());
  if (tb.received < s.count() && !s.stop()) s.fail_hang(tb.received, "the simulation ended before every result arrived");
  return s.finish();
}
