// Drives a Verilated valid/ready unit (ports clk, rst_n, in_valid, in_ready, out_valid,
// out_ready + the unit's data ports) with a stream of vectors, random input bubbles and random
// output back-pressure, and checks every output against the golden value computed when the
// vector was pushed. Every dot unit of rtl/ has this handshake, so a new harness only supplies
// set_inputs / get_outputs / golden (see cosim/hif4_dot64/main.cpp).
//
// Header-only: include it from a harness that links a Verilated --cc model library.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "cosim.hpp"
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

  // Low phase: inputs are already set; evaluates combinational outputs.
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

template <class Model>
class StreamDriver {
 public:
  struct Hooks {
    std::function<void(Model&, const Vector&)> set_inputs;     // the unit's data inputs
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
  };

  StreamDriver(Session& s, Hooks h, int out_words) : s_(s), h_(std::move(h)), out_words_(out_words) {
    Coverage& c = s_.cov();
    cov_backpressure_ = c.declare("hs.out_backpressure");  // out_valid && !out_ready
    cov_blocked_ = c.declare("hs.in_blocked");             // in_valid && !in_ready
    cov_bubble_ = c.declare("hs.in_bubble");               // no input offered mid-stream
    cov_full_ = c.declare("hs.in_and_out_same_cycle");     // accept and deliver in one cycle
  }

  // Probability of an input bubble / of out_ready = 0 in a cycle.
  double p_idle = 0.15, p_stall = 0.25;
  uint64_t hang_cycles = 2000;  // no progress for this long = the RTL hangs

  static void reset(Sim<Model>& sim) {
    sim.m->rst_n = 0;
    sim.m->in_valid = 0;
    sim.m->out_ready = 0;
    sim.cycle();
    sim.cycle();
    sim.m->rst_n = 1;
    sim.cycle();
  }

  // Runs the whole stream through `sim`.
  void run(Sim<Model>& sim, VectorStream& vs) {
    SplitMix64 hs(mix64(s_.opt().seed ^ 0x4A5D5A4Eull));  // handshake randomness, separate from the stimulus
    Model& m = *sim.m;
    reset(sim);
    struct InFlight {
      uint64_t index;
      Vector v;
      std::vector<uint32_t> expected;  // pending: every step; in flight: this step
      int step = 0, nsteps = 1;
    };
    std::deque<InFlight> q;
    InFlight pending;
    bool have_pending = false, done = false;
    const bool multi = static_cast<bool>(h_.steps);
    std::vector<uint32_t> got(static_cast<size_t>(out_words_));
    uint64_t idle_cycles = 0;
    const bool replay = s_.replaying();
    while (true) {
      if (!have_pending && !done) {
        if (vs.next(pending.v, pending.index)) {
          pending.nsteps = multi ? h_.steps(pending.v) : 1;
          pending.step = 0;
          pending.expected.assign(static_cast<size_t>(out_words_ * pending.nsteps), 0);
          h_.golden(pending.v, pending.expected.data());
          have_pending = true;
        } else {
          done = true;
        }
      }
      if (done && q.empty()) break;
      if (s_.stop()) break;
      const bool bubble = !replay && hs.uniform() < p_idle;
      m.in_valid = have_pending && !bubble;
      if (m.in_valid) {
        if (multi) h_.set_inputs_step(m, pending.v, pending.step);
        else h_.set_inputs(m, pending.v);
      } else if (h_.set_idle_inputs) {
        h_.set_idle_inputs(m, hs);
      }
      m.out_ready = replay || !(hs.uniform() < p_stall);
      sim.low();
      const bool fire_in = m.in_valid && m.in_ready;
      const bool fire_out = m.out_valid && m.out_ready;
      if (m.out_valid && !m.out_ready) s_.cov().hit(cov_backpressure_);
      if (m.in_valid && !m.in_ready) s_.cov().hit(cov_blocked_);
      if (bubble && have_pending) s_.cov().hit(cov_bubble_);
      if (fire_in && fire_out) s_.cov().hit(cov_full_);
      if (fire_in) {
        if (multi) {
          InFlight f;
          f.index = pending.index;
          f.v = pending.v;
          f.step = pending.step;
          f.nsteps = pending.nsteps;
          const auto* e = pending.expected.data() + static_cast<size_t>(out_words_ * pending.step);
          f.expected.assign(e, e + out_words_);
          q.push_back(std::move(f));
          have_pending = ++pending.step < pending.nsteps;
        } else {
          q.push_back(pending);
          have_pending = false;
        }
      }
      if (fire_out) {
        if (q.empty()) {
          s_.fail_hang(0, "out_valid with no transaction in flight");
          break;
        }
        h_.get_outputs(m, got.data());
        const InFlight& f = q.front();
        s_.check(f.index, f.v, f.expected.data(), got.data(), multi ? f.step : -1);
        if (f.step + 1 == f.nsteps) s_.count_vector(f.v);
        q.pop_front();
      }
      sim.high();
      idle_cycles = (fire_in || fire_out) ? 0 : idle_cycles + 1;
      if (idle_cycles > hang_cycles) {
        s_.fail_hang(q.empty() ? pending.index : q.front().index, "no handshake progress for " + std::to_string(hang_cycles) + " cycles");
        break;
      }
    }
  }

  // Runs one vector alone from reset (no bubbles, no back-pressure) with a waveform; returns
  // true if its output differs from `expected` (used by Session::rerun_with_waves).
  bool run_one_with_waves(const Vector& v, const std::string& vcd_path) {
    Sim<Model> sim(vcd_path);
    Model& m = *sim.m;
    reset(sim);
    const int nsteps = h_.steps ? h_.steps(v) : 1;
    const size_t n = static_cast<size_t>(out_words_ * nsteps);
    std::vector<uint32_t> expected(n), got(n);
    h_.golden(v, expected.data());
    int sent = 0, received = 0;
    for (uint64_t c = 0; c < hang_cycles; ++c) {
      m.in_valid = sent < nsteps;
      if (h_.steps) h_.set_inputs_step(m, v, sent < nsteps ? sent : nsteps - 1);
      else h_.set_inputs(m, v);
      m.out_ready = 1;
      sim.low();
      const bool fire_in = m.in_valid && m.in_ready;
      if (m.out_valid && m.out_ready) {
        h_.get_outputs(m, got.data() + static_cast<size_t>(out_words_ * received));
        if (++received == nsteps) {
          sim.high();
          sim.cycle();
          return got != expected;
        }
      }
      sim.high();
      sent += fire_in ? 1 : 0;
    }
    return true;  // not every output came
  }

 private:
  Session& s_;
  Hooks h_;
  int out_words_;
  int cov_backpressure_, cov_blocked_, cov_bubble_, cov_full_;
};

}  // namespace hifsim::cosim
