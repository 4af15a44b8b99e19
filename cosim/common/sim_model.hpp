// What every cosim driver needs from a Verilated --cc model (docs/cosim.md):
//
//   Sim<Model>        the model with its context and an optional VCD waveform, clocked in two
//                     phases (inputs set, low phase evaluates the combinational outputs, rising edge;
//                     the inputs held from before low() until after high())
//   port_word()       32-bit word i of a Verilated port of any width
//   Instance, ModelLayout, read_layout<Model>()
//                     the parameter sets inside a cosim top, read from its `cfg` port: one 32-bit
//                     word per unit instance, {group[31:28], STAGES[27:24], unit parameters[23:0]}.
//                     The instances of one group run in lockstep on one handshake; a top with
//                     several groups (the STAGES sweep) has a `sel` input choosing the group that
//                     is driven and observed. So the top is the only place a parameter set is
//                     written down, and the harness's declared latency is the instance's STAGES.
//   DriverHooks       how a harness drives and reads its model and computes the expected outputs
//
// Header-only: include it from a harness that links a Verilated --cc model library.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cosim.hpp"
#include "verif/bench.hpp"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace hifsim::cosim {

// A Verilated model with its context and an optional VCD waveform. One clock cycle is two
// time units (low phase, then the rising edge).
template <class Model>
struct Sim {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Model> m;
  std::unique_ptr<VerilatedVcdC> vcd;

  explicit Sim(const std::string& vcd_path = "") : ctx(new VerilatedContext) {
    ctx->traceEverOn(true);
    ctx->randReset(0);
    m.reset(new Model(ctx.get(), "top"));
    if (!vcd_path.empty()) {
      vcd.reset(new VerilatedVcdC);
      m->trace(vcd.get(), 99);
      vcd->open(vcd_path.c_str());
    }
  }
  ~Sim() {
    if (vcd) vcd->close();
    m->final();
  }
  Sim(const Sim&) = delete;
  Sim& operator=(const Sim&) = delete;

  // Low phase: inputs are already set; evaluates combinational outputs. The inputs must stay as
  // they are until high() has run: cosim_top.sv hands `in` to its units through a register
  // loaded at the falling edge (this eval), so a change after low() would not reach them.
  void low() {
    m->clk = 0;
    m->eval();
    if (vcd) vcd->dump(ctx->time());
    ctx->timeInc(1);
  }
  // Rising edge.
  void high() {
    m->clk = 1;
    m->eval();
    if (vcd) vcd->dump(ctx->time());
    ctx->timeInc(1);
  }
  void cycle() {
    low();
    high();
  }
};

// 32-bit word i of a port: Verilator gives a port of up to 64 bits as an integer and a wider
// one as a VlWide array of 32-bit words.
template <class Port>
uint32_t port_word(const Port& p, size_t i) {
  if constexpr (std::is_integral<Port>::value) return static_cast<uint32_t>(static_cast<uint64_t>(p) >> (32 * i));
  else return p[i];
}
// 32-bit words of a port whose width is a multiple of 32.
template <class Port>
constexpr size_t port_words(const Port&) {
  return sizeof(Port) / 4;
}

struct Instance {
  int group = 0;        // instances of one group run in lockstep; `sel` picks the group
  int stages = 0;       // its STAGES parameter = its declared latency in cycles
  uint32_t params = 0;  // the unit's own parameter encoding (see the cosim top)
};

struct ModelLayout {
  std::vector<Instance> inst;  // in cfg order; the instances of group g are contiguous
  int groups = 0;
  int per_group = 0;           // instances per group (equal for every group)
  // The instances of group g.
  std::vector<Instance> group(int g) const {
    std::vector<Instance> out;
    for (const Instance& i : inst)
      if (i.group == g) out.push_back(i);
    return out;
  }
  // Index in `inst` of the first instance of group g.
  size_t first(int g) const {
    for (size_t i = 0; i < inst.size(); ++i)
      if (inst[i].group == g) return i;
    return inst.size();
  }
};

// The instance table of a cosim top, from a model evaluated once (before the regression's own
// model is built). Throws if the groups are not contiguous or not of equal size.
template <class Model>
ModelLayout read_layout() {
  Sim<Model> sim;
  sim.m->eval();
  ModelLayout l;
  const size_t n = port_words(sim.m->cfg);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t w = port_word(sim.m->cfg, i);
    l.inst.push_back({static_cast<int>(w >> 28), static_cast<int>((w >> 24) & 0xF), w & 0xFFFFFFu});
  }
  for (size_t i = 0; i < l.inst.size(); ++i) {
    const int g = l.inst[i].group;
    if (g != (i ? l.inst[i - 1].group : 0) && g != (i ? l.inst[i - 1].group + 1 : 0))
      throw std::runtime_error("cosim top: cfg groups must be numbered 0, 1, ... and contiguous");
    l.groups = g + 1;
  }
  l.per_group = l.groups ? static_cast<int>(l.inst.size()) / l.groups : 0;
  for (int g = 0; g < l.groups; ++g)
    if (static_cast<int>(l.group(g).size()) != l.per_group)
      throw std::runtime_error("cosim top: every group must have the same number of instances");
  for (int g = 0; g < l.groups; ++g)
    for (const Instance& i : l.group(g))
      if (i.stages != l.group(g)[0].stages)
        throw std::runtime_error("cosim top: the instances of a group must share STAGES (they run in lockstep)");
  return l;
}

// Whether a model has a `sel` input (a cosim top with several groups).
template <class M, class = void>
struct HasSel : std::false_type {};
template <class M>
struct HasSel<M, std::void_t<decltype(std::declval<M&>().sel)>> : std::true_type {};

template <class Model>
void select_group(Model& m, int g) {
  if constexpr (HasSel<Model>::value) m.sel = static_cast<uint8_t>(g);
  else (void)m, (void)g;
}

// How a harness drives its model (filled by the harness's hooks()), used by StreamDriver and
// StepDriver.
template <class Model>
struct DriverHooks {
  std::function<void(Model&, const Vector&)> set_inputs;         // the unit's data inputs
  std::function<void(const Model&, uint32_t* out)> get_outputs;  // the unit's data outputs
  std::function<void(const Vector&, uint32_t* expected)> golden;  // C++ model (+ coverage)
  // Optional: drives random junk on the data inputs while in_valid = 0 (the unit must ignore it).
  std::function<void(Model&, SplitMix64&)> set_idle_inputs;
  // Optional: vectors of several transactions (a sequence whose outputs depend on the earlier
  // ones, e.g. accumulator steps; the first step must make the sequence independent of the
  // vectors before it). steps(v) gives their number, set_inputs_step drives step s, and golden
  // fills steps(v) * out_words expected words (step s at s * out_words). Mismatches are reported
  // with the step. Without these hooks every vector is one transaction.
  std::function<int(const Vector&)> steps;
  std::function<void(Model&, const Vector&, int step)> set_inputs_step;
  // Optional: the inputs held during reset (StepDriver; StreamDriver holds in_valid = 0).
  std::function<void(Model&)> set_reset_inputs;
  // Optional: the unit's declared handshake from reset (verif::Bench::handshake; StreamDriver),
  // when it is not a chain of STAGES register ranks.
  std::function<std::unique_ptr<verif::Handshake>()> handshake;
};

}  // namespace hifsim::cosim
