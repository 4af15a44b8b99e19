// Drives a Verilated unit without a handshake, one operation per clock (fp32_acc: clear / init /
// add controls and a register output), and checks its outputs after every rising edge against
// the golden values of that step. A vector is a sequence of steps (DriverHooks::steps); its
// first step must make it independent of the vectors before it, because the register is not
// reset between vectors (a waveform re-run starts from reset).
//
// Header-only: include it from a harness that links a Verilated --cc model library.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cosim.hpp"
#include "sim_model.hpp"

namespace hifsim::cosim {

template <class Model>
class StepDriver {
 public:
  using Hooks = DriverHooks<Model>;

  // `latency` must be 1: the result of a step is the register after that step's edge.
  StepDriver(Session& s, Hooks h, int out_words, int latency) : s_(s), h_(std::move(h)), out_words_(out_words) {
    if (latency != 1) throw std::runtime_error("StepDriver: a register unit has latency 1");
  }

  int group = 0;  // the group of the model's cosim top to select (a top without `sel`: ignored)

  void reset(Sim<Model>& sim) {
    select_group(*sim.m, group);
    h_.set_reset_inputs(*sim.m);
    sim.m->rst_n = 0;
    sim.cycle();
    sim.m->rst_n = 1;
    sim.cycle();
  }

  void run(Sim<Model>& sim, VectorStream& vs) {
    reset(sim);
    Vector v;
    uint64_t index = 0;
    while (vs.next(v, index)) {
      run_vector(sim, index, v, true);
      s_.count_vector(v);
    }
  }

  // Runs one vector alone from reset with a waveform; returns true if an output differs.
  bool run_one_with_waves(const Vector& v, const std::string& vcd_path) {
    Sim<Model> sim(vcd_path);
    reset(sim);
    return !run_vector(sim, 0, v, false);
  }

 private:
  // Runs the steps of `v`; with `check` every step goes to the scoreboard (until the session
  // stops), otherwise the first difference ends it. Returns false on a difference.
  bool run_vector(Sim<Model>& sim, uint64_t index, const Vector& v, bool check) {
    const int n = h_.steps(v);
    std::vector<uint32_t> expected(static_cast<size_t>(out_words_ * n)), got(static_cast<size_t>(out_words_));
    h_.golden(v, expected.data());
    for (int i = 0; i < n; ++i) {
      h_.set_inputs_step(*sim.m, v, i);
      sim.cycle();
      h_.get_outputs(*sim.m, got.data());
      const uint32_t* e = expected.data() + static_cast<size_t>(out_words_ * i);
      if (check) {
        if (!s_.check(index, v, e, got.data(), i)) return false;
      } else if (!std::equal(got.begin(), got.end(), e)) {
        return false;
      }
    }
    return true;
  }

  Session& s_;
  Hooks h_;
  int out_words_;
};

}  // namespace hifsim::cosim
