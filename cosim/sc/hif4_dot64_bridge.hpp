// Hif4DotRtlBridge: the Verilated SystemC model of rtl/hif4_dot64.sv (Vhif4_dot64_sc, library
// hifsim_vmodel_sc) wrapped with blocking calls for SystemC threads -- the bridge a TLM target
// uses to run transactions on the RTL (docs/cosim.md, "SystemC bridge").
//
//   push(a, b)   blocks until the unit accepted the operands (in_valid && in_ready at a rising edge)
//   pop()        blocks until a result is delivered (out_valid && out_ready at a rising edge)
//   dot(a, b)    push + pop (one transaction at a time; pipelining needs a producer thread
//                calling push and a consumer thread calling pop)
// Call them from SC_THREADs (they wait on the clock). Signals are sampled at the rising edge,
// before the model's own update of that edge is visible (it lands one delta later), so a
// sampled (valid, ready) pair is exactly what the RTL saw at that edge.
//
// Link only hifsim_vmodel_sc (the --sc flavour) into a SystemC executable, never a --cc model
// library as well (../shared/reference/toolchain.md section 2).
#pragma once
#include <systemc>

#include "Vhif4_dot64_sc.h"
#include "formats/hif4.hpp"

namespace hifsim::cosim {

SC_MODULE(Hif4DotRtlBridge) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;

  Vhif4_dot64_sc rtl;
  sc_core::sc_signal<bool> in_valid, in_ready, out_valid, out_ready;
  sc_core::sc_signal<sc_dt::sc_bv<288>> a, b;
  sc_core::sc_signal<uint32_t> out;

  SC_CTOR(Hif4DotRtlBridge) : clk("clk"), rst_n("rst_n"), rtl("rtl") {
    rtl.clk(clk);
    rtl.rst_n(rst_n);
    rtl.in_valid(in_valid);
    rtl.in_ready(in_ready);
    rtl.a(a);
    rtl.b(b);
    rtl.out_valid(out_valid);
    rtl.out_ready(out_ready);
    rtl.out(out);
  }

  // Layout (A) as a 288-bit vector: meta word in bits [31:0], element k at bits [32+4k+3:32+4k].
  static sc_dt::sc_bv<288> pack(const fmt::Hif4Unit& u) {
    sc_dt::sc_bv<288> v;
    v.set_word(0, fmt::hif4_meta_word(u));
    for (int i = 0; i < 8; ++i) {
      uint32_t w = 0;
      for (int j = 0; j < 8; ++j) w |= static_cast<uint32_t>(u.nib[8 * i + j] & 0xF) << (4 * j);
      v.set_word(1 + i, w);
    }
    return v;
  }

  void push(const fmt::Hif4Unit& ua, const fmt::Hif4Unit& ub) {
    a.write(pack(ua));
    b.write(pack(ub));
    in_valid.write(true);
    do {
      sc_core::wait(clk.posedge_event());
    } while (!(in_valid.read() && in_ready.read() && rst_n.read()));
    in_valid.write(false);
  }

  uint32_t pop() {
    out_ready.write(true);
    uint32_t r = 0;
    do {
      sc_core::wait(clk.posedge_event());
      r = out.read();
    } while (!(out_valid.read() && out_ready.read() && rst_n.read()));
    out_ready.write(false);
    return r;
  }

  uint32_t dot(const fmt::Hif4Unit& ua, const fmt::Hif4Unit& ub) {
    push(ua, ub);
    return pop();
  }
};

}  // namespace hifsim::cosim
