// Drives a Verilated valid/ready unit (ports clk, rst_n, in_valid, in_ready, out_valid,
// out_ready + the unit's data ports) with a stream of vectors, random input bubbles and random
// output back-pressure, and checks
//   - every output against the golden value computed when the vector was pushed (in order), and
//   - the handshake at every cycle against the declared timing (PipeTiming with the unit's
//     latency): in_ready and out_valid must be exactly those of a chain of L register ranks, so
//     a result that comes a cycle late or early, a dropped or duplicated result, or a pipeline
//     that cannot take one transaction per cycle is a failure even when every value is right.
// Every unit of rtl/ with a handshake has this interface, so a harness only supplies the
// DriverHooks (sim_model.hpp).
//
// Header-only: include it from a harness that links a Verilated --cc model library.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cosim.hpp"
#include "pipe_timing.hpp"
#include "sim_model.hpp"

namespace hifsim::cosim {

// The declared timing the scoreboard compares with: STAGES register ranks (PipeTiming) unless the
// bench declares its unit's own handshake (verif::Bench::handshake, e.g. transpose_buffer's tiles).
class DeclaredTiming {
 public:
  DeclaredTiming(int ranks, std::unique_ptr<verif::Handshake> own) : pipe_(ranks), own_(std::move(own)) {}
  bool in_ready(bool out_ready) const { return own_ ? own_->in_ready(out_ready) : pipe_.in_ready(out_ready); }
  bool out_valid(bool in_valid) const { return own_ ? own_->out_valid(in_valid) : pipe_.out_valid(in_valid); }
  void edge(bool in_valid, bool out_ready) {
    if (own_) own_->edge(in_valid, out_ready);
    else pipe_.edge(in_valid, out_ready);
  }
  int occupancy() const { return own_ ? own_->occupancy() : pipe_.occupancy(); }
  void reset() {
    if (own_) own_->reset();
    else pipe_.reset();
  }
  std::string what() const {
    const int l = pipe_.ranks();
    return own_ ? own_->what()
                : std::to_string(l) + " register ranks = STAGES: latency " + std::to_string(l) +
                      " cycles, one transaction per cycle";
  }

 private:
  PipeTiming pipe_;
  std::unique_ptr<verif::Handshake> own_;
};

template <class Model>
class StreamDriver {
 public:
  using Hooks = DriverHooks<Model>;

  // `latency`: the declared latency of the unit (its register ranks, = STAGES).
  StreamDriver(Session& s, Hooks h, int out_words, int latency)
      : s_(s), h_(std::move(h)), out_words_(out_words), latency_(latency) {
    Coverage& c = s_.cov();
    cov_backpressure_ = c.declare("hs.out_backpressure");  // out_valid && !out_ready
    cov_blocked_ = c.declare("hs.in_blocked");             // in_valid && !in_ready
    cov_bubble_ = c.declare("hs.in_bubble");               // no input offered mid-stream
    cov_full_ = c.declare("hs.in_and_out_same_cycle");     // accept and deliver in one cycle
    // 8 cycles in a row that each accept and deliver a transaction: full throughput, checked
    // cycle by cycle against the declared timing.
    cov_burst_ = c.declare("hs.back_to_back_8_cycles");
  }

  // Probability of an input bubble / of out_ready = 0 in a cycle.
  double p_idle = 0.15, p_stall = 0.25;
  uint64_t hang_cycles = 2000;  // no progress for this long = the RTL hangs
  // Before the stream's reset: this many cycles of junk transactions (in_valid high, out_ready
  // low every third cycle) that the reset must drop: the stream then checks that nothing of
  // them is left (a unit with state across transactions: transpose_buffer's partly written tile).
  int junk_cycles = 0;

  int group = 0;  // the group of the model's cosim top to drive (a top without `sel`: ignored)

  void reset(Sim<Model>& sim) const {
    select_group(*sim.m, group);
    sim.m->rst_n = 0;
    sim.m->in_valid = 0;
    sim.m->out_ready = 0;
    sim.cycle();
    sim.cycle();
    sim.m->rst_n = 1;
    sim.cycle();
  }

  // Runs the whole stream through `sim` (the right group already selected).
  //
  // Batched: kBatch vectors and their expected outputs are made first (the bench's generator and
  // the C++ model in one loop), then the RTL is clocked through them. The vectors live in a ring
  // of slots reused from batch to batch, and the in-flight FIFO holds slot numbers, so nothing
  // is allocated or copied per transaction here (docs/cosim.md, throughput).
  void run(Sim<Model>& sim, VectorStream& vs) {
    SplitMix64 hs(mix64(s_.opt().seed ^ 0x4A5D5A4Eull));  // handshake randomness, separate from the stimulus
    Model& m = *sim.m;
    if (junk_cycles > 0 && !s_.replaying()) junk_before_reset(sim, hs);
    reset(sim);
    DeclaredTiming ref(latency_, h_.handshake ? h_.handshake() : nullptr);
    const bool multi = static_cast<bool>(h_.steps);
    const size_t ow = static_cast<size_t>(out_words_);
    std::vector<Slot> ring(kRing);
    // Vector numbers (not slots): made, the one offered now (`next`, at step `step`), retired.
    uint64_t made = 0, next = 0, retired = 0;
    int step = 0;
    bool done = false;
    InFlightFifo fly(static_cast<size_t>(latency_) + 2);
    std::vector<uint32_t> got(ow);
    uint64_t idle_cycles = 0, cycle = 0;
    int burst = 0;
    const bool replay = s_.replaying();
    while (true) {
      if (next == made && !done) {
        const uint64_t n = fill(vs, ring, made, std::min<uint64_t>(kBatch, kRing - (made - retired)), multi);
        made += n;
        done = n == 0;
      }
      const bool have_pending = next < made;
      if (!have_pending && fly.empty()) break;
      if (s_.stop()) break;
      const Slot& p = ring[next % kRing];
      const Slot* head = fly.empty() ? nullptr : &ring[fly.front().seq % kRing];
      const bool bubble = !replay && hs.uniform() < p_idle;
      m.in_valid = have_pending && !bubble;
      if (m.in_valid) {
        if (multi) h_.set_inputs_step(m, p.v, step);
        else h_.set_inputs(m, p.v);
      } else if (h_.set_idle_inputs) {
        h_.set_idle_inputs(m, hs);
      }
      m.out_ready = replay || !(hs.uniform() < p_stall);
      sim.low();
      if (!timing_ok(ref, m, cycle, head ? &head->v : nullptr, head ? head->index : 0, have_pending ? &p.v : nullptr,
                     have_pending ? p.index : 0))
        break;
      ref.edge(m.in_valid, m.out_ready);
      const bool fire_in = m.in_valid && m.in_ready;
      const bool fire_out = m.out_valid && m.out_ready;
      if (m.out_valid && !m.out_ready) s_.cov().hit(cov_backpressure_);
      if (m.in_valid && !m.in_ready) s_.cov().hit(cov_blocked_);
      if (bubble && have_pending) s_.cov().hit(cov_bubble_);
      if (fire_in && fire_out) s_.cov().hit(cov_full_);
      burst = (fire_in && fire_out) ? burst + 1 : 0;
      if (burst == 8) s_.cov().hit(cov_burst_);
      if (fire_in) {
        fly.push({next, step});
        if (++step == p.nsteps) {
          step = 0;
          ++next;
        }
      }
      if (fire_out) {
        if (fly.empty()) {
          s_.fail_hang(0, "out_valid with no transaction in flight");
          break;
        }
        const InFlight f = fly.pop();
        const Slot& sl = ring[f.seq % kRing];
        h_.get_outputs(m, got.data());
        s_.check(sl.index, sl.v, sl.expected.data() + ow * static_cast<size_t>(f.step), got.data(), multi ? f.step : -1);
        if (f.step + 1 == sl.nsteps) {
          s_.count_vector(sl.v);
          ++retired;
        }
      }
      sim.high();
      ++cycle;
      idle_cycles = (fire_in || fire_out) ? 0 : idle_cycles + 1;
      if (idle_cycles > hang_cycles) {
        s_.fail_hang(!fly.empty() ? ring[fly.front().seq % kRing].index : p.index,
                     "no handshake progress for " + std::to_string(hang_cycles) + " cycles");
        break;
      }
    }
  }

  // The junk transactions before the stream's reset (junk_cycles), followed through the declared
  // timing so its reset() sees what the reset drops.
  void junk_before_reset(Sim<Model>& sim, SplitMix64& hs) {
    Model& m = *sim.m;
    reset(sim);
    DeclaredTiming ref(latency_, h_.handshake ? h_.handshake() : nullptr);
    for (int c = 0; c < junk_cycles; ++c) {
      m.in_valid = 1;
      if (h_.set_idle_inputs) h_.set_idle_inputs(m, hs);
      m.out_ready = c % 3 != 2;
      sim.low();
      ref.edge(m.in_valid, m.out_ready);
      sim.high();
    }
    ref.reset();
  }

  // Runs one vector alone from reset (no bubbles, no back-pressure: its transactions back to
  // back) with a waveform; returns true if an output or the handshake timing differs (used by
  // Session::rerun_with_waves).
  bool run_one_with_waves(const Vector& v, const std::string& vcd_path) {
    Sim<Model> sim(vcd_path);
    Model& m = *sim.m;
    reset(sim);
    DeclaredTiming ref(latency_, h_.handshake ? h_.handshake() : nullptr);
    const int nsteps = h_.steps ? h_.steps(v) : 1;
    const size_t n = static_cast<size_t>(out_words_ * nsteps);
    std::vector<uint32_t> expected(n), got(n);
    h_.golden(v, expected.data());
    int sent = 0, received = 0;
    bool timing_differs = false;
    for (uint64_t c = 0; c < hang_cycles; ++c) {
      m.in_valid = sent < nsteps;
      if (h_.steps) h_.set_inputs_step(m, v, sent < nsteps ? sent : nsteps - 1);
      else h_.set_inputs(m, v);
      m.out_ready = 1;
      sim.low();
      timing_differs = timing_differs || m.in_ready != ref.in_ready(true) || m.out_valid != ref.out_valid(m.in_valid);
      ref.edge(m.in_valid, true);
      const bool fire_in = m.in_valid && m.in_ready;
      if (m.out_valid && m.out_ready) {
        h_.get_outputs(m, got.data() + static_cast<size_t>(out_words_ * (received < nsteps ? received : nsteps - 1)));
        if (++received == nsteps) {
          sim.high();
          sim.cycle();
          return timing_differs || got != expected;
        }
      }
      sim.high();
      sent += fire_in ? 1 : 0;
    }
    return true;  // not every output came
  }

 private:
  // Compares the RTL's in_ready / out_valid of this cycle with the declared timing; on a
  // difference reports it (blaming the oldest transaction in flight for out_valid, the offered
  // one for in_ready) and returns false.
  bool timing_ok(const DeclaredTiming& ref, const Model& m, uint64_t cycle, const Vector* head, uint64_t head_index,
                 const Vector* offered, uint64_t offered_index) {
    const bool want_ready = ref.in_ready(m.out_ready), want_valid = ref.out_valid(m.in_valid);
    if (m.in_ready == want_ready && m.out_valid == want_valid) return true;
    const bool valid_wrong = m.out_valid != want_valid;
    const Vector* v = valid_wrong && head ? head : offered ? offered : head;
    const uint64_t index = v == head ? head_index : offered_index;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "handshake differs from the declared timing (%s): expected in_ready=%d out_valid=%d, RTL "
                  "in_ready=%d out_valid=%d (in_valid=%d out_ready=%d, %d in flight)",
                  ref.what().c_str(), want_ready ? 1 : 0, want_valid ? 1 : 0, m.in_ready ? 1 : 0, m.out_valid ? 1 : 0,
                  m.in_valid ? 1 : 0, m.out_ready ? 1 : 0, ref.occupancy());
    s_.fail_timing(index, v, cycle, buf);
    return false;
  }

  // Vectors made ahead of the RTL, and the ring that holds them (a slot is reused once its
  // vector is retired; in flight are at most STAGES + 1 transactions, so a batch always fits).
  static constexpr uint64_t kBatch = 256, kRing = 2 * kBatch;
  struct Slot {
    uint64_t index = 0;              // the vector's number in the stream (messages, replay files)
    Vector v;
    std::vector<uint32_t> expected;  // every step's outputs, step s at s * out_words
    int nsteps = 1;
  };
  struct InFlight {
    uint64_t seq;  // vector number (slot seq % kRing)
    int step;
  };
  // A FIFO of the transactions in the pipeline, fixed capacity (grows only if the RTL holds more
  // than STAGES + 1, which the timing check reports first).
  class InFlightFifo {
   public:
    explicit InFlightFifo(size_t cap) : b_(cap) {}
    bool empty() const { return n_ == 0; }
    const InFlight& front() const { return b_[h_]; }
    void push(InFlight f) {
      if (n_ == b_.size()) {
        std::vector<InFlight> g(2 * b_.size());
        for (size_t i = 0; i < n_; ++i) g[i] = b_[(h_ + i) % b_.size()];
        b_.swap(g);
        h_ = 0;
      }
      b_[(h_ + n_++) % b_.size()] = f;
    }
    InFlight pop() {
      const InFlight f = b_[h_];
      h_ = (h_ + 1) % b_.size();
      --n_;
      return f;
    }

   private:
    std::vector<InFlight> b_;
    size_t h_ = 0, n_ = 0;
  };

  // Makes up to `n` vectors (stream numbers made, made+1, ...) and their expected outputs into
  // the ring; returns how many (0: the stream is done).
  uint64_t fill(VectorStream& vs, std::vector<Slot>& ring, uint64_t made, uint64_t n, bool multi) {
    uint64_t k = 0;
    for (; k < n; ++k) {
      Slot& sl = ring[(made + k) % kRing];
      if (!vs.next(sl.v, sl.index)) break;
      sl.nsteps = multi ? h_.steps(sl.v) : 1;
      sl.expected.resize(static_cast<size_t>(out_words_ * sl.nsteps));
      h_.golden(sl.v, sl.expected.data());
    }
    return k;
  }

  Session& s_;
  Hooks h_;
  int out_words_, latency_;
  int cov_backpressure_, cov_blocked_, cov_bubble_, cov_full_, cov_burst_;
};

}  // namespace hifsim::cosim
